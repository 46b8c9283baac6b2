"""``sap-devs trust``: let a project's (or company's) packs define commands, after the user has read them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from sap_devs.cli.common import fail

if TYPE_CHECKING:
    from sap_devs.knowledge.trust import Snapshot


def _commands(found: Snapshot) -> list[str]:
    """What trusting the folder read in ``found`` would let run: tool-check and MCP server commands,
    from the very bytes whose digest is then recorded."""
    from sap_devs.core.errors import ContentError
    from sap_devs.knowledge.packs import load_pack

    lines: list[str] = []
    packs_dir = found.root / "packs"
    for pack_folder in (p for p in found.children(packs_dir) if found.is_dir(p) and not p.name.startswith((".", "_"))):
        problems: list[ContentError] = []
        pack = load_pack(pack_folder, layer="project", problems=problems, files=found)
        for tool in pack.tools:
            lines.append(f"  {pack_folder / 'tools.yaml'}: check '{tool.id}' runs: {tool.detect.command}")
        for server in pack.mcp_servers:
            cmd = " ".join([server.install.command, *server.install.args])
            env = f" (env: {', '.join(sorted(server.install.env))})" if server.install.env else ""
            lines.append(f"  {pack_folder / 'mcp.yaml'}: server '{server.id}' runs: {cmd}{env}")
        for problem in problems:
            lines.append(f"  problem: {problem}")
    return lines


def trust(
    path: Path = typer.Argument(
        Path("."), help="Project folder holding .sap-devs/ (default: here), or a layer folder."
    ),
    list_: bool = typer.Option(False, "--list", help="List trusted folders and whether they changed since."),
    revoke: bool = typer.Option(False, "--revoke", help="Stop trusting the folder."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Trust without asking (for scripts)."),
) -> None:
    """Let the packs in a project's .sap-devs/ folder define tool checks and MCP servers, as they are now.

    Until then, such packs give content only: their tools.yaml and mcp.yaml are ignored, because the
    commands in them would run on this machine. Any later change to the folder needs trust again.
    """
    from sap_devs.core.errors import SapDevsError
    from sap_devs.knowledge import trust as store

    if list_:
        rows = store.entries()
        if not rows:
            typer.echo("No folders are trusted.")
        for entry, state in rows:
            note = {"trusted": "", "changed": " (changed since: not trusted until trusted again)"}.get(
                state, " (folder no longer exists)"
            )
            typer.echo(f"{entry.folder}: {entry.files} file(s){note}")
        return
    try:
        folder = store.pack_folder(path)
        if revoke:
            if store.revoke(folder):
                typer.echo(f"{folder} is no longer trusted; its tools.yaml and mcp.yaml are ignored again.")
            else:
                typer.echo(f"{folder} was not trusted.")
            return
        found = store.snapshot(folder)
        commands = _commands(found)
        if commands:
            typer.echo(f"Trusting {folder} lets it run these commands on this machine:")
            for line in commands:
                typer.echo(line)
        else:
            typer.echo(f"{folder} defines no tool checks and no MCP servers.")
        if not yes:
            _confirm(folder)
        entry = store.trust(folder, found)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    typer.echo(f"Trusted {entry.folder} ({entry.files} file(s), as they are now).")
    typer.echo("Any change to a file in it needs `sap-devs trust` again; `--revoke` undoes this.")


def _confirm(folder: Path) -> None:
    """Ask on a terminal; refuse without one (a script says --yes: trust is never given by default)."""
    import sys

    if not sys.stdin.isatty():
        raise fail(f"Not trusted: pass --yes to trust {folder} without being asked (no terminal to ask on).")
    if not typer.confirm(f"Trust {folder} as it is now?", default=False):
        raise fail("Not trusted; nothing changed.", code=1)
