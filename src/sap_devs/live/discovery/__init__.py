"""SAP Discovery Center: its OData client, missions, live mission search, the BTP service catalogue, sync."""
