"""Cross-cutting pieces every layer may use: paths, errors, file writes."""
