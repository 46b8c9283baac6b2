"""The ``sap-devs`` command line: thin commands over the same domain code the MCP tools use."""
