"""Servers: the env server, its wire format and remote clients, and the policy every local server applies."""
