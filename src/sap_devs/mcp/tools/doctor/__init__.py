"""Tools that inspect the developer's machine and project (read-only, no project code is run)."""
