"""``sap-devs check [PATH]``: the project checks and the developer tool checks, for a human.

Runs what the check_project and check_tools tools run (the same code, the same pack data) and shows
the findings as a table grouped by severity; ``--json`` prints them for scripts. The exit code is 1
when the project has an error (docs/CHECKS.md), 2 when the folder cannot be checked, else 0.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import typer

from sap_devs.cli.common import PROFILE_OPTION, fail, setup_logging

_ORDER = {"error": 0, "warning": 1, "info": 2}
_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
# developer tools are not part of the project: a tool that is too old can break the build (warning),
# one that is missing or cannot be asked may not be needed for this project (info)
_TOOL_SEVERITY = {"outdated": "warning", "missing": "info", "error": "info", "unknown": "info"}


def _project(path: Path, profile: str | None) -> tuple[dict[str, Any], Any]:
    from sap_devs.core.errors import SapDevsError
    from sap_devs.doctor.baseline import baseline_from
    from sap_devs.doctor.project import check_project
    from sap_devs.mcp.framework import ToolError
    from sap_devs.mcp.session import open_session
    from sap_devs.mcp.tools.doctor.check_project import _resolve

    try:
        _registry, ctx = open_session(profile=profile, cwd=path if path.is_dir() else None)
        root = _resolve(str(path), ctx)
    except ToolError as exc:
        raise fail(f"{exc} {exc.hint or ''}".strip()) from None
    except (SapDevsError, OSError) as exc:
        raise fail(str(exc)) from None
    start = time.perf_counter()
    report = check_project(root, baseline=baseline_from(ctx.knowledge))
    seconds = time.perf_counter() - start
    det = report.detection
    data = {
        "path": str(report.path),
        "detection": asdict(det),
        "findings": [asdict(f) for f in report.findings],
        "notes": report.notes,
        "seconds": round(seconds, 4),
    }
    return data, ctx


def _tools(ctx: Any) -> list[dict[str, Any]]:
    import anyio

    from sap_devs.mcp.dispatch import invoke

    tool = ctx.registry.get("check_tools") if ctx.registry is not None else None
    if tool is None:
        return []
    outcome = anyio.run(invoke, tool, {"limit": 100}, ctx)
    if outcome.is_error or not outcome.structured:
        return []
    return list(outcome.structured.get("results") or [])


def _for_project(project: dict[str, Any], ctx: Any, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool results judged by what this project needs where it says (the JDK and Maven of its CAP
    Java major), not by the packs' minimums for a new project."""
    if project["detection"].get("cap_runtime") != "java":
        return results
    from sap_devs.doctor.baseline import baseline_from
    from sap_devs.doctor.tool_checks import for_project, install_command, project_needs

    needs = project_needs(Path(project["path"]), baseline_from(ctx.knowledge))
    if not needs:
        return results
    defs = {tool.id: tool for _pack, tool in reversed(list(ctx.knowledge.items("tools")))}  # first pack wins
    return [
        for_project(r, needs[r["id"]], install_command(defs[r["id"]]) if r["id"] in defs else None)
        if r.get("id") in needs
        else r
        for r in results
    ]


def _rows(project: dict[str, Any], tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for f in project["findings"]:
        where = f["file"] or ""
        if where and f.get("line"):
            where += f":{f['line']}"
        rows.append(
            {"severity": f["severity"], "area": f["category"], "where": where, "message": f["message"], "fix": f["fix"]}
        )
    for t in tools:
        severity = _TOOL_SEVERITY.get(t["status"])
        if severity is None:
            continue
        found = f" {t['found']}" if t.get("found") else ""
        message = f"{t['name']}{found}: {t['status']} (needs {t['required']})"
        if t.get("detail"):
            message += f"; {t['detail']}"
        rows.append(
            {"severity": severity, "area": "tool", "where": t["id"], "message": message, "fix": t.get("install")}
        )
    rows.sort(key=lambda r: _ORDER.get(r["severity"], 3))
    return rows


def check(
    path: Path = typer.Argument(Path("."), help="Project folder (default: the current folder)."),
    json_output: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    tools: bool = typer.Option(True, "--tools/--no-tools", help="Also check the installed developer tools."),
    profile: str | None = PROFILE_OPTION,
) -> None:
    """Check an SAP project folder (and the developer tools): findings by severity; exit 1 on errors."""
    setup_logging()
    project, ctx = _project(path.expanduser().absolute(), profile)
    tool_results = _for_project(project, ctx, _tools(ctx)) if tools else []
    rows = _rows(project, tool_results)
    counts = {s: sum(1 for r in rows if r["severity"] == s) for s in _ORDER}
    errors = sum(1 for f in project["findings"] if f["severity"] == "error")
    if json_output:
        typer.echo(json.dumps({**project, "tools": tool_results, "summary": counts}, indent=1))
    else:
        _print(project, rows, counts)
    if errors:
        raise typer.Exit(1)


def _print(project: dict[str, Any], rows: list[dict[str, Any]], counts: dict[str, int]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(soft_wrap=not sys.stdout.isatty())
    kinds = ", ".join(project["detection"]["types"]) or "no SAP project markers found"
    console.print(f"[bold]{project['path']}[/bold]: {kinds} (checked in {project['seconds'] * 1000:.0f} ms)")
    for severity in _ORDER:
        group = [r for r in rows if r["severity"] == severity]
        if not group:
            continue
        table = Table(title=f"{severity} ({len(group)})", title_style=_STYLE[severity], show_lines=True)
        table.add_column("area")
        table.add_column("where", overflow="fold")
        table.add_column("finding", ratio=3)
        table.add_column("fix", ratio=2)
        for row in group:
            table.add_row(row["area"], row["where"], row["message"], row["fix"] or "")
        console.print(table)
    for note in project["notes"]:
        console.print(f"[yellow]incomplete check:[/yellow] {note}")
    summary = ", ".join(f"{counts[s]} {s}(s)" for s in _ORDER)
    console.print("No findings: the project looks healthy." if not rows else summary)
