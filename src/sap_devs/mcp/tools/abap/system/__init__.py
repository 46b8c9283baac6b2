"""ABAP tools: system."""
