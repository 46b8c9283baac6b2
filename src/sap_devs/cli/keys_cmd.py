"""``sap-devs keys``: API keys for the HTTP server (shown once at creation, stored only as hashes)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from sap_devs.cli.common import fail

app = typer.Typer(help="API keys for `sap-devs mcp serve --transport http`.", no_args_is_help=True)

FILE_OPTION = typer.Option(
    None,
    "--file",
    envvar="SAP_DEVS_API_KEYS_FILE",
    help="Key file (default: api-keys.json in the sap-devs config folder).",
)


def _path(file: Path | None) -> Path:
    from sap_devs.http.keys import default_path

    return file.expanduser() if file is not None else default_path()


@app.command("create")
def create(
    name: str = typer.Argument(..., help="Who or what uses the key, e.g. 'ci-bot' or 'alice'."),
    file: Path | None = FILE_OPTION,
) -> None:
    """Create a key; it is printed once on stdout and only its hash is kept."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.http.keys import create_key

    path = _path(file)
    try:
        key, entry = create_key(path, name)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    typer.echo(
        f"Created API key {entry.name!r} (id {entry.id}) in {path}. Copy it now: it is not shown again.", err=True
    )
    typer.echo(key)


@app.command("list")
def list_(file: Path | None = FILE_OPTION, as_json: bool = typer.Option(False, "--json", help="JSON output.")) -> None:
    """List the keys (names, ids, creation dates; never the keys)."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.http.keys import read_entries

    path = _path(file)
    try:
        entries = read_entries(path)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps([e.public() for e in entries], indent=2))
        return
    if not entries:
        typer.echo(f"No API keys in {path}. Create one with `sap-devs keys create NAME`.", err=True)
        return
    for e in entries:
        typer.echo(f"{e.id}  {e.created}  {e.name}")


@app.command("revoke")
def revoke(
    name: str = typer.Argument(..., help="Exact name or id of the key."),
    by_id: bool = typer.Option(False, "--id", help="NAME is a key id (never a name)."),
    by_name: bool = typer.Option(False, "--name", help="NAME is a key name (never an id)."),
    file: Path | None = FILE_OPTION,
) -> None:
    """Revoke a key by its exact id or name; a running server stops accepting it within a second."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.http.keys import revoke_key

    if by_id and by_name:
        raise fail("Give --id or --name, not both.")
    path = _path(file)
    try:
        entry = revoke_key(path, name, by="id" if by_id else "name" if by_name else "either")
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    how = "its id" if entry.id == name and not by_name else "its name"
    typer.echo(f"Revoked API key {entry.name!r} (id {entry.id}), matched by {how}.", err=True)
