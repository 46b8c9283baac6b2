"""Entry point of the ``sap-devs`` command."""

from __future__ import annotations

import sys

import typer

from sap_devs.cli import (
    abap_cmd,
    check_cmd,
    content_cmd,
    inject_cmd,
    keys_cmd,
    mcp_cmd,
    sync_cmd,
    toolchain_cmd,
    tools_cmd,
    trust_cmd,
)

app = typer.Typer(
    name="sap-devs",
    help="SAP developer knowledge and ABAP system access for AI coding agents (MCP server and CLI).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(mcp_cmd.app, name="mcp")
app.add_typer(tools_cmd.app, name="tools")
app.add_typer(abap_cmd.app, name="abap")
app.add_typer(content_cmd.app, name="content")
app.add_typer(keys_cmd.app, name="keys")
app.add_typer(toolchain_cmd.app, name="toolchain")
app.command("sync")(sync_cmd.sync)
app.command("inject")(inject_cmd.inject)
app.command("trust")(trust_cmd.trust)
app.command("check")(check_cmd.check)


def _version(value: bool) -> None:
    if value:
        from sap_devs import package_version

        typer.echo(f"sap-devs {package_version()}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """SAP developer knowledge and ABAP system access for AI coding agents."""


def main() -> None:
    from sap_devs.core.errors import SapDevsError

    try:
        app()
    except SapDevsError as exc:
        print(f"sap-devs: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
