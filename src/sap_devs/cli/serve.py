"""Starting the MCP server: shared by ``sap-devs mcp serve`` and the fast start-up path.

Agents start the server at the beginning of every session, so ``sap-devs mcp serve`` is parsed
with argparse before the full typer CLI (and rich) would be imported; ``sap-devs mcp serve
--help`` still goes through typer, whose command calls the same ``run_server``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path


def run_server(
    profile: str | None,
    environment: str | None,
    tools_mode: str = "auto",
    pinned: str | None = None,
    allow_writes: bool = False,
    system: str | None = None,
) -> int:
    """Serve until the client disconnects; returns the process exit code."""
    from sap_devs.core.log import setup_logging

    setup_logging()
    import anyio

    from sap_devs.adt.config import deferred_errors
    from sap_devs.core.errors import SapDevsError
    from sap_devs.knowledge.layer_paths import available_profiles, default_layers
    from sap_devs.mcp.registry import DEFAULT_PINNED
    from sap_devs.mcp.server import build_server, serve_stdio
    from sap_devs.mcp.session import open_session

    cwd = Path(os.getcwd())
    try:
        layers = default_layers(cwd)
        if profile not in (None, "", "all"):
            known = available_profiles(layers)
            if profile not in known:
                raise SapDevsError(f"Unknown profile {profile!r}.", hint=f"Choose one of: {', '.join(known)}.")
        # A broken ABAP configuration must not take the knowledge tools down with it: the server
        # starts, says what is wrong once here, and every ABAP tool answers with the same message.
        with deferred_errors():
            registry, ctx = open_session(
                environment=environment,
                profile=profile,
                allow_writes=allow_writes,
                cwd=cwd,
                layers=layers,
                system=system,
            )
        problem = ctx.adt_config.problem if ctx.adt_config is not None else None
        if problem is not None:
            print(f"sap-devs: ABAP tools unavailable: {problem}", file=sys.stderr)
    except SapDevsError as exc:
        print(f"sap-devs: {exc}", file=sys.stderr)
        return 2
    pins = [p.strip() for p in (pinned or ",".join(DEFAULT_PINNED)).split(",") if p.strip()]
    unknown = [p for p in pins if p not in registry]
    try:
        if unknown:
            raise SapDevsError(
                f"Cannot pin unknown tool(s): {', '.join(unknown)}.", hint="Check `sap-devs tools list`."
            )
        server = build_server(registry, ctx, mode=tools_mode, pinned=pins)
    except SapDevsError as exc:
        print(f"sap-devs: {exc}", file=sys.stderr)
        return 2
    mode = registry.resolve_mode(tools_mode)
    if sys.stdin.isatty():
        print(
            f"sap-devs MCP server ready on stdio ({mode} mode, {len(registry.operations())} operations). "
            "It is meant to be started by an AI "
            "client: add the command 'sap-devs mcp serve' to the client's MCP configuration (see the README). "
            "Press Ctrl+C to stop.",
            file=sys.stderr,
        )
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(serve_stdio, server)
    return 0


def fast_path(argv: list[str]) -> int | None:
    """Handle ``mcp serve [--profile ID] [--environment ENV] [--tools MODE] [--pin NAMES]`` without typer;
    None when not applicable (help, unknown options), so typer answers those."""
    if argv[:2] != ["mcp", "serve"] or any(a in ("-h", "--help") for a in argv[2:]):
        return None
    parser = argparse.ArgumentParser(prog="sap-devs mcp serve", add_help=False)
    parser.add_argument("--profile", "-p", default=os.environ.get("SAP_DEVS_PROFILE"))
    parser.add_argument("--environment", default=None)
    parser.add_argument("--allow-writes", action="store_true")
    parser.add_argument("--system", default=None)
    parser.add_argument("--tools", dest="tools_mode", default=os.environ.get("SAP_DEVS_TOOLS", "auto"))
    parser.add_argument("--pin", default=os.environ.get("SAP_DEVS_PINNED_TOOLS"))
    args, unknown = parser.parse_known_args(argv[2:])
    if unknown:
        return None  # let typer report the unknown option with its usual message
    return run_server(args.profile, args.environment, args.tools_mode, args.pin, args.allow_writes, args.system)
