"""One module per tool, grouped by category; the registry finds them all."""
