"""The ``sap-devs`` executable: the MCP server starts without importing the full CLI."""

from __future__ import annotations

import sys


def main() -> None:
    from sap_devs.cli.serve import fast_path

    code = fast_path(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from sap_devs.cli.app import main as cli_main

    cli_main()
