"""``sap-devs sync``: refresh the cached SAP data (tutorials, news ...) from the live sources."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import typer

from sap_devs.cli.common import fail, setup_logging

STATUS_STYLE = {
    "ok": "green",
    "fresh": "green",
    "stale": "yellow",
    "failed": "red",
    "absent": "dim",
    "bundled": "cyan",
    "offline": "yellow",
}


CONNECT_FAILURE = re.compile(r"\b(ConnectError|ConnectTimeout|ProxyError)\b")
FIRST_HOST = re.compile(r"https?://([^/\s:?]+)")


def unreachable(message: str | None) -> str | None:
    """For a failure that never reached the source: a short 'could not connect to HOST'."""
    if not message or not CONNECT_FAILURE.search(message):
        return None
    host = FIRST_HOST.search(message)
    return f"could not connect to {host.group(1) if host else 'the source'} (network or proxy)"


def _note(r: Any) -> str:
    if r.status in ("failed", "stale"):
        short = unreachable(r.message)
        if short:
            return short + ("; keeping the cached copy" if r.status == "stale" else "")
    return r.message or ""


def _render(results: list[Any], *, title: str) -> None:
    if not sys.stdout.isatty():
        for r in results:
            parts = [r.name, r.status]
            if r.items is not None:
                parts.append(f"{r.items} items")
            if r.age:
                parts.append(f"age {r.age}")
            if r.seconds:
                parts.append(f"{r.seconds:.1f}s")
            if r.message:
                parts.append(_note(r))
            typer.echo(" | ".join(parts))
            for row in r.extra.get("details") or []:
                repo, commit, origin, age = _detail_cells(row)
                typer.echo("  " + " | ".join(v for v in (repo, commit, origin, age and f"age {age}") if v))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for col in ("source", "status", "items", "age", "time", "note"):
        table.add_column(col)
    for r in results:
        style = STATUS_STYLE.get(r.status, "")
        table.add_row(
            r.title,
            f"[{style}]{r.status}[/{style}]",
            "" if r.items is None else str(r.items),
            r.age or "",
            f"{r.seconds:.1f}s" if r.seconds else "",
            _note(r),
        )
    console = Console()
    console.print(table)
    for r in results:
        rows = r.extra.get("details") or []
        if not rows:
            continue
        detail = Table(title=r.title)
        for col in ("repository", "commit", "origin", "age"):
            detail.add_column(col)
        for row in rows:
            detail.add_row(*_detail_cells(row))
        console.print(detail)


def _detail_cells(row: dict[str, str]) -> tuple[str, str, str, str]:
    """One part of a source (docs: a repository) as (name, commit, origin, age)."""
    return row.get("repo", ""), row.get("commit", ""), row.get("origin", ""), row.get("age", "")


def run(sources: list[Any], bases: dict[str, str], *, force: bool) -> list[Any]:
    """Run the sync with a progress display on a terminal and plain progress lines otherwise."""
    import anyio

    from sap_devs.live.sync import run_sync

    env = dict(os.environ)
    if not sys.stderr.isatty():
        for s in sources:
            typer.echo(f"syncing {s.name} ...", err=True)
        return anyio.run(lambda: run_sync(sources, bases=bases, env=env, force=force))

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn

    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), transient=True
    ) as progress:
        tasks = {s.name: progress.add_task(s.title, total=None) for s in sources}

        def on_progress(name: str, done: int, total: int | None) -> None:
            progress.update(tasks[name], completed=done, total=total)

        return anyio.run(lambda: run_sync(sources, bases=bases, env=env, force=force, progress=on_progress))


def sync(
    force: bool = typer.Option(False, "--force", help="Fetch even sources whose cache is still fresh."),
    only: list[str] = typer.Option(None, "--only", help="Sync only this source; repeat for more."),
    show_status: bool = typer.Option(False, "--status", help="Show what is cached and how old it is; fetch nothing."),
) -> None:
    """Fetch the live SAP sources into the local cache (tutorials, news ...)."""
    setup_logging()
    from sap_devs.live.sources import all_sources, default_bases
    from sap_devs.live.sync import status

    sources = all_sources()
    if only:
        names = {s.name for s in sources}
        unknown = [o for o in only if o not in names]
        if unknown:
            raise fail(f"Unknown source(s): {', '.join(unknown)}. Sources: {', '.join(sorted(names))}.")
        sources = [s for s in sources if s.name in only]
    if show_status:
        _render(status(sources), title="sap-devs cache")
        return
    bases = default_bases()
    from sap_devs.live.reachability import hosts_of, offline

    if offline(hosts_of(bases), os.environ):
        _offline(sources)
        raise typer.Exit(1)
    results = run(sources, bases, force=force)
    _render(results, title="sap-devs sync")
    missed = [r for r in results if r.status in ("failed", "stale")]
    if missed and len(missed) == len(results) and all(unreachable(r.message) for r in missed):
        typer.echo(
            "sap-devs sync: no source could be reached (network or proxy); the bundled snapshots and cached "
            "copies stay in use.",
            err=True,
        )
    if results and all(r.status == "failed" for r in results):
        raise typer.Exit(1)


def _offline(sources: list[Any]) -> None:
    """No network: say once per source what is served instead, then one closing line."""
    from sap_devs.live.sync import status

    for r in status(sources):
        if r.status in ("fresh", "stale"):
            kept = f"keeping the copy synced {r.age} ago"
        elif r.status == "bundled":
            kept = "the bundled snapshot stays in use"
        else:
            kept = "nothing cached or bundled: its tools answer once a sync succeeds"
        typer.echo(f"{r.name}: not fetched (offline); {kept}")
    typer.echo(
        "sap-devs sync: no network (none of the source hosts resolves); nothing was fetched and the bundled "
        "snapshots and cached copies stay in use. Run 'sap-devs sync' again when online.",
        err=True,
    )
