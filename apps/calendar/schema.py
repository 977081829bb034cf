"""Calendar tables (scaffold: filled in by the Calendar package)."""
TABLES = ()
