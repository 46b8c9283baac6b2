"""``sap-devs mcp serve``: the stdio MCP server; ``mcp install / uninstall / status`` wire it into AI clients."""

from __future__ import annotations

import typer

from sap_devs.cli import install_cmd
from sap_devs.cli.common import ENVIRONMENT_OPTION, PIN_OPTION, PROFILE_OPTION, TOOLS_MODE_OPTION

app = typer.Typer(help="Run sap-devs as an MCP server and wire it into AI clients.", no_args_is_help=True)


@app.command("serve")
def serve(
    profile: str | None = PROFILE_OPTION,
    environment: str = ENVIRONMENT_OPTION,
    tools: str = TOOLS_MODE_OPTION,
    pin: str | None = PIN_OPTION,
    allow_writes: bool = typer.Option(
        False, "--allow-writes", help="Enable the ABAP write tools (also SAP_DEVS_ADT_WRITE=1); off by default."
    ),
    system: str | None = typer.Option(
        None, "--system", envvar="SAP_DEVS_SYSTEM", help="Named ABAP system from <config dir>/systems.yaml."
    ),
    transport: str = typer.Option(
        "stdio",
        "--transport",
        help="stdio (one developer) or http (a team server: Streamable HTTP at /mcp with API keys or OIDC; "
        "`sap-devs mcp serve --transport http --help` lists its options).",
    ),
) -> None:
    """Serve the sap-devs tools over MCP on stdin/stdout (both protocol eras), or over HTTP with --transport http."""
    if transport != "stdio":  # http is started before this command is parsed (cli/serve.py fast_path)
        raise typer.BadParameter("use stdio or http", param_hint="--transport")
    from sap_devs.cli.serve import run_server

    code = run_server(profile, environment, tools, pin, allow_writes, system)
    if code:
        raise typer.Exit(code)


app.command("install")(install_cmd.install)
app.command("uninstall")(install_cmd.uninstall)
app.command("status")(install_cmd.status)
