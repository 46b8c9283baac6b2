"""ABAP tools: ddic."""
