"""ABAP tools: message classes."""
