"""ABAP tools: cds."""
