"""ABAP tools: editor help at a position in a source (completion, element info, F1 docs, quick fixes, pretty printer)."""
