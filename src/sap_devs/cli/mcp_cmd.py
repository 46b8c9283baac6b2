"""``sap-devs mcp serve``: the stdio MCP server."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import typer

from sap_devs.cli.common import ENVIRONMENT_OPTION, PROFILE_OPTION, fail, setup_logging

app = typer.Typer(help="Run sap-devs as an MCP server.", no_args_is_help=True)


@app.command("serve")
def serve(profile: str | None = PROFILE_OPTION, environment: str = ENVIRONMENT_OPTION) -> None:
    """Serve the sap-devs tools over MCP on stdin/stdout (both protocol eras)."""
    setup_logging()
    import anyio

    from sap_devs.core.errors import SapDevsError
    from sap_devs.knowledge.layers import available_profiles, default_layers
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry
    from sap_devs.mcp.server import build_server, serve_stdio

    cwd = Path(os.getcwd())
    try:
        layers = default_layers(cwd)
        if profile not in (None, "", "all"):
            known = available_profiles(layers)
            if profile not in known:
                raise SapDevsError(f"Unknown profile {profile!r}.", hint=f"Choose one of: {', '.join(known)}.")
        registry = Registry.default(environment=environment)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    ctx = ToolContext(cwd=cwd, profile_id=profile, environment=environment, layers=layers)  # type: ignore[arg-type]
    server = build_server(registry, ctx)
    if sys.stdin.isatty():
        print(
            f"sap-devs MCP server ready on stdio with {len(registry)} tools. It is meant to be started by an AI "
            "client: add the command 'sap-devs mcp serve' to the client's MCP configuration (see the README). "
            "Press Ctrl+C to stop.",
            file=sys.stderr,
        )
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(serve_stdio, server)
