"""ABAP tools: function."""
