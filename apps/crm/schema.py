"""crm tables (scaffold)."""
TABLES = ()
