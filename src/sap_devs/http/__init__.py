"""sap-devs over Streamable HTTP: the SDK's stateless transport behind API keys or OIDC bearer tokens.

Nothing here is imported on the stdio path; ``sap-devs mcp serve --transport http`` loads it.
"""
