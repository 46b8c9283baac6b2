"""Tools over SAP Developer News."""
