"""Options and helpers shared by CLI commands."""

from __future__ import annotations

import typer

from sap_devs.core.log import setup_logging

__all__ = ["ENVIRONMENT_OPTION", "PROFILE_OPTION", "fail", "setup_logging"]

PROFILE_OPTION = typer.Option(
    None, "--profile", "-p", envvar="SAP_DEVS_PROFILE", help="Profile id that orders packs (default: all)."
)
ENVIRONMENT_OPTION = typer.Option(
    "onprem",
    "--environment",
    envvar="SAP_SYSTEM_TYPE",
    help="SAP system environment tools are filtered for: onprem, cloud or legacy.",
)


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"sap-devs: {message}", err=True)
    return typer.Exit(code)
