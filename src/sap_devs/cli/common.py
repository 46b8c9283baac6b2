"""Options and helpers shared by CLI commands."""

from __future__ import annotations

import logging
import os
import sys

import typer

PROFILE_OPTION = typer.Option(
    None, "--profile", "-p", envvar="SAP_DEVS_PROFILE", help="Profile id that orders packs (default: all)."
)
ENVIRONMENT_OPTION = typer.Option(
    "onprem",
    "--environment",
    envvar="SAP_SYSTEM_TYPE",
    help="SAP system environment tools are filtered for: onprem, cloud or legacy.",
)


def setup_logging() -> None:
    """Diagnostics go to stderr only: stdout belongs to the MCP protocol or to command output."""
    level = os.environ.get("SAP_DEVS_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, level, logging.WARNING), format="sap-devs %(levelname)s %(message)s"
    )


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"sap-devs: {message}", err=True)
    return typer.Exit(code)
