"""ABAP tools: program."""
