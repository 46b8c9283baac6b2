"""``sap-devs check [PATH]``: the project checks and the developer tool checks, for a human.

Runs what the check_project and check_tools tools run (the same code, the same pack data), then,
where the toolchain is installed, SAP's compilers and linters for the kinds of project found (what
check_cds, run_ui5_linter and check_abap_code run; ``--no-linters`` skips them), and shows the
findings as a table grouped by severity; ``--json`` prints them for scripts. The exit code is 1 when
the project has an error (a compile error counts; docs/CHECKS.md), 2 when the folder cannot be
checked, else 0.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def _progress() -> Iterator[Any]:
    """A spinner line on a terminal (the compilers take seconds); nothing when stderr is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.markup import escape

    with Console(stderr=True).status("Running SAP's compilers and linters") as status:
        yield lambda what: status.update(escape(what) + " …")


def _linters(project: dict[str, Any], ctx: Any) -> list[dict[str, Any]]:
    """The compilers and linters over the project: their findings join the project's (errors count),
    their failures its notes; returns what ran."""
    from sap_devs.doctor.linters import run_linters
    from sap_devs.doctor.project.model import Detection
    from sap_devs.mcp.tools.project._shared import time_budget

    per_run = time_budget()  # what one check_cds / run_ui5_linter / check_abap_code call may take
    started = time.perf_counter()
    with _progress() as progress:
        report = run_linters(
            Path(project["path"]),
            Detection(**project["detection"]),
            per_run=per_run,
            total=per_run * 3,
            kb=ctx.knowledge,
            progress=progress,
        )
    project["findings"] += [asdict(f) for f in report.findings]
    project["findings"].sort(key=lambda f: _ORDER[f["severity"]])
    project["notes"] += report.notes
    project["linter_seconds"] = round(time.perf_counter() - started, 2)
    return [asdict(r) for r in report.runs]


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
        message = f"{f['rule']}: {f['message']}" if f.get("rule") else f["message"]
        if f.get("known_error"):
            message += f" (known error {f['known_error']})"
        rows.append(
            {"severity": f["severity"], "area": f["category"], "where": where, "message": message, "fix": f["fix"]}
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


TOOL_CHOICES = ("project", "all", "none")
# What detection looks for, for the answer to a folder that holds none of it.
MARKERS = (
    "package.json with @sap/cds, .cdsrc.json or a pom.xml with com.sap.cds (CAP), mta.yaml (MTA), xs-app.json "
    "(app router), webapp/manifest.json or ui5.yaml (UI5), .abapgit.xml (abapGit), chart/Chart.yaml (Helm)"
)


def _relevant(project: dict[str, Any], results: list[dict[str, Any]], which: str) -> list[dict[str, Any]]:
    if which == "all":
        return results
    from sap_devs.doctor.project.model import Detection
    from sap_devs.doctor.tool_relevance import needed_tools

    needed = needed_tools(Detection(**project["detection"]))
    return [r for r in results if r.get("id") in needed]


def check(
    path: Path = typer.Argument(Path("."), help="Project folder (default: the current folder)."),
    json_output: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    tools: str = typer.Option(
        "project",
        "--tools",
        help="Developer tool checks: project = the tools this kind of project needs, all = every tool the packs "
        "know, none = skip them.",
    ),
    no_tools: bool = typer.Option(False, "--no-tools", hidden=True, help="Same as --tools none."),
    no_linters: bool = typer.Option(
        False,
        "--no-linters",
        help="Skip SAP's compilers and linters (cds-compiler, UI5 linter, abaplint), which run when "
        "`sap-devs toolchain install` has installed them.",
    ),
    profile: str | None = PROFILE_OPTION,
) -> None:
    """Check an SAP project folder (and the developer tools it needs): findings by severity; exit 1 on errors."""
    setup_logging()
    if tools not in TOOL_CHOICES:
        raise fail(f"--tools takes {', '.join(TOOL_CHOICES)}, not {tools!r}.")
    folder = path.expanduser().absolute()
    if not folder.exists():
        raise fail(f"{folder} does not exist: pass the folder of an SAP project (default: the current folder).")
    project, ctx = _project(folder, profile)
    linters = [] if no_linters else _linters(project, ctx)
    which = "none" if no_tools else tools
    tool_results = [] if which == "none" else _relevant(project, _for_project(project, ctx, _tools(ctx)), which)
    rows = _rows(project, tool_results)
    counts = {s: sum(1 for r in rows if r["severity"] == s) for s in _ORDER}
    errors = sum(1 for f in project["findings"] if f["severity"] == "error")
    if json_output:
        typer.echo(json.dumps({**project, "linters": linters, "tools": tool_results, "summary": counts}, indent=1))
    else:
        _print(project, rows, counts, linters)
    if errors:
        raise typer.Exit(1)


def _print(
    project: dict[str, Any], rows: list[dict[str, Any]], counts: dict[str, int], linters: list[dict[str, Any]]
) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    console = Console(soft_wrap=not sys.stdout.isatty(), highlight=False)
    det = project["detection"]
    if not det["types"]:
        console.print(f"[bold]{escape(project['path'])}[/bold] is not an SAP project: found none of {MARKERS}.")
    else:
        facts = [f"{k} {det[k]}" for k in ("cap_runtime", "database", "auth") if det.get(k)]
        extra = f"; {', '.join(facts)}" if facts else ""
        console.print(
            f"[bold]{escape(project['path'])}[/bold]: {', '.join(det['types'])}{extra} "
            f"(checked in {project['seconds'] * 1000:.0f} ms)"
        )
    if linters:
        ran = "; ".join(
            f"{r['tool']} {r['version']} over {r['target']}: {r['findings']} finding(s) in {r['seconds']:.1f} s"
            for r in linters
        )
        console.print(f"Linters: {escape(ran)}", highlight=False)
    number = 0
    for severity in _ORDER:
        group = [r for r in rows if r["severity"] == severity]
        if not group:
            continue
        table = Table(title=f"{severity} ({len(group)})", title_style=_STYLE[severity], show_lines=True)
        table.add_column("#", justify="right")
        table.add_column("area", overflow="fold")
        table.add_column("where", overflow="fold")
        table.add_column("finding", ratio=1, overflow="fold")
        fixes: list[tuple[int, str]] = []
        for row in group:
            number += 1
            table.add_row(str(number), row["area"], row["where"], row["message"])
            if row["fix"]:
                fixes.append((number, row["fix"]))
        console.print(table)
        # fixes are commands and URLs to copy: printed whole under the table, never cut to a column
        for n, fix in fixes:
            line = Text.assemble((f"fix {n}: ", "bold"), fix)
            # on a terminal wrapped and indented under the table; piped, one whole line to copy
            if sys.stdout.isatty():
                console.print(Padding(line, (0, 0, 0, 2)), overflow="fold")
            else:
                console.print(Text("  ") + line, crop=False)
    for note in project["notes"]:
        console.print(f"[yellow]incomplete check:[/yellow] {note}")
    summary = ", ".join(f"{counts[s]} {s}(s)" for s in _ORDER)
    if rows:
        console.print(summary)
    elif det["types"]:
        console.print("No findings: the project looks healthy.")
