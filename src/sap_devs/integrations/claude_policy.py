"""Whether Claude Code refuses to load one MCP server because of managed policy or allow/deny lists.

A server Claude Code refuses disappears from ``claude mcp list`` without a word, so ``mcp status``
says why instead. The rules follow the official pages (code.claude.com/docs/en/managed-mcp and
managed-settings) and were measured with Claude Code 2.1.197 in throwaway homes:

- ``managed-mcp.json`` in the managed folder takes exclusive control: only its servers load. A file
  that does not parse, or lacks an ``mcpServers`` object, takes no control at all;
- managed ``strictPluginOnlyCustomization`` (``true``, or a list with ``"mcp"``) drops every user,
  local and project server;
- ``deniedMcpServers`` from every settings file (managed, ``~/.claude/settings.json``, the project's
  ``.claude/settings.json`` and ``settings.local.json``, trusted folder or not) blocks a match, and
  nothing overrides it;
- ``allowedMcpServers``, once set anywhere, admits only matches; with managed
  ``allowManagedMcpServersOnly: true`` only the managed list counts, otherwise the lists of all
  files add up (so a user can extend the organisation's list). A stdio server must match a
  ``serverCommand`` entry when the list has any, a remote one a ``serverUrl`` entry when it has any;
  otherwise a ``serverName`` entry does;
- the managed settings are ``managed-settings.json`` merged with ``managed-settings.d/*.json``
  (alphabetical, hidden files skipped; lists add up). A managed file that is not JSON contributes
  nothing; a managed ``allowedMcpServers`` that is not a list counts as an empty one (nothing is
  admitted) and a non-boolean ``allowManagedMcpServersOnly`` as ``true``; an entry without exactly
  one of ``serverName``, ``serverCommand``, ``serverUrl`` is skipped. A user or project file with a
  list of the wrong type is ignored.

Where sap-devs cannot see what Claude Code sees, it reports "blocked" only when it is sure: server-
managed settings (claude.ai), macOS profiles, the Windows registry and WSL's Windows policy are not
read (when they deliver a policy, Claude Code may ignore the files read here); an allowlist entry that
uses ``${VAR}`` counts as a possible match, because Claude Code expands it from its own environment.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sap_devs.integrations.claude_approval import read_json_object
from sap_devs.integrations.clients import claude_dir

# A fleet splits its policy into a handful of drop-ins; far more is not a policy folder.
MAX_DROP_INS = 200
MANAGED_DIR_VARIABLE = "SAP_DEVS_CLAUDE_MANAGED_DIR"
_ENTRY_KEYS = ("serverName", "serverCommand", "serverUrl")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass(frozen=True)
class Server:
    """One configured server as Claude Code identifies it: its name, and the command line (stdio) or URL."""

    name: str
    command: tuple[str, ...] | None = None
    url: str | None = None


@dataclass(frozen=True)
class Block:
    file: Path
    rule: str
    """Which rule blocks the server, in the file's own words (a key and the matching entry)."""
    fix: str
    """What lifts the block, and who can do it."""
    managed: bool
    """The rule is the organisation's (a managed file), not one of the user's own settings files."""

    @property
    def who(self) -> str:
        return "your organisation's Claude Code policy" if self.managed else "your Claude Code settings"


@dataclass(frozen=True)
class Verdict:
    block: Block | None
    unreadable: list[str] = field(default_factory=list)
    """Policy and settings files that could not be used (Claude Code ignores them too), with the reason."""


def managed_dir() -> Path | None:
    """Where Claude Code reads managed policy files on this platform. ``SAP_DEVS_CLAUDE_MANAGED_DIR``
    points elsewhere (an administrator trying a policy before deploying it); under a redirected home
    (``SAP_DEVS_HOME``, tests) without it, no managed folder is read: a test never sees the machine's."""
    override = os.environ.get(MANAGED_DIR_VARIABLE)
    if override:
        return Path(override).expanduser()
    if os.environ.get("SAP_DEVS_HOME"):
        return None
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if sys.platform == "win32":
        return Path("C:/Program Files/ClaudeCode")
    return Path("/etc/claude-code")


@dataclass
class _Lists:
    """The merged allowedMcpServers and deniedMcpServers, with the files that set them."""

    allowed: list[dict[str, Any]] = field(default_factory=list)
    allow_set_in: list[Path] = field(default_factory=list)
    denied: list[tuple[Path, dict[str, Any]]] = field(default_factory=list)


def check(server: Server, home: Path, project: Path, managed: Path | None = None) -> Verdict:
    """Whether Claude Code, started in ``project``, refuses ``server`` from the user's own config
    (``~/.claude.json`` or the project's ``.mcp.json``); ``managed`` defaults to ``managed_dir()``."""
    unreadable: list[str] = []
    folder = managed if managed is not None else managed_dir()
    block = _exclusive(folder, server, unreadable) if folder is not None else None
    policy_files = _managed_settings(folder, unreadable) if folder is not None else []
    policy = _merged(policy_files)
    if block is None:
        block = _plugins_only(policy, policy_files, server)
    lists = _Lists()
    managed_only = policy.get("allowManagedMcpServersOnly") is True
    for path, data in policy_files:
        _collect(lists, path, data, allow=True)
    for path in _own_settings(home, project):
        data = read_json_object(path, unreadable)
        if data is not None and _lists_well_typed(data, path, unreadable):
            _collect(lists, path, data, allow=not managed_only)
    managed_paths = {path for path, _ in policy_files}
    if block is None:
        block = _denied(lists, server, managed_paths)
    if block is None:
        block = _not_allowed(lists, server, managed_paths, managed_only, home)
    return Verdict(block, unreadable)


# --- managed-mcp.json and plugin-only lock ---------------------------------------------------------


def _exclusive(folder: Path, server: Server, unreadable: list[str]) -> Block | None:
    path = folder / "managed-mcp.json"
    data = read_json_object(path, unreadable)
    if data is None:
        return None
    servers = data.get("mcpServers")
    if not isinstance(servers, dict):
        unreadable.append(f'{path}: has no "mcpServers" object')
        return None
    rule = "exclusive control, only the MCP servers defined in this file load"
    if server.name in servers:
        rule += f", and its own {server.name} replaces this entry"
        fix = f"your organisation's {server.name} runs instead; to run this one, ask your administrator to change it in {path}"
    else:
        fix = f'ask your administrator to add {server.name} to "mcpServers" in {path}'
    return Block(path, rule, fix, managed=True)


def _plugins_only(policy: dict[str, Any], files: list[tuple[Path, dict[str, Any]]], server: Server) -> Block | None:
    lock = policy.get("strictPluginOnlyCustomization")
    if lock is not True and not (isinstance(lock, list) and "mcp" in lock):
        return None
    path = next(p for p, data in reversed(files) if "strictPluginOnlyCustomization" in data)  # the one that wins
    rule = "strictPluginOnlyCustomization: only MCP servers from plugins load"
    fix = f'ask your administrator to allow {server.name}: take "mcp" out of strictPluginOnlyCustomization in {path}'
    return Block(path, rule, fix, managed=True)


# --- reading the settings files --------------------------------------------------------------------


def _managed_settings(folder: Path, unreadable: list[str]) -> list[tuple[Path, dict[str, Any]]]:
    """The managed settings files Claude Code merges, in its order: ``managed-settings.json``, then the drop-ins."""
    paths = [folder / "managed-settings.json"]
    drop_ins = folder / "managed-settings.d"
    try:
        names = sorted(
            p.name
            for p in drop_ins.iterdir()
            if p.name.endswith(".json") and not p.name.startswith(".") and p.is_file()
        )
    except OSError:
        names = []
    if len(names) > MAX_DROP_INS:
        unreadable.append(f"{drop_ins}: more than {MAX_DROP_INS} files, only the first {MAX_DROP_INS} read")
    paths += [drop_ins / name for name in names[:MAX_DROP_INS]]
    used = []
    for path in paths:
        data = read_json_object(path, unreadable)
        if data:
            used.append((path, _tolerant(data)))
    return used


def _merged(files: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    """Later files win single values; lists add up."""
    merged: dict[str, Any] = {}
    for _, data in files:
        for key, value in data.items():
            both_lists = isinstance(value, list) and isinstance(merged.get(key), list)
            merged[key] = [*merged[key], *value] if both_lists else value
    return merged


def _tolerant(data: dict[str, Any]) -> dict[str, Any]:
    """A managed file's MCP keys as Claude Code enforces a bad value: it fails closed where it can."""
    data = dict(data)
    if "allowedMcpServers" in data and not isinstance(data["allowedMcpServers"], list):
        data["allowedMcpServers"] = []  # enforced as an empty allowlist until fixed
    if "deniedMcpServers" in data and not isinstance(data["deniedMcpServers"], list):
        del data["deniedMcpServers"]  # dropped: denying everything would block servers never named
    if "allowManagedMcpServersOnly" in data and not isinstance(data["allowManagedMcpServersOnly"], bool):
        data["allowManagedMcpServersOnly"] = True
    return data


def _own_settings(home: Path, project: Path) -> list[Path]:
    return [
        claude_dir(home) / "settings.json",
        project / ".claude" / "settings.json",
        project / ".claude" / "settings.local.json",
    ]


def _lists_well_typed(data: dict[str, Any], path: Path, unreadable: list[str]) -> bool:
    """A user or project file with a list of the wrong type is rejected whole by Claude Code."""
    for key in ("allowedMcpServers", "deniedMcpServers"):
        if key in data and not isinstance(data[key], list):
            unreadable.append(f"{path}: {key} is not a list")
            return False
    return True


def _collect(lists: _Lists, path: Path, data: dict[str, Any], *, allow: bool) -> None:
    denied = data.get("deniedMcpServers")
    if isinstance(denied, list):
        lists.denied += [(path, e) for e in denied if _valid(e, deny=True)]
    allowed = data.get("allowedMcpServers")
    if allow and isinstance(allowed, list):
        lists.allow_set_in.append(path)
        lists.allowed += [e for e in allowed if _valid(e, deny=False)]


def _valid(entry: Any, *, deny: bool) -> bool:
    """An entry Claude Code keeps: exactly one of the three keys, of the right type."""
    if not isinstance(entry, dict) or sum(entry.get(k) is not None for k in _ENTRY_KEYS) != 1:
        return False
    name, command, url = (entry.get(k) for k in _ENTRY_KEYS)
    if name is not None:
        # the allowlist takes plain names only; the denylist any text (claude.ai connectors' display names)
        return isinstance(name, str) and bool(name) and (deny or re.fullmatch(r"[A-Za-z0-9_-]+", name) is not None)
    if command is not None:
        return isinstance(command, list) and bool(command) and all(isinstance(part, str) for part in command)
    return isinstance(url, str) and bool(url)


# --- the two lists ---------------------------------------------------------------------------------


def _denied(lists: _Lists, server: Server, managed: set[Path]) -> Block | None:
    for path, entry in lists.denied:
        if _matches(entry, server, unknown=False):
            shown = _entry_text(entry)
            if path in managed:
                fix = f"ask your administrator to allow {server.name}: remove {shown} from deniedMcpServers in {path}"
            else:
                fix = f"remove {shown} from deniedMcpServers in {path} (nothing overrides a denylist entry)"
            return Block(path, f"deniedMcpServers has {shown}", fix, managed=path in managed)
    return None


def _not_allowed(lists: _Lists, server: Server, managed: set[Path], managed_only: bool, home: Path) -> Block | None:
    if not lists.allow_set_in:
        return None
    entries = lists.allowed
    by_command = any("serverCommand" in e for e in entries)
    by_url = any("serverUrl" in e for e in entries)
    if any(_allows(e, server, by_command, by_url) for e in entries):
        return None
    path = next((p for p in lists.allow_set_in if p in managed), lists.allow_set_in[0])
    suggestion = _entry_text(_suggestion(server, by_command, by_url))
    if not entries:
        rule = "allowedMcpServers is empty (or not a list): no MCP server may load"
    elif server.command is not None and by_command:
        rule = f"allowedMcpServers has serverCommand entries and none is exactly {json.dumps(list(server.command))}"
    elif server.url is not None and by_url:
        rule = f"allowedMcpServers has serverUrl entries and none matches {server.url}"
    else:
        rule = f"allowedMcpServers does not list {server.name}"
    if path not in managed:
        fix = f"add {suggestion} to allowedMcpServers in {path}"
    elif managed_only:
        fix = f"ask your administrator to allow {server.name}: add {suggestion} to allowedMcpServers in {path}"
    else:
        # without allowManagedMcpServersOnly the user's own list extends the organisation's (measured)
        own = claude_dir(home) / "settings.json"
        fix = (
            f"ask your administrator to allow {server.name}: add {suggestion} to allowedMcpServers in {path} "
            f"(or add it to allowedMcpServers in your {own}, which extends that list)"
        )
    return Block(path, rule, fix, managed=path in managed)


def _allows(entry: dict[str, Any], server: Server, by_command: bool, by_url: bool) -> bool:
    if server.command is not None and by_command:
        return "serverCommand" in entry and _matches(entry, server, unknown=True)
    if server.url is not None and by_url:
        return "serverUrl" in entry and _matches(entry, server, unknown=True)
    return "serverName" in entry and entry["serverName"] == server.name


def _matches(entry: dict[str, Any], server: Server, *, unknown: bool) -> bool:
    """Whether the entry names this server. Claude Code expands ``${VAR}`` in an entry from its own
    environment, which sap-devs cannot see: with ``unknown`` (the allowlist) such an entry counts as a
    match; otherwise (the denylist) it is expanded from this environment, where an unset variable
    matches nothing. Either way no block is reported that may not be there."""
    if "serverName" in entry:
        return entry["serverName"] == server.name  # names match literally, never expanded
    if "serverCommand" in entry:
        if server.command is None:
            return False
        if any("${" in part for part in entry["serverCommand"]) and unknown:
            return True
        wanted = [_expand(part) for part in entry["serverCommand"]]
        return wanted == [_expand(part) for part in server.command]
    if server.url is None:
        return False
    if "${" in entry["serverUrl"] and unknown:
        return True
    return url_matches(_expand(server.url), _expand(entry["serverUrl"]))


def _expand(text: str) -> str:
    """``${VAR}`` and ``${VAR:-default}`` as Claude Code expands them; an unset one stays as written."""

    def value(match: re.Match[str]) -> str:
        found = os.environ.get(match.group(1))
        if found is not None:
            return found
        return match.group(2) if match.group(2) is not None else match.group(0)

    return _VARIABLE.sub(value, text)


def url_matches(url: str, pattern: str) -> bool:
    """A ``serverUrl`` pattern: ``*`` matches anything, the scheme included; host names compare without
    case and without a trailing dot, paths with case; a pattern without a path matches any path."""
    if pattern == "*":
        return True
    try:
        target = urlsplit(url)
        target_port = target.port
    except ValueError:
        return False
    scheme, sep, rest = pattern.partition("://")
    if not sep or not target.hostname:
        return _glob(pattern, "[^/]*").fullmatch(url) is not None
    authority, slash, path = rest.partition("/")
    host, _, port = authority.rpartition(":") if _has_port(authority) else (authority, "", "")
    if scheme != "*" and scheme.lower() != target.scheme.lower():
        return False
    if not _glob(host.rstrip(".").lower(), "[^/]*").fullmatch(target.hostname.rstrip(".").lower()):
        return False
    any_port = port == "*" or (not port and "*" in host)
    if not any_port and _port(port, target.scheme) != _port(target_port, target.scheme):
        return False
    if not path and not slash:
        return True
    wanted = "/" + path
    actual = (target.path or "/") + (f"?{target.query}" if target.query else "")
    return _glob(wanted, ".*").fullmatch(actual) is not None


def _has_port(authority: str) -> bool:
    return ":" in authority and not authority.endswith("]")


def _port(port: object, scheme: str) -> str:
    text = "" if port in (None, "") else str(port)
    return "" if text == {"https": "443", "http": "80"}.get(scheme.lower()) else text


def _glob(pattern: str, star: str) -> re.Pattern[str]:
    return re.compile(star.join(re.escape(part) for part in pattern.split("*")))


def _suggestion(server: Server, by_command: bool, by_url: bool) -> dict[str, Any]:
    if server.command is not None and by_command:
        return {"serverCommand": list(server.command)}
    if server.url is not None and by_url:
        return {"serverUrl": server.url}
    return {"serverName": server.name}


def _entry_text(entry: dict[str, Any]) -> str:
    return json.dumps(entry, ensure_ascii=False)
