"""ABAP tools: interface."""
