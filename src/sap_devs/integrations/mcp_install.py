"""``sap-devs mcp install / uninstall / status``: one MCP server entry in each AI client's config file.

Rules every write follows, whatever the format:

- the existing file is parsed first; if it is malformed we stop and name the file and line, and
  the file stays byte-for-byte as it was (users fix their own files, we never "repair" them);
- only the one server entry changes: the text around it (other keys, comments, layout) is kept,
  and the result is parsed again to prove that nothing else changed;
- keys a user added to our entry (``env`` with SAP_URL, timeouts ...) survive a re-install;
- writes are atomic, the previous content is kept in sap-devs' state folder (``state.py``), never
  next to the file, and installing twice changes nothing the second time;
- uninstall gives the file back byte for byte when it still reads as sap-devs left it, and deletes
  files and folders sap-devs created.
"""

from __future__ import annotations

import copy
import difflib
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import check_own_file
from sap_devs.integrations import claude_approval, claude_policy, jsonc, state, toml_edit, yaml_edit
from sap_devs.integrations.claude_approval import Approval
from sap_devs.integrations.clients import Client, McpConfig, Scope, Shape, resolve

SAP_DEVS = "sap-devs"


# --- what to install ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServerSpec:
    id: str
    command: str
    args: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    type: str = "stdio"
    origin: str | None = None
    """Layer and file of a server that did not ship with sap-devs (a user's or a trusted project's pack)."""
    url: str | None = None
    """A remote server (``type`` "http"): its Streamable HTTP endpoint, such as a team's sap-devs."""
    headers: tuple[tuple[str, str], ...] = ()
    """Sent with every request; ``${NAME}`` in a value is the environment variable NAME, written in
    each client's own syntax so that no key lands in a file."""


def sap_devs_command() -> tuple[str, list[str]]:
    """The absolute command that starts this very sap-devs, plus arguments that must precede ``mcp serve``.

    Clients start servers without the user's shell PATH, so a bare ``sap-devs`` would not be found;
    and the first ``sap-devs`` on PATH may be another install (an old pipx one shadowing the venv
    the user is trying), so it is never looked up there: the script this process was started from
    (``sys.argv[0]``), else this interpreter with ``-m sap_devs``. Paths are made absolute but
    symlinks are kept: a venv's ``python`` links to the system one, which lacks sap-devs.
    """
    override = os.environ.get("SAP_DEVS_EXECUTABLE")
    if override:
        return str(Path(override).expanduser().absolute()), []
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name.lower() in _SCRIPT_NAMES and argv0.is_file():
        return str(argv0.absolute()), []
    # Started as ``python -m sap_devs`` (or from Python code): the same interpreter can do it.
    return str(Path(sys.executable).absolute()), ["-m", "sap_devs"]


_SCRIPT_NAMES = frozenset({SAP_DEVS, f"{SAP_DEVS}.exe", f"{SAP_DEVS}-script.py"})


def server_spec(
    server_id: str, servers: list[Any], profile: str | None = None, system: str | None = None
) -> ServerSpec:
    """The command to install for ``server_id``; ``servers`` are the packs' mcp.yaml entries."""
    if server_id == SAP_DEVS:
        command, prefix = sap_devs_command()
        args = [*prefix, "mcp", "serve", *(["--profile", profile] if profile else [])]
        args += ["--system", system] if system else []
        return ServerSpec(SAP_DEVS, command, tuple(args))
    if profile or system:
        raise SapDevsError(
            "--profile and --system apply to the sap-devs server only.", hint="Leave them out for other servers."
        )
    # a bundled definition wins over a same-id one from another layer: a pack cannot swap a known server's command
    matching = sorted((s for s in servers if s.id == server_id), key=lambda s: getattr(s, "_origin", None) is not None)
    for server in matching[:1]:
        if server.id == server_id:
            install = server.install
            if install.type != "stdio":
                raise SapDevsError(
                    f"Server {server_id!r} uses the {install.type} transport; only stdio servers can be installed.",
                    hint="Add it to your client by hand.",
                )
            origin = getattr(server, "_origin", None)
            return ServerSpec(
                server.id,
                install.command,
                tuple(install.args),
                dict(install.env),
                install.type,
                origin=f"{origin[0]} layer: {origin[1]}" if origin else None,
            )
    known = ", ".join(sorted({SAP_DEVS, *(s.id for s in servers)}))
    raise SapDevsError(f"Unknown MCP server {server_id!r}.", hint=f"Choose one of: {known}.")


def build_entry(shape: Shape, spec: ServerSpec) -> dict[str, Any]:
    if spec.url is not None:
        raise AssertionError("remote servers are built per client: use client_entry")  # a programming error
    entry: dict[str, Any] = {}
    if shape == "continue":
        entry["name"] = spec.id
    if shape in ("claude", "vscode", "continue"):
        entry["type"] = spec.type
    entry["command"] = spec.command
    entry["args"] = list(spec.args)
    if spec.env:
        entry["env"] = dict(spec.env)
    return entry


def client_entry(t: Target, spec: ServerSpec) -> dict[str, Any]:
    """The entry for ``spec`` in this client's file."""
    if spec.url is None:
        return build_entry(t.config.shape, spec)
    from sap_devs.integrations.remote_entry import remote_entry

    return remote_entry(t.client, spec.id, spec.url, spec.headers, t.path)


# Keys that say how a client reaches a server; switching between a command and a URL drops the old ones.
_TRANSPORT_KEYS = frozenset(
    {"type", "command", "args", "env", "cwd", "url", "httpUrl", "serverUrl", "headers", "requestOptions"}
    | {"bearer_token_env_var", "http_headers", "env_http_headers", "apiKey"}
)
_URL_KEYS = ("url", "httpUrl", "serverUrl")


def merge_entry(existing: Any, ours: dict[str, Any]) -> dict[str, Any]:
    """Our keys win; keys the user added to the entry (and extra env variables) are kept."""
    if not isinstance(existing, dict):
        return dict(ours)
    if any(k in existing for k in _URL_KEYS) != any(k in ours for k in _URL_KEYS) or any(
        k in existing for k in ("headers", "http_headers", "env_http_headers", "bearer_token_env_var")
    ):
        # From a command to a URL or back, or new headers: nothing of the old way of connecting may
        # stay (a leftover "command" beside a "url", or an old key's header, confuses the client).
        existing = {k: v for k, v in existing.items() if k not in _TRANSPORT_KEYS}
    merged = {**existing, **ours}
    if isinstance(existing.get("env"), dict) and "env" in ours:
        merged["env"] = {**existing["env"], **ours["env"]}
    return merged


# --- where to install it --------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    client: Client
    config: McpConfig
    path: Path
    container: tuple[str, ...]
    root: Path | None = None
    """The project, for a project file: the file and every folder below the project must be no link."""

    @property
    def scope(self) -> Scope:
        return self.config.scope


def project_key(project: Path) -> str:
    """How Claude Code names a project in ~/.claude.json: the absolute path, forward slashes, of the
    git root when the project is in a git repository (Claude Code 2.1 reads a local-scope server
    written under a subfolder's own path from nowhere), else of the folder."""
    return claude_approval.trust_key(project)


def target(client: Client, config: McpConfig, home: Path, project: Path, server_id: str) -> Target:
    path = resolve(config.path, home, project, server_id)
    container = tuple(project_key(project) if k == "{project}" else k for k in config.container)
    return Target(client, config, path, container, project if config.scope == "project" else None)


# --- formats --------------------------------------------------------------------------------------


class Malformed(Exception):
    def __init__(self, line: int, detail: str) -> None:
        super().__init__(detail)
        self.line = line
        self.detail = detail


class _Format(Protocol):
    def load(self, text: str) -> Any: ...
    def get(self, data: Any, container: tuple[str, ...], name: str) -> Any: ...
    def put(self, text: str, t: Target, name: str, entry: dict[str, Any]) -> tuple[str, bool]: ...
    def delete(self, text: str, t: Target, name: str) -> tuple[str, bool]: ...
    def without(self, data: Any, container: tuple[str, ...], name: str) -> Any: ...


def _dict_get(data: Any, container: tuple[str, ...], name: str) -> Any:
    node = data
    for key in (*container, name):
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _dict_without(data: Any, container: tuple[str, ...], name: str) -> Any:
    """A copy without the entry, and without containers left empty by its removal (they are ours)."""
    data = copy.deepcopy(data) if data is not None else {}
    chain = [data]
    for key in container:
        node = chain[-1].get(key) if isinstance(chain[-1], dict) else None
        if not isinstance(node, dict):
            return data
        chain.append(node)
    chain[-1].pop(name, None)
    for parent, key in zip(reversed(chain[:-1]), reversed(container), strict=True):
        if parent.get(key) == {}:
            del parent[key]
    return data


class _Json:
    def load(self, text: str) -> Any:
        try:
            data = jsonc.loads(text)
        except jsonc.JsoncError as exc:
            raise Malformed(exc.line, exc.detail) from None
        if data is not None and not isinstance(data, dict):
            raise Malformed(1, "the top level must be a JSON object ({ ... })")
        return data

    def get(self, data: Any, container: tuple[str, ...], name: str) -> Any:
        return _dict_get(data, container, name)

    def put(self, text: str, t: Target, name: str, entry: dict[str, Any]) -> tuple[str, bool]:
        return jsonc.set_member(text, list(t.container), name, entry), False

    def delete(self, text: str, t: Target, name: str) -> tuple[str, bool]:
        return jsonc.remove_member(text, list(t.container), name), False

    def without(self, data: Any, container: tuple[str, ...], name: str) -> Any:
        return _dict_without(data, container, name)


class _Toml:
    def load(self, text: str) -> Any:
        try:
            return toml_edit.loads(text)
        except toml_edit.TomlError as exc:
            raise Malformed(exc.line, str(exc)) from None

    def get(self, data: Any, container: tuple[str, ...], name: str) -> Any:
        return _dict_get(data, container, name)

    def put(self, text: str, t: Target, name: str, entry: dict[str, Any]) -> tuple[str, bool]:
        return toml_edit.set_table(text, t.container[0], name, entry), False

    def delete(self, text: str, t: Target, name: str) -> tuple[str, bool]:
        return toml_edit.remove_table(text, t.container[0], name), False

    def without(self, data: Any, container: tuple[str, ...], name: str) -> Any:
        return _dict_without(data, container, name)


def required_keys(t: Target, name: str) -> dict[str, str]:
    """Top-level keys the client needs in this file (Continue: name, version, schema)."""
    return {k: v.replace("{server}", name) for k, v in t.config.header}


class _YamlList:
    def load(self, text: str) -> Any:
        try:
            data = yaml_edit.loads(text)
        except yaml_edit.YamlError as exc:
            raise Malformed(exc.line, str(exc)) from None
        if data is not None and not isinstance(data, dict):
            raise Malformed(1, "the top level must be a mapping (key: value)")
        return data

    def get(self, data: Any, container: tuple[str, ...], name: str) -> Any:
        items = data.get(container[0]) if isinstance(data, dict) else None
        if not isinstance(items, list):
            return None
        return next((i for i in items if isinstance(i, dict) and i.get("name") == name), None)

    def put(self, text: str, t: Target, name: str, entry: dict[str, Any]) -> tuple[str, bool]:
        header = required_keys(t, name) or None
        new_text, rewritten = yaml_edit.set_entry(text, t.container[0], name, entry, header=header)
        if header and not rewritten:
            new_text = yaml_edit.add_keys(new_text, yaml_edit.missing_keys(new_text, header))
        return new_text, rewritten

    def delete(self, text: str, t: Target, name: str) -> tuple[str, bool]:
        return yaml_edit.remove_entry(text, t.container[0], name)

    def without(self, data: Any, container: tuple[str, ...], name: str) -> Any:
        data = copy.deepcopy(data) if isinstance(data, dict) else {}
        key = container[0]
        if isinstance(data.get(key), list):
            data[key] = [i for i in data[key] if not (isinstance(i, dict) and i.get("name") == name)]
        if data.get(key) in (None, []):
            data.pop(key, None)
        return data


FORMATS: dict[str, _Format] = {"json": _Json(), "toml": _Toml(), "yaml": _YamlList()}


# --- reading and writing --------------------------------------------------------------------------

_BOM = "\ufeff"


def read_text(path: Path, root: Path | None) -> str | None:
    """The file's text exactly as stored (line endings kept), or None when it does not exist.
    ``root``: see ``check_own_file``, which refuses links before anything is read."""
    check_own_file(path, root)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SapDevsError(f"Cannot read {path}: {exc.strerror}.") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SapDevsError(
            f"{path}:{line}: not UTF-8 text; sap-devs left the file unchanged.", hint="Save it as UTF-8."
        ) from None


def write_with_backup(
    path: Path, old: str | None, new: str, containers: list[list[str]] | None = None, *, root: Path | None
) -> Path | None:
    """Atomically replace ``path``; the previous content goes to sap-devs' state folder (see ``state``)."""
    return state.write(path, old, new, containers, root=root)


def unified_diff(path: Path, old: str | None, new: str | None) -> str:
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        (new or "").splitlines(keepends=True),
        fromfile=str(path) if old is not None else "/dev/null",
        tofile=str(path) if new is not None else "/dev/null",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _malformed(path: Path, exc: Malformed) -> SapDevsError:
    where = f"{path}:{exc.line}" if exc.line else str(path)
    return SapDevsError(
        f"{where}: malformed file ({exc.detail}); sap-devs left it unchanged.",
        hint="Fix that line (or move the file away) and run the command again.",
    )


def _load(fmt: _Format, path: Path, text: str, config: McpConfig | None = None) -> Any:
    try:
        data = fmt.load(text)
        _strict(config, text)
    except Malformed as exc:
        raise _malformed(path, exc) from None
    return data


def _strict(config: McpConfig | None, text: str) -> None:
    """A JSONC trailing comma in the file of a client that rejects them: the client cannot read the file."""
    if config is None or config.format != "json" or config.trailing_commas:
        return
    found = jsonc.trailing_commas(text)
    if found:
        line, column = found[0]
        raise Malformed(line, f"trailing comma at column {column}, which the client rejects")


def _split_bom(text: str | None) -> tuple[str, str]:
    if text and text.startswith(_BOM):
        return _BOM, text[1:]
    return "", text or ""


# yaml_edit edits block lists and bracketed lists in place; only layouts it cannot follow (such as
# ``[name: a]`` or a mapping without braces) are dumped again, and only then are comments lost.
REWRITTEN_NOTE = "rewritten as plain YAML, without its comments: sap-devs cannot edit this layout in place"


# --- operations -----------------------------------------------------------------------------------


@dataclass
class Outcome:
    target: Target
    status: str  # installed, updated, already installed, removed, not installed, error, would ...
    message: str = ""
    diff: str = ""
    backup: Path | None = None


def _checked(fmt: _Format, t: Target, path: Path, before: Any, new_text: str, name: str, entry: Any) -> None:
    """Re-parse our result: the entry must be exactly what we meant and everything else unchanged
    (apart from the keys the client requires, which an install adds when they are missing)."""
    if entry is not None and isinstance(before, dict) and t.config.header:
        before = {**required_keys(t, name), **before}
    try:
        after = fmt.load(new_text)
    except Malformed:
        after = _UNPARSABLE
    if (
        after is _UNPARSABLE
        or fmt.get(after, t.container, name) != entry
        or (before is not None and fmt.without(after, t.container, name) != fmt.without(before, t.container, name))
    ):
        raise SapDevsError(
            f"{path}: sap-devs could not edit this file safely and left it unchanged.",
            hint=f"Add or remove the {name!r} entry by hand (see the README).",
        )


_UNPARSABLE = object()


def install(t: Target, spec: ServerSpec, *, dry_run: bool = False) -> Outcome:
    fmt = FORMATS[t.config.format]
    old = read_text(t.path, t.root)
    bom, text = _split_bom(old)
    data = _load(fmt, t.path, text, t.config)
    existing = fmt.get(data, t.container, spec.id)
    desired = merge_entry(existing, client_entry(t, spec))
    if existing == desired and _count(fmt, text, data, t, spec.id) <= 1:
        return Outcome(t, "already installed")
    try:
        new_text, rewritten = fmt.put(text, t, spec.id, desired)
    except (jsonc.EditError, toml_edit.EditError, yaml_edit.EditError) as exc:
        raise SapDevsError(f"{t.path}: {exc}; sap-devs left the file unchanged.", hint="Fix it by hand.") from None
    _checked(fmt, t, t.path, data, new_text, spec.id, desired)
    new = bom + new_text
    note = REWRITTEN_NOTE if rewritten else ""
    diff = unified_diff(t.path, old, new)
    if dry_run:
        return Outcome(t, "would install" if existing is None else "would update", note, diff)
    added = _missing_container(data, t.container)
    backup = write_with_backup(t.path, old, new, [added] if added else None, root=t.root)
    return Outcome(t, "installed" if existing is None else "updated", note, diff, backup)


def _missing_container(data: Any, container: tuple[str, ...]) -> list[str] | None:
    """The outermost key of ``container`` the file lacks (an install adds it), or None."""
    node = data
    for depth, key in enumerate(container):
        if not isinstance(node, dict) or key not in node:
            return list(container[: depth + 1])
        node = node[key]
    return None


def _count(fmt: _Format, text: str, data: Any, t: Target, name: str) -> int:
    """How many entries the file holds for ``name`` (hand-edited JSON may repeat a key, YAML a list item)."""
    if isinstance(fmt, _YamlList) and isinstance(data, dict) and isinstance(data.get(t.container[0]), list):
        return sum(1 for i in data[t.container[0]] if isinstance(i, dict) and i.get("name") == name)
    if isinstance(fmt, _Json):
        return jsonc.count_members(text, list(t.container), name)
    return 1  # TOML forbids a table twice


def uninstall(t: Target, server_id: str, *, dry_run: bool = False) -> Outcome:
    fmt = FORMATS[t.config.format]
    old = read_text(t.path, t.root)
    if old is None:
        return Outcome(t, "not installed", "no file")
    bom, text = _split_bom(old)
    data = _load(fmt, t.path, text, t.config)
    if fmt.get(data, t.container, server_id) is None:
        return Outcome(t, "not installed")
    record = state.current(t.path, old)
    if record is not None and _restorable(fmt, t, server_id, data, record):
        # The file reads as sap-devs left it and, without our entry, as it was before: give that back.
        note = "file deleted" if record.before is None else "restored byte for byte"
        diff = unified_diff(t.path, old, record.before)
        if dry_run:
            return Outcome(t, "would remove", note, diff)
        return Outcome(t, "removed", note, diff, state.restore(t.path, old, record, root=t.root))
    try:
        new_text, rewritten = fmt.delete(text, t, server_id)
        for container in _ours_left_empty(fmt, t, new_text):
            new_text = _remove_container(fmt, new_text, container)
    except (jsonc.EditError, toml_edit.EditError, yaml_edit.EditError) as exc:
        raise SapDevsError(f"{t.path}: {exc}; sap-devs left the file unchanged.", hint="Fix it by hand.") from None
    _checked(fmt, t, t.path, data, new_text, server_id, None)
    rest = _without_header(t, server_id, fmt.without(fmt.load(new_text), t.container, server_id))
    known = state.load(t.path)
    remove_file = (t.config.own_file and not rest.get(t.container[0])) or (
        known is not None and known.before is None and not rest
    )
    new = None if remove_file else bom + new_text
    diff = unified_diff(t.path, old, new)
    note = REWRITTEN_NOTE if rewritten else ""
    if dry_run:
        return Outcome(t, "would remove", note, diff)
    if new is None:  # a file sap-devs created that holds nothing else now
        return Outcome(t, "removed", "file deleted", diff, state.delete(t.path, old, known, root=t.root))
    backup = write_with_backup(t.path, old, new, root=t.root)
    return Outcome(t, "removed", note, diff, backup)


def _without_header(t: Target, name: str, data: Any) -> dict[str, Any]:
    """``data`` without the keys sap-devs adds for the client (Continue's name, version, schema)."""
    if not isinstance(data, dict):
        return {}
    header = required_keys(t, name)
    return {k: v for k, v in data.items() if not (k in header and v == header[k])}


def _restorable(fmt: _Format, t: Target, name: str, data: Any, record: state.Record) -> bool:
    """Whether the content from before sap-devs' first change is this file without our entry."""
    rest = _without_header(t, name, fmt.without(data, t.container, name))
    if record.before is None:
        return not rest
    try:
        original = fmt.load(_split_bom(record.before)[1])
    except Malformed:
        return False
    if fmt.get(original, t.container, name) is not None:
        return False  # the entry was there before sap-devs: uninstall removes it, restoring would not
    return rest == _without_header(t, name, fmt.without(original, t.container, name))


def _ours_left_empty(fmt: _Format, t: Target, text: str) -> Iterator[tuple[str, ...]]:
    """Containers sap-devs added (``mcpServers`` ...) that the removal left empty."""
    known = state.load(t.path)
    if known is None or isinstance(fmt, _YamlList):
        return
    data = fmt.load(text)
    for container in known.containers:
        path = tuple(container)
        if path == t.container[: len(path)] and _dict_get(data, path[:-1], path[-1]) in ({}, []):
            yield path


def _remove_container(fmt: _Format, text: str, container: tuple[str, ...]) -> str:
    if isinstance(fmt, _Json):
        return jsonc.remove_member(text, list(container[:-1]), container[-1])
    return text  # TOML: [mcp_servers.x] tables leave no [mcp_servers] header behind


@dataclass
class StatusRow:
    target: Target
    state: str  # installed, not installed, no file, malformed
    detail: str = ""
    command: str | None = None
    command_exists: bool | None = None
    args: list[str] | None = None
    url: str | None = None

    @property
    def profile(self) -> str | None:
        args = self.args or []
        return next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "--profile"), None)


# What the user still has to do in the client before a server it reads from the project runs.
# Claude Code's project scope is not here: its files say whether the server is approved (claude_approval).
_CLIENT_STEPS: dict[tuple[str, str], str] = {
    ("gemini-cli", "project"): "Gemini CLI disables MCP servers in untrusted folders: "
    "trust the project folder when Gemini asks (or with /permissions)",
    # Gemini CLI 0.61 suppresses user-level servers in an untrusted folder too (`gemini mcp list`: Disabled).
    ("gemini-cli", "user"): "Gemini CLI disables MCP servers, user ones too, in untrusted folders: "
    "trust each project folder when Gemini asks (or with /permissions)",
    ("codex", "project"): "Codex reads a project's .codex/config.toml only in trusted projects: "
    "trust the project when Codex asks",
    ("vscode", "project"): "VS Code asks before it starts a workspace server: start it from .vscode/mcp.json "
    "or the MCP: List Servers command",
}


def client_approval(t: Target, server: str) -> Approval | None:
    """Claude Code's verdict on a server in a project's .mcp.json (approved, rejected, pending); None elsewhere."""
    if (t.client.id, t.scope) != ("claude-code", "project"):
        return None
    from sap_devs.integrations.clients import home_dir

    return claude_approval.approval(t.path.parent, home_dir(), server)


def client_policy(row: StatusRow, server: str, project: Path) -> claude_policy.Verdict | None:
    """Whether Claude Code, started in ``project``, refuses the installed entry ``row`` (from ``status``) by
    its organisation's policy or by allow/deny lists (every scope); None for other clients and when there
    is no entry."""
    if row.target.client.id != "claude-code" or row.state != "installed":
        return None
    from sap_devs.integrations.clients import home_dir

    if row.command is not None:
        identity = claude_policy.Server(server, (row.command, *(row.args or [])))
    else:
        identity = claude_policy.Server(server, url=row.url)
    return claude_policy.check(identity, home_dir(), project)


def client_step(t: Target, server: str = SAP_DEVS, policy: claude_policy.Verdict | None = None) -> str | None:
    """The step left in the client itself before it runs a server from this file (lift a policy block,
    approve, trust the folder); None when there is none, or when Claude Code has already approved it."""
    if policy is not None and policy.block is not None:
        block = policy.block
        return f"Claude Code will not start {server}, it is blocked by {block.who} ({block.file}: {block.rule}): {block.fix}"
    found = client_approval(t, server)
    if found is not None:
        return claude_approval.next_step(found, server)
    return _CLIENT_STEPS.get((t.client.id, t.scope))


def command_exists(command: str) -> bool:
    if os.path.isabs(command):
        return Path(command).is_file()
    return shutil.which(command) is not None


def status(t: Target, server_id: str) -> StatusRow:
    fmt = FORMATS[t.config.format]
    try:
        old = read_text(t.path, t.root)
    except SapDevsError as exc:
        return StatusRow(t, "malformed", exc.message)
    if old is None:
        return StatusRow(t, "no file")
    try:
        data = fmt.load(_split_bom(old)[1])
        _strict(t.config, _split_bom(old)[1])
    except Malformed as exc:
        return StatusRow(t, "malformed", f"line {exc.line}: {exc.detail}" if exc.line else exc.detail)
    entry = fmt.get(data, t.container, server_id)
    if entry is None:
        return StatusRow(t, "not installed")
    command = entry.get("command") if isinstance(entry, dict) else None
    args = entry.get("args") if isinstance(entry, dict) else None
    args = [str(a) for a in args] if isinstance(args, list) else []
    url = next((entry[k] for k in _URL_KEYS if isinstance(entry, dict) and isinstance(entry.get(k), str)), None)
    if url is not None and command is None:
        return StatusRow(t, "installed", f"remote server {url}", url=url)
    if not isinstance(command, str):
        return StatusRow(t, "installed", "entry has no command", args=args)
    return StatusRow(t, "installed", command=command, command_exists=command_exists(command), args=args)


def entry_of(row: StatusRow) -> tuple[str | None, tuple[str, ...]]:
    return row.command or row.url, tuple(row.args or ())


def scope_warnings(rows: list[StatusRow]) -> list[str]:
    """Warnings for one client's rows: the server in several scopes (the client loads each, or
    reports conflicting scopes), and entries that differ between them."""
    installed = [r for r in rows if r.state == "installed"]
    if len(installed) < 2:
        return []
    client = installed[0].target.client.name
    where = ", ".join(f"{r.target.scope} ({r.target.path})" for r in installed)
    warnings = [
        f"{client} has this server in {len(installed)} scopes: {where}; keep one (`sap-devs mcp uninstall "
        f"-c {installed[0].target.client.id} --scope SCOPE`)."
    ]
    if len({entry_of(r) for r in installed}) > 1:
        detail = "; ".join(
            f"{r.target.scope}: {r.command or r.url} {' '.join(r.args or [])}".rstrip() for r in installed
        )
        warnings.append(f"{client}: the entries conflict, the client picks one by its own precedence ({detail}).")
    return warnings
