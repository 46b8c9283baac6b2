"""ABAP tools: package."""
