"""Optional integrations; importing this package imports no backend."""
