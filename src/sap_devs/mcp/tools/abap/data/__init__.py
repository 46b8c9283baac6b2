"""ABAP tools: data (table contents, SELECT queries); only with SAP_DEVS_ADT_DATA=1."""
