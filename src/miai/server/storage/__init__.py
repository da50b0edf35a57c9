"""Storage: tables, migrations and the repositories that speak SQL."""
