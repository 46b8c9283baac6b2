"""The MCP face of sap-devs: the tool framework, the registry and the server."""
