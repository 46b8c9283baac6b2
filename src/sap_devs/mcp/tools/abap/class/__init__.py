"""ABAP tools: class."""
