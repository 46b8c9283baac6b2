"""Whether Claude Code will start a server from a project's ``.mcp.json``: approved, rejected or pending.

Measured with Claude Code 2.1.197 (``claude mcp get``) in throwaway homes:

- it starts the server only when the folder is trusted *and* the server is approved; either alone
  leaves it "Pending approval";
- trust is ``hasTrustDialogAccepted`` in ``~/.claude.json`` under ``projects[<folder>]``, where the
  folder is the git root when the project is in a git repository (else the project folder itself;
  a trusted parent folder does not count);
- approval is the server's name in ``enabledMcpjsonServers`` or ``enableAllProjectMcpServers: true``;
  rejection is its name in ``disabledMcpjsonServers``, which wins over any approval. Claude merges the
  lists of ``~/.claude/settings.json``, the project's ``.claude/settings.json`` and
  ``.claude/settings.local.json`` and the ``~/.claude.json`` project entry (it moves the keys from
  there into ``settings.local.json`` itself); for ``enableAllProjectMcpServers`` the most local file
  that sets it wins;
- a malformed settings file is ignored, as if it were absent;
- with ``CLAUDE_CONFIG_DIR`` set, ``~/.claude.json`` is ``$CLAUDE_CONFIG_DIR/.claude.json`` and
  ``~/.claude/settings.json`` is ``$CLAUDE_CONFIG_DIR/settings.json``.

These are the user's files: each is read at most once, up to a size bound, and a file that cannot
be read is named in the result rather than failing the command.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sap_devs.core.fs import read_regular
from sap_devs.integrations.clients import claude_dir, claude_json

# ~/.claude.json also holds Claude's per-project history; a few MB is usual, far more is not a config.
MAX_BYTES = 32 * 1024 * 1024

State = Literal["approved", "rejected", "pending"]


@dataclass(frozen=True)
class Approval:
    state: State
    evidence: str
    """Where the state comes from, in the user's words: which file says so."""
    trusted: bool
    enabled_in: Path | None = None
    disabled_in: Path | None = None
    unreadable: list[str] = field(default_factory=list)
    """Settings files that could not be read (Claude Code ignores them too), with the reason."""


def git_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def trust_key(project: Path) -> str:
    """The ``projects`` key Claude Code keeps the project under in ~/.claude.json (trust, local servers)."""
    project = project.resolve()
    return (git_root(project) or project).as_posix()


def read_json_object(path: Path, unreadable: list[str]) -> dict[str, Any] | None:
    """The JSON object in ``path``; None (and a note in ``unreadable``) when it cannot be used."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        unreadable.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return None
    if len(raw) > MAX_BYTES:
        unreadable.append(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB, not read")
        return None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        unreadable.append(f"{path}: not UTF-8 text")
        return None
    except json.JSONDecodeError as exc:
        unreadable.append(f"{path}: malformed JSON at line {exc.lineno} ({exc.msg})")
        return None
    if not isinstance(data, dict):
        unreadable.append(f"{path}: not a JSON object")
        return None
    return data


def _names(source: dict[str, Any] | None, key: str) -> set[str]:
    values = source.get(key) if source else None
    return {v for v in values if isinstance(v, str)} if isinstance(values, list) else set()


def approval(project: Path, home: Path, server: str) -> Approval:
    """What Claude Code does with ``server`` from ``project``'s ``.mcp.json``."""
    unreadable: list[str] = []
    state = claude_json(home)
    projects = (read_json_object(state, unreadable) or {}).get("projects")
    entry = projects.get(trust_key(project)) if isinstance(projects, dict) else None
    entry = entry if isinstance(entry, dict) else None
    trusted = bool(entry and entry.get("hasTrustDialogAccepted") is True)
    # most local first: it decides enableAllProjectMcpServers
    sources: list[tuple[Path, dict[str, Any] | None]] = [
        (
            project / ".claude" / "settings.local.json",
            read_json_object(project / ".claude" / "settings.local.json", unreadable),
        ),
        (state, entry),
        (project / ".claude" / "settings.json", read_json_object(project / ".claude" / "settings.json", unreadable)),
        (claude_dir(home) / "settings.json", read_json_object(claude_dir(home) / "settings.json", unreadable)),
    ]
    disabled_in = next((p for p, s in sources if server in _names(s, "disabledMcpjsonServers")), None)
    enabled_in = next((p for p, s in sources if server in _names(s, "enabledMcpjsonServers")), None)
    how = "enabledMcpjsonServers"
    enable_all = next(((p, s["enableAllProjectMcpServers"]) for p, s in sources if s and _sets_all(s)), None)
    if enabled_in is None and enable_all is not None and enable_all[1]:
        enabled_in, how = enable_all[0], "enableAllProjectMcpServers"
    if disabled_in is not None:
        evidence = f"{server} is in disabledMcpjsonServers in {disabled_in}"
        return Approval("rejected", evidence, trusted, enabled_in, disabled_in, unreadable)
    missing = []
    if not trusted:
        missing.append(f"the folder {trust_key(project)} is not trusted yet")
    if enabled_in is None:
        missing.append(f"{server} is not approved yet")
    if missing:
        return Approval("pending", "; ".join(missing), trusted, None, None, unreadable)
    evidence = f"folder trusted, {server} approved by {how} in {enabled_in}"
    return Approval("approved", evidence, trusted, enabled_in, None, unreadable)


def _sets_all(source: dict[str, Any]) -> bool:
    return isinstance(source.get("enableAllProjectMcpServers"), bool)


def next_step(found: Approval, server: str) -> str | None:
    """What the user does in Claude Code so that it starts the server; None when nothing is left."""
    if found.state == "approved":
        return None
    if found.state == "rejected":
        return (
            f"Claude Code will not start {server}, it was rejected: remove it from disabledMcpjsonServers in "
            f"{found.disabled_in}, or enable it with /mcp in `claude`"
        )
    return (
        "Claude Code asks before it starts servers from a project's .mcp.json: run `claude` in the project, "
        f"trust the folder and approve {server} (or /mcp), else it stays 'pending approval'"
    )
