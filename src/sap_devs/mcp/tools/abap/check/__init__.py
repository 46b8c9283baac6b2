"""ABAP tools: check."""
