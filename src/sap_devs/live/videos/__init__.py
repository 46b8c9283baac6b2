"""SAP developer videos from the packs' YouTube sources: the catalogue and its search, sync."""
