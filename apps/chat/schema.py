"""Chat tables (scaffold: filled in by the Chat package)."""
TABLES = ()
