"""ABAP tools: version history."""
