"""ABAP tools: bdef."""
