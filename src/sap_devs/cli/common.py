"""Options and helpers shared by CLI commands."""

from __future__ import annotations

import typer

from sap_devs.core.log import setup_logging

__all__ = ["ENVIRONMENT_OPTION", "PIN_OPTION", "PROFILE_OPTION", "TOOLS_MODE_OPTION", "fail", "setup_logging"]

PROFILE_OPTION = typer.Option(
    None, "--profile", "-p", envvar="SAP_DEVS_PROFILE", help="Profile id that orders packs (default: all)."
)
ENVIRONMENT_OPTION = typer.Option(
    None,
    "--environment",
    envvar="SAP_SYSTEM_TYPE",
    help="SAP system environment tools are filtered for: onprem (default), cloud or legacy.",
)


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"sap-devs: {message}", err=True)
    return typer.Exit(code)


TOOLS_MODE_OPTION = typer.Option(
    "auto",
    "--tools",
    envvar="SAP_DEVS_TOOLS",
    help="full = list every tool; progressive = search_tools, get_tool_schemas, call_tool and pinned tools; "
    "auto = progressive above 40 tools.",
)
PIN_OPTION = typer.Option(
    None,
    "--pin",
    envvar="SAP_DEVS_PINNED_TOOLS",
    help="Comma-separated tools listed directly in progressive mode (default: get_known_errors,get_context,search_docs).",
)
