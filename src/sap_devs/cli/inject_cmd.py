"""``sap-devs inject``: put SAP rules and context into the AI clients' always-on instruction files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from sap_devs.cli.common import PROFILE_OPTION, fail

if TYPE_CHECKING:
    from sap_devs.integrations.inject import PackLoader

VERBOSITIES = ("minimal", "standard", "full")
SCOPES = ("user", "project")


def inject(
    scope: str = typer.Option("project", "--scope", help="project (files in the project) or user (all projects)."),
    client: list[str] | None = typer.Option(
        None,
        "--client",
        "-c",
        help="Client (repeatable): claude-code, codex, vscode (copilot), cursor, windsurf, gemini-cli, continue. "
        "Default: the clients found on this machine.",
    ),
    verbosity: str | None = typer.Option(
        None,
        "--verbosity",
        help="minimal, standard or full (adds a table of known SAP errors). Default: a lean block of the rules, "
        "which sap-devs tool to call when and the profile's packs at minimal (at most about 3,000 tokens).",
    ),
    uninstall: bool = typer.Option(
        False, "--uninstall", help="Remove the sap-devs block (and files sap-devs created)."
    ),
    show_status: bool = typer.Option(
        False, "--status", help="Report present / stale / absent per file; change nothing."
    ),
    profile: str | None = PROFILE_OPTION,
    project: Path | None = typer.Option(None, "--project", help="Project folder for project scope (default: here)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the changes as a unified diff; change nothing."),
) -> None:
    """Write the active profile's SAP rules and context into each AI client's instruction file.

    The block sits between <!-- sap-devs:start --> and <!-- sap-devs:end -->; text outside the
    markers is kept."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import clients as table
    from sap_devs.integrations import inject as engine

    if scope not in SCOPES:
        raise fail(f"Unknown scope {scope!r}; use one of: {', '.join(SCOPES)}.")
    if verbosity is not None and verbosity not in VERBOSITIES:
        raise fail(f"Unknown verbosity {verbosity!r}; use one of: {', '.join(VERBOSITIES)}.")
    if uninstall and show_status:
        raise fail("Use either --uninstall or --status, not both.")
    root = (project or Path(os.getcwd())).expanduser().absolute()
    home = table.home_dir()
    try:
        chosen, _ = table.select(client, home)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    if not chosen:
        raise fail(
            f"No AI client found in {home} or on PATH; name one with --client "
            f"({', '.join(c.id for c in table.CLIENTS if c.instructions)}).",
            code=1,
        )
    targets, notes = engine.targets(chosen, scope, home, root)  # type: ignore[arg-type]
    if client:
        for note in notes:
            typer.echo(f"{note}, skipped.")
    if not targets:
        raise fail(f"None of these clients has a {scope}-scope instruction file.", code=1)

    load = engine.loader(root, trusted_only=scope == "user")
    if profile is None and scope == "project" and not uninstall and not show_status:
        profile, types = engine.detect_profile(root)
        if profile:
            typer.echo(f"Profile {profile}, from the project ({', '.join(types)}); choose another with --profile.")
        else:
            typer.echo("No CAP, ABAP, UI5/Fiori or MTA project found here: profile all; choose one with --profile.")

    failed = 0
    for t in targets:
        label = f"{t.client.name}: {t.path}"
        try:
            if show_status:
                row = engine.status(t, load, verbosity, profile)  # type: ignore[arg-type]
                failed += row.state in ("mismatched markers", "unreadable")
                typer.echo(f"{label}: {row.state}" + (f" ({row.detail})" if row.detail else ""))
                warnings = [engine.duplicate(t, home, root) if t.scope == "project" else None, engine.hidden(t, home)]
                for warning in filter(None, warnings):
                    typer.echo(f"Warning: {warning}")
            elif uninstall:
                outcome = engine.uninstall(t, dry_run=dry_run)
                typer.echo(f"{label}: {outcome.status}")
                if dry_run and outcome.diff:
                    typer.echo(outcome.diff, nl=False)
            else:
                outcome = engine.inject(t, load, verbosity, profile, dry_run=dry_run)  # type: ignore[arg-type]
                typer.echo(f"{label}: {outcome.status} ({engine.describe(outcome.block)})")
                for warning in filter(None, (engine.duplicate(t, home, root), engine.hidden(t, home))):
                    typer.echo(f"Warning: {warning}", err=True)
                if dry_run and outcome.diff:
                    typer.echo(outcome.diff, nl=False)
        except SapDevsError as exc:
            failed += 1
            typer.echo(f"sap-devs: {exc}", err=True)
    if scope == "user" and not uninstall and not show_status:
        _note_left_out(load, profile)
    if failed:
        raise typer.Exit(1)


def _note_left_out(load: PackLoader, profile: str | None) -> None:
    from sap_devs.core.errors import SapDevsError

    try:
        left_out = load(profile).left_out
    except SapDevsError:
        return  # already reported for each file above
    if left_out:
        typer.echo(
            f"Not written into user-scope files: the packs in {', '.join(left_out)}, not trusted "
            "(every project would read them); after reviewing them, `sap-devs trust` includes them."
        )
