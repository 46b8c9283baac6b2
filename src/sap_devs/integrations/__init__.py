"""AI-client adapters: ``mcp install`` writes MCP server entries, ``inject`` writes instruction files."""
