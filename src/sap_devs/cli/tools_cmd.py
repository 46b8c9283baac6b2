"""``sap-devs tools``: list, call and document the MCP tools from a terminal."""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path
from typing import Any

import typer

from sap_devs.cli.common import ENVIRONMENT_OPTION, PROFILE_OPTION, fail, setup_logging

app = typer.Typer(help="List, call and document the MCP tools without an AI client.", no_args_is_help=True)

DOCS_PATH = Path("docs") / "TOOLS.md"


def _session(environment: str | None, profile: str | None = None) -> Any:
    from sap_devs.adt.config import deferred_errors
    from sap_devs.core.errors import SapDevsError
    from sap_devs.mcp.session import open_session

    try:
        with deferred_errors():  # a broken ABAP setting fails the ABAP tools only, each saying what to fix
            return open_session(environment=environment, profile=profile)
    except SapDevsError as exc:
        raise fail(str(exc)) from None


@app.command("list")
def list_tools(
    environment: str | None = ENVIRONMENT_OPTION,
    json_output: bool = typer.Option(False, "--json-output", help="Print JSON instead of a table."),
) -> None:
    """List the tools available in this environment."""
    registry, _ = _session(environment)
    rows = [{"name": t.name, "category": t.category, "title": t.title} for t in registry.operations()]
    if json_output or not sys.stdout.isatty():
        if json_output:
            typer.echo(json.dumps(rows, indent=1))
        else:
            for row in rows:
                typer.echo(f"{row['name']}\t{row['category']}\t{row['title']}")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"sap-devs tools ({len(rows)}, environment {registry.environment})")
    for col in ("name", "category", "title"):
        table.add_column(col)
    for row in rows:
        table.add_row(row["name"], row["category"], row["title"])
    Console().print(table)


def parse_arg_pairs(pairs: list[str], tool: Any) -> dict[str, Any]:
    """``key=value`` pairs; repeated keys of array parameters collect into a list."""
    props = tool.input_schema.get("properties", {})
    args: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise fail(f"--arg expects key=value, got {pair!r}.")
        spec = props.get(key, {})
        is_array = spec.get("type") == "array" or any(s.get("type") == "array" for s in spec.get("anyOf", []))
        if is_array:
            args.setdefault(key, []).append(value)
        else:
            args[key] = value  # strings; the input model converts "10" or "true" where it expects numbers or booleans
    return args


def _find_tool(registry: Any, name: str) -> Any:
    """The tool named ``name`` (operations and the progressive-disclosure meta tools alike)."""
    tool = registry.get(name) if name in registry.names() else None
    if tool is None:
        close = difflib.get_close_matches(name, registry.names(), n=3)
        suggestion = f" Did you mean: {', '.join(close)}?" if close else ""
        raise fail(f"Unknown tool {name!r}.{suggestion} Run 'sap-devs tools list' to see all tools.")
    return tool


def _type_of(spec: dict[str, Any]) -> str:
    if "enum" in spec:
        return "one of " + ", ".join(str(v) for v in spec["enum"])
    options = [s for s in spec.get("anyOf", []) if s.get("type") != "null"]
    if options and not spec.get("type"):
        return " or ".join(_type_of(s) for s in options)
    kind = str(spec.get("type", "any"))
    if kind == "array":
        return f"list of {_type_of(spec.get('items', {}))}"
    return {"string": "text", "integer": "integer", "number": "number", "boolean": "true/false"}.get(kind, kind)


def _bounds(spec: dict[str, Any]) -> str:
    specs = [spec, *spec.get("anyOf", [])]
    found = []
    for part in specs:
        for key, word in (
            ("minimum", ">="),
            ("maximum", "<="),
            ("minLength", "min length"),
            ("maxLength", "max length"),
        ):
            if key in part:
                found.append(f"{word} {part[key]}")
        if "enum" in part and part is not spec:
            found.append("one of " + ", ".join(str(v) for v in part["enum"]))
    return ", ".join(found)


def parameter_rows(tool: Any) -> list[dict[str, str]]:
    """Each parameter of ``tool``: name, type, required or default, bounds, description."""
    schema = tool.input_schema
    required = set(schema.get("required", []))
    rows = []
    for name, spec in schema.get("properties", {}).items():
        default = (
            "required" if name in required else ("" if spec.get("default") is None else json.dumps(spec["default"]))
        )
        rows.append(
            {
                "name": name,
                "type": _type_of(spec),
                "default": default,
                "allowed": _bounds(spec),
                "description": str(spec.get("description", "")),
            }
        )
    return rows


def _print_description(tool: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{tool.name}[/bold] — {tool.title}")
    console.print(tool.description)
    rows = parameter_rows(tool)
    if not rows:
        console.print("\nNo parameters.")
    else:
        table = Table(title="Parameters", title_justify="left", show_lines=False)
        for col in ("name", "type", "default", "allowed", "description"):
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*(row[c] for c in ("name", "type", "default", "allowed", "description")))
        console.print(table)
    example = " ".join(f"--arg {r['name']}=..." for r in rows if r["default"] == "required")
    console.print(f"\nCall it: sap-devs tools call {tool.name} {example}".rstrip())


@app.command("describe")
def describe(
    name: str = typer.Argument(..., help="Tool name, e.g. get_known_errors."),
    environment: str | None = ENVIRONMENT_OPTION,
) -> None:
    """Show a tool's description and parameters: types, defaults and allowed values."""
    registry, _ = _session(environment)
    _print_description(_find_tool(registry, name))


@app.command("call", context_settings={"help_option_names": []})
def call(
    command: typer.Context,
    name: str | None = typer.Argument(None, help="Tool name, e.g. get_known_errors."),
    arg: list[str] = typer.Option(None, "--arg", "-a", help="Argument as key=value; repeat for more."),
    json_args: str | None = typer.Option(None, "--json", help="All arguments as one JSON object."),
    json_output: bool = typer.Option(False, "--json-output", help="Print the raw JSON result."),
    profile: str | None = PROFILE_OPTION,
    environment: str | None = ENVIRONMENT_OPTION,
    show_help: bool = typer.Option(
        False, "--help", "-h", help="Show this message, or with NAME the tool's parameters, and exit."
    ),
) -> None:
    """Run one tool in-process, exactly as an MCP client would, and print its result."""
    if name is None:
        typer.echo(command.get_help())
        raise typer.Exit(0 if show_help else 2)
    setup_logging()
    registry, ctx = _session(environment, profile)
    tool = _find_tool(registry, name)
    if show_help:
        _print_description(tool)
        return
    import anyio

    from sap_devs.mcp.dispatch import invoke

    if json_args is not None and arg:
        raise fail("Use either --json or --arg, not both.")
    if json_args is not None:
        try:
            arguments = json.loads(json_args)
        except json.JSONDecodeError as exc:
            raise fail(f"--json is not valid JSON: {exc}") from None
        except RecursionError:
            raise fail("--json is nested too deeply to read; no tool takes arguments nested like that.") from None
        if not isinstance(arguments, dict):
            raise fail('--json must be a JSON object, e.g. \'{"query": "..."}\'.')
    else:
        arguments = parse_arg_pairs(arg or [], tool)
    outcome = anyio.run(invoke, tool, arguments, ctx)
    if outcome.is_error:
        typer.echo(f"Error: {outcome.text}", err=True)
        raise typer.Exit(1)
    if json_output or not sys.stdout.isatty() or not isinstance(outcome.structured, dict):
        typer.echo(outcome.text)
        return
    from sap_devs.cli.render_result import print_result

    print_result(outcome.structured)


def _checkout_root() -> Path | None:
    """The sap-devs source checkout this package runs from, or None for an installed package."""
    import sap_devs

    root = Path(sap_devs.__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() and (root / "src" / "sap_devs").is_dir() else None


@app.command("docs", hidden=True)
def docs(
    output: Path = typer.Option(DOCS_PATH, "--output", "-o", help="Where to write the markdown."),
    check: bool = typer.Option(False, "--check", help="Exit 1 if the file is out of date instead of writing it."),
    environment: str | None = typer.Option(
        None, "--environment", help="Write only the tools of this environment (onprem, cloud, legacy) to --output."
    ),
) -> None:
    """Generate docs/TOOLS.md, the server's tool manifest and the fast front's answers from the tool definitions."""
    from sap_devs.core.fs import atomic_write_text
    from sap_devs.mcp.docs import render_tools_markdown
    from sap_devs.mcp.front_data import DATA_PATH
    from sap_devs.mcp.front_data import render as render_front
    from sap_devs.mcp.manifest import MANIFEST_PATH, render_manifest
    from sap_devs.mcp.registry import discover

    root = _checkout_root()
    if root is None:
        raise fail(
            "'tools docs' regenerates files of the sap-devs source checkout (a maintainer command); "
            "this sap-devs is an installed package, not a checkout: use 'sap-devs tools describe NAME' to read a tool."
        )
    if output == DOCS_PATH:
        output = root / DOCS_PATH  # the checkout's docs/, wherever the command is run from
    tools = sorted(discover(), key=lambda t: (t.category, t.name))
    if environment is not None:
        if environment not in ("onprem", "cloud", "legacy"):
            raise fail(f"Unknown environment {environment!r}; use onprem, cloud or legacy.")
        if output == root / DOCS_PATH:
            output = output.with_name(f"TOOLS-{environment}.md")
        targets = [(output, render_tools_markdown(tools, environment=environment))]
    else:
        manifest = render_manifest(tools)
        targets = [
            (output, render_tools_markdown(tools)),
            (MANIFEST_PATH, manifest),
            (DATA_PATH, render_front(manifest)),  # what the SDK answers for these tools, for the fast front
        ]
    stale = [(path, text) for path, text in targets if not path.is_file() or path.read_text(encoding="utf-8") != text]
    if check:
        if stale:
            names = " and ".join(str(p) for p, _ in stale)
            raise fail(f"{names} out of date; run 'sap-devs tools docs'.", code=1)
        typer.echo("Tool docs and manifest are up to date.")
        return
    for path, text in stale:
        atomic_write_text(path, text)
        typer.echo(f"Wrote {path}.")
    if not stale:
        typer.echo("Tool docs and manifest are already up to date.")
