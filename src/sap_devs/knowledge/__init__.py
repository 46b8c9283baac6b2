"""SAP knowledge: content packs, profiles and the queries over them. Knows nothing about MCP."""
