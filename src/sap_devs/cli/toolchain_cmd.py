"""``sap-devs toolchain``: SAP's Node tools (CDS compiler, UI5 linter, abaplint) in sap-devs' data folder."""

from __future__ import annotations

import sys

import typer

app = typer.Typer(
    help="Install, show or remove SAP's Node tools (cds-compiler, @ui5/linter, abaplint) that the "
    "CDS, UI5 and ABAP checks run. They go to sap-devs' data folder, never into your project.",
    no_args_is_help=True,
)

COMPONENTS_ARG = typer.Argument(None, help="cds, ui5, abap, node or all (default: all).")


def _echo(line: str) -> None:
    typer.echo(line, err=True)


@app.command("install")
def install_command(
    components: list[str] | None = COMPONENTS_ARG,
    yes: bool = typer.Option(False, "--yes", "-y", help="Accept the licences named (for scripts)."),
    registry: str | None = typer.Option(None, "--registry", help="npm registry URL (default: npm's own setting)."),
) -> None:
    """Install pinned versions of the tools from the npm registry."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.toolchain.install import install, needs_consent, parse_targets

    try:
        targets = parse_targets(components or [])
    except SapDevsError as exc:
        raise _fail(str(exc)) from None
    asking = needs_consent(targets)
    accepted = yes or not asking
    if asking and not yes:
        for component in asking:
            _echo(f"{component.title} ({component.name}): {component.licence}.")
        if not sys.stdin.isatty():
            raise _fail("licence not accepted: run again with --yes to accept it.")
        accepted = typer.confirm("Accept these licences and install?", default=False, err=True)
        if not accepted:
            raise _fail("nothing installed: the licence was not accepted.", code=1)
    _echo(f"Installing {', '.join(targets)}:")
    try:
        result = install(targets, accepted=accepted, progress=_echo, registry=registry)
    except SapDevsError as exc:
        raise _fail(str(exc), code=1) from None
    typer.echo(f"Installed into {result.folder} in {result.seconds:.0f} s:")
    for name, version in sorted(result.installed.items()):
        typer.echo(f"  {name} {version}")


@app.command("status")
def status_command() -> None:
    """Show which tools are installed, in which version, where, and the Node they run on."""
    from sap_devs.toolchain.install import status

    report = status()
    typer.echo(f"Toolchain folder: {report.folder}")
    for state in report.components:
        c = state.component
        typer.echo(f"{c.name:5} {c.title:13} {state.state:14} (for {c.used_by})")
        for p in state.packages:
            where = report.folder / "node_modules" / p.name
            found = f"{p.installed} at {where}" if p.installed else "not installed"
            typer.echo(f"        {p.name}: {found} (pinned {p.pinned})")
        typer.echo(f"        licence: {c.licence}")
        needed = ".".join(map(str, c.minimum_node))
        node = f"Node {state.node.version_text} ({state.node.source} {state.node.path})" if state.node else "none"
        typer.echo(f"        needs Node >= {needed}: {node}")
        if state.state != "ok":
            typer.echo(f"        fix: sap-devs toolchain install {c.name}")
    own = report.node_package
    typer.echo(
        f"Node from npm in the toolchain ({own.name}): "
        + (f"{own.installed}" if own.installed else "not installed (`sap-devs toolchain install node` adds it)")
    )
    typer.echo("Node.js found:")
    for candidate in report.nodes:
        typer.echo(f"  {candidate.version_text:12} {candidate.source:13} {candidate.path}")
    if not report.nodes:
        typer.echo('  none: install Node.js, or `pip install "sap-devs[node]"`')


@app.command("remove")
def remove_command(components: list[str] | None = COMPONENTS_ARG) -> None:
    """Remove installed tools (default: the whole toolchain folder)."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.toolchain.install import parse_targets, remove

    try:
        removed = remove(parse_targets(components or []), progress=_echo)
    except SapDevsError as exc:
        raise _fail(str(exc), code=1) from None
    typer.echo(f"Removed {len(removed)} package(s)." if removed else "Nothing to remove.")


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"sap-devs: {message}", err=True)
    return typer.Exit(code)
