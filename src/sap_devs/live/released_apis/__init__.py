"""SAP's released ABAP API lists and their successors (lists), synced from SAP/abap-atc-cr-cv-s4hc (sync)."""
