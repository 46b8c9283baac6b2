"""ABAP tools: search."""
