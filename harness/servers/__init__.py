"""Servers: the env server, its remote clients, the MCP server and the policy every local server applies."""
