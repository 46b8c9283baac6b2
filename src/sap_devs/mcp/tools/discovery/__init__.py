"""Tools over SAP Discovery Center: BTP services and missions."""
