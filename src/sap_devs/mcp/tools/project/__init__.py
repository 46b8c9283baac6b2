"""Tools that run SAP's own compilers and linters over the developer's project (the toolchain)."""
