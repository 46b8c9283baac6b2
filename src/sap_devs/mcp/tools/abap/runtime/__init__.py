"""ABAP tools: runtime errors."""
