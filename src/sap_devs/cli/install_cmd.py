"""``sap-devs mcp install / uninstall / status``: wire an MCP server into the AI clients' config files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer

from sap_devs.cli.common import fail

SERVER_ARGUMENT = typer.Argument("sap-devs", help="MCP server id: sap-devs (default) or one from the packs' mcp.yaml.")
CLIENT_OPTION = typer.Option(
    None,
    "--client",
    "-c",
    help="Client to configure (repeatable): claude-code, claude-desktop, cursor, vscode, windsurf, gemini-cli, "
    "codex, continue, zed. Default: the clients found on this machine.",
)
SCOPE_OPTION = typer.Option(
    "user",
    "--scope",
    help="user (all projects), project (files in the project, shareable) or local (Claude Code only).",
)
PROJECT_OPTION = typer.Option(None, "--project", help="Project folder for project and local scope (default: here).")
DRY_RUN_OPTION = typer.Option(False, "--dry-run", help="Print the changes as a unified diff; change nothing.")
SCOPES = ("user", "project", "local")


def _project(project: Path | None) -> Path:
    return (project or Path(os.getcwd())).expanduser().absolute()


def _check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise fail(f"Unknown scope {scope!r}; use one of: {', '.join(SCOPES)}.")


def _check_server_id(server_id: str) -> None:
    """The rule install applies through mcp.yaml's ids; uninstall and status need it too, because
    some clients keep one file per server named after the id (a ``../`` id would leave the folder)."""
    import re

    from sap_devs.knowledge.models import PACK_ID

    if not re.fullmatch(PACK_ID, server_id):
        raise fail(
            f"Invalid MCP server id {server_id!r}: use lowercase letters, digits and dashes, "
            "starting with a letter (such as sap-devs or ui5-mcp)."
        )


def _servers(project: Path, server_id: str) -> tuple[list[Any], list[str]]:
    """The MCP servers the packs declare (mcp.yaml), for the command and the clients each suits, and the
    mcp.yaml files of untrusted folders that were not read."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.knowledge.base import KnowledgeBase

    try:
        kb = KnowledgeBase.load(None, cwd=project)
    except SapDevsError:
        if server_id == "sap-devs":
            return [], []  # sap-devs needs nothing from the packs to install itself
        raise
    ignored = [f for f in kb.ignored_files if f.endswith("mcp.yaml")]
    return [server for _, server in kb.items("mcp_servers")], ignored


def _check_profile(profile: str | None, project: Path) -> None:
    if profile in (None, "", "all"):
        return
    from sap_devs.knowledge.layer_paths import available_profiles, default_layers

    known = available_profiles(default_layers(project))
    if profile not in known:
        raise fail(f"Unknown profile {profile!r}; choose one of: {', '.join(known)}.")


def _targets(server_id: str, clients: list[str] | None, scope: str, project: Path, servers: list[Any]) -> list[Any]:
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import clients as table
    from sap_devs.integrations.mcp_install import target

    home = table.home_dir()
    try:
        chosen, detected = table.select(clients, home)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    if not chosen:
        raise fail(
            f"No AI client found in {home} or on PATH; name one with --client "
            f"({', '.join(c.id for c in table.CLIENTS)}).",
            code=1,
        )
    hosts = next((s.hosts for s in servers if s.id == server_id), [])
    found = []
    for client in chosen:
        if hosts and client.id not in hosts:
            typer.echo(f"{client.name}: skipped, {server_id} is not meant for this client (hosts in mcp.yaml).")
            continue
        config = client.mcp_config(scope)  # type: ignore[arg-type]
        if config is None:
            if not detected or scope != "local":
                typer.echo(f"{client.name}: skipped, no {scope}-scope MCP configuration.")
            continue
        found.append(target(client, config, home, project, server_id))
    return found


def _report(outcome: Any, *, show_diff: bool) -> None:
    t = outcome.target
    line = f"{t.client.name} ({t.scope}): {outcome.status} - {t.path}"
    if outcome.message:
        line += f" ({outcome.message})"
    typer.echo(line)
    if show_diff and outcome.diff:
        typer.echo(outcome.diff, nl=False)


def install(
    server: str = SERVER_ARGUMENT,
    client: list[str] | None = CLIENT_OPTION,
    scope: str = SCOPE_OPTION,
    profile: str | None = typer.Option(
        None, "--profile", "-p", help="Profile for the sap-devs server (adds --profile ID to its arguments)."
    ),
    system: str | None = typer.Option(
        None,
        "--system",
        help="Named ABAP system from systems.yaml (adds --system NAME; credentials stay out of the client's file).",
    ),
    project: Path | None = PROJECT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    url: str | None = typer.Option(
        None, "--url", help="A remote server instead of a command, such as a team's https://host/mcp."
    ),
    header: list[str] | None = typer.Option(
        None,
        "--header",
        "-H",
        help="With --url: a header for every request (repeatable), 'Name: value'; ${NAME} in the value is read "
        "from the environment variable NAME by the client (credentials must be given so).",
    ),
    key_env: str | None = typer.Option(
        None, "--key-env", help="With --url: send 'Authorization: Bearer <value of this environment variable>'."
    ),
) -> None:
    """Add an MCP server (default: sap-devs) to the AI clients' configuration files."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import mcp_install

    _check_server_id(server)
    _check_scope(scope)
    root = _project(project)
    if url is not None:
        if profile or system:
            raise fail("--profile and --system configure a local sap-devs; a remote one is configured on its server.")
        return _install_remote(server, url, header or [], key_env, client, scope, root, dry_run)
    if header or key_env:
        raise fail("--header and --key-env go with --url (a remote server).")
    _check_profile(profile, root)
    ignored: list[str] = []
    try:
        if system:
            from sap_devs.adt.config import check_system_name

            check_system_name(system)
        servers, ignored = _servers(root, server)
        spec = mcp_install.server_spec(server, servers, profile, system)
    except SapDevsError as exc:
        if ignored:
            exc.hint = f"{exc.hint or ''} Not read (folder not trusted): {', '.join(ignored)}; see `sap-devs trust`."
        raise fail(str(exc)) from None
    if spec.origin:
        typer.echo(f"Server {spec.id!r} is defined by {spec.origin}, not by sap-devs' bundled packs.")
    done, failed = _install_each(_targets(server, client, scope, root, servers), spec, dry_run, name_client=False)
    if not dry_run and done:
        typer.echo(f"Command: {spec.command} {' '.join(spec.args)}")
    _finish(done, failed, server, root, dry_run)


def _install_each(targets: list[Any], spec: Any, dry_run: bool, *, name_client: bool) -> tuple[list[Any], int]:
    """Install into each target; a failure is reported and the others still go ahead."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import mcp_install

    done, failed = [], 0
    for t in targets:
        try:
            _report(mcp_install.install(t, spec, dry_run=dry_run), show_diff=dry_run)
            done.append(t)
        except SapDevsError as exc:
            failed += 1
            typer.echo(f"sap-devs: {t.client.name}: {exc}" if name_client else f"sap-devs: {exc}", err=True)
    return done, failed


def _finish(done: list[Any], failed: int, server: str, root: Path, dry_run: bool) -> None:
    """The step left in each client, warnings about other scopes, and exit 1 when any client failed."""
    from sap_devs.integrations import mcp_install

    if not dry_run:
        for t in done:
            policy = mcp_install.client_policy(mcp_install.status(t, server), server, root)
            step = mcp_install.client_step(t, server, policy)
            step = step or f"restart {t.client.name} (or start a new session) to load it"
            typer.echo(f"Next, {t.client.name} ({t.scope}): {step}.")
            for problem in policy.unreadable if policy else []:
                typer.echo(f"Warning: {problem}; Claude Code ignores this file too.", err=True)
    for warning in _scope_warnings({t.client.id for t in done}, server, root):
        typer.echo(f"Warning: {warning}", err=True)
    if failed:
        raise typer.Exit(1)


def _install_remote(
    server: str,
    url: str,
    header: list[str],
    key_env: str | None,
    client: list[str] | None,
    scope: str,
    root: Path,
    dry_run: bool,
) -> None:
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import mcp_install
    from sap_devs.integrations.remote_entry import ENV_REF, check_url, parse_headers

    try:
        headers = parse_headers(header, key_env)
        spec = mcp_install.ServerSpec(server, "", (), type="http", url=check_url(url, headers), headers=headers)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    done, failed = _install_each(_targets(server, client, scope, root, []), spec, dry_run, name_client=True)
    if not dry_run and done:
        typer.echo(f"URL: {spec.url}")
        names = sorted({m.group(1) for _, value in headers for m in ENV_REF.finditer(value)})
        for name in names:
            state = "set here" if os.environ.get(name) else "NOT set in this shell"
            typer.echo(f"The clients read {name} from their environment when they connect ({state}).")
    _finish(done, failed, server, root, dry_run)


def _scope_warnings(client_ids: set[str], server: str, root: Path) -> list[str]:
    """The server in several scopes of one client, and conflicting entries, for the given clients."""
    from sap_devs.integrations import clients as table
    from sap_devs.integrations import mcp_install

    home = table.home_dir()
    warnings: list[str] = []
    for c in table.CLIENTS:
        if c.id in client_ids:
            rows = [mcp_install.status(mcp_install.target(c, cfg, home, root, server), server) for cfg in c.mcp]
            warnings += mcp_install.scope_warnings(rows)
    return warnings


def uninstall(
    server: str = SERVER_ARGUMENT,
    client: list[str] | None = CLIENT_OPTION,
    scope: str = SCOPE_OPTION,
    project: Path | None = PROJECT_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
) -> None:
    """Remove an MCP server entry (default: sap-devs) from the AI clients' configuration files."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import mcp_install

    _check_server_id(server)
    _check_scope(scope)
    root = _project(project)
    failed = 0
    for t in _targets(server, client, scope, root, []):
        try:
            _report(mcp_install.uninstall(t, server, dry_run=dry_run), show_diff=dry_run)
        except SapDevsError as exc:
            failed += 1
            typer.echo(f"sap-devs: {exc}", err=True)
    if failed:
        raise typer.Exit(1)


def status(
    server: str = SERVER_ARGUMENT,
    client: list[str] | None = typer.Option(None, "--client", "-c", help="Only these clients (default: all)."),
    project: Path | None = PROJECT_OPTION,
) -> None:
    """Show, per client and scope, whether the server is installed, its command and arguments, and the step
    left in the client. Exits 1 when a file is malformed or an entry's command is missing."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.integrations import clients as table
    from sap_devs.integrations import mcp_install

    _check_server_id(server)
    root = _project(project)
    home = table.home_dir()
    try:
        chosen = table.select(client, home)[0] if client else list(table.CLIENTS)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    bad = 0
    for c in chosen:
        rows = [mcp_install.status(mcp_install.target(c, config, home, root, server), server) for config in c.mcp]
        for row in rows:
            state = row.state
            if row.state == "installed" and row.command is not None:
                state += f", command {'exists' if row.command_exists else 'MISSING'}: {row.command}"
                state += f" {' '.join(row.args or [])}".rstrip()
                if row.profile:
                    state += f" (profile {row.profile})"
            elif row.detail:
                state += f" ({row.detail})"
            bad += row.state == "malformed" or row.command_exists is False
            typer.echo(f"{c.id:<15} {row.target.scope:<8} {state} - {row.target.path}")
            if row.state != "installed":
                continue
            policy = mcp_install.client_policy(row, server, root)
            _print_verdict(row.target, server, policy)
            if policy is not None and policy.block is not None:
                step = policy.block.fix  # the line above already says what blocks it
            else:
                step = mcp_install.client_step(row.target, server, policy)
            if step:
                typer.echo(f"{'':<24} next: {step}")
        for warning in mcp_install.scope_warnings(rows):
            typer.echo(f"Warning: {warning}")
    if bad:
        raise typer.Exit(1)


_APPROVAL_WORDS = {"approved": "approved", "rejected": "rejected", "pending": "pending approval"}


def _print_verdict(t: Any, server: str, policy: Any) -> None:
    """Whether Claude Code will start the server: blocked by policy (any scope), else its own approval
    of a project server; and the files it could not read, each once."""
    from sap_devs.integrations import mcp_install

    problems = list(policy.unreadable) if policy else []
    if policy is not None and policy.block is not None:
        block = policy.block
        typer.echo(f"{'':<24} {t.client.name}: blocked by {block.who} ({block.file}: {block.rule})")
    else:
        found = mcp_install.client_approval(t, server)
        if found is not None:
            typer.echo(f"{'':<24} {t.client.name}: {_APPROVAL_WORDS[found.state]} ({found.evidence})")
            problems += found.unreadable
    for problem in dict.fromkeys(problems):
        typer.echo(f"{'':<24} warning: {problem}; Claude Code ignores this file too")
