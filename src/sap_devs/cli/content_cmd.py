"""``sap-devs content``: tools for people writing company or project packs."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="Check content packs you write (company or project packs).", no_args_is_help=True)


@app.command("validate")
def validate(
    path: Path = typer.Argument(
        Path("."), help="A pack folder, a packs/ folder, or a layer folder such as .sap-devs/ (default: here)."
    ),
) -> None:
    """Report every problem in the packs under PATH with file, line and field; exit 1 on errors."""
    from sap_devs.knowledge.validate import validate_path

    report = validate_path(path)
    for problem in report.problems:
        typer.echo(str(problem))
    summary = (
        f"Checked {len(report.packs)} pack(s) and {len(report.profiles)} profile(s): "
        f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)."
    )
    typer.echo(summary)
    if report.errors:
        raise typer.Exit(1)


@app.command("snapshot", hidden=True)
def snapshot() -> None:
    """Rewrite the parsed copy of the bundled packs (for sap-devs developers after editing them)."""
    from sap_devs.core.fs import atomic_write_text
    from sap_devs.knowledge.parsed_yaml import SNAPSHOT_PATH, render_snapshot

    atomic_write_text(SNAPSHOT_PATH, render_snapshot())
    typer.echo(f"Wrote {SNAPSHOT_PATH}.")
