"""ABAP Development Tools (ADT) client: connection, objects, safety policy. Knows nothing about MCP."""
