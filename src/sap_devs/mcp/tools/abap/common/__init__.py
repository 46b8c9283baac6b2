"""ABAP tools: common."""
