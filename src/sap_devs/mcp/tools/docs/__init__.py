"""Tools over the SAP documentation index."""
