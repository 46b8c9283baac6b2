"""ABAP tools: transport."""
