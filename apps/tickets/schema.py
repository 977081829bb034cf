"""tickets tables (scaffold)."""
TABLES = ()
