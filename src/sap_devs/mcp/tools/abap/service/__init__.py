"""ABAP tools: service."""
