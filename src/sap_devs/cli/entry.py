"""The ``sap-devs`` executable: the MCP server starts without importing the full CLI."""

from __future__ import annotations

import sys


def main() -> None:
    argv = sys.argv[1:]
    if argv[:2] == ["mcp", "serve"]:
        from sap_devs.mcp.fast_front import serve, stdio_options

        options = stdio_options(argv)
        code = serve(options) if options is not None else None
        if code is not None:
            sys.exit(code)
    from sap_devs.cli.serve import fast_path

    code = fast_path(argv)
    if code is not None:
        sys.exit(code)
    from sap_devs.cli.app import main as cli_main

    cli_main()


if __name__ == "__main__":  # python -m sap_devs.cli.entry
    main()
