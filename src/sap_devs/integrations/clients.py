"""The AI clients sap-devs can wire into: where each keeps MCP servers and always-on instructions.

Facts from reference/CLIENTS.md. One table, so adding a client or fixing a path is one edit;
``mcp_install`` and ``inject`` only read it.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sap_devs.core.errors import SapDevsError

Scope = Literal["user", "project", "local"]
Format = Literal["json", "toml", "yaml"]
# How one server entry looks: "claude" and "vscode" carry "type": "stdio", "plain" is
# {command, args, env}, "continue" is a list item {name, type, command, args}.
Shape = Literal["claude", "plain", "vscode", "continue"]
PathSpec = str | Callable[[Path], Path]  # "~/..." (home), "{project}/..." or a function of home


def home_dir() -> Path:
    """The user's home folder; SAP_DEVS_HOME redirects it (tests never touch the real one)."""
    override = os.environ.get("SAP_DEVS_HOME")
    return Path(override).expanduser() if override else Path.home()


def _redirected() -> bool:
    return bool(os.environ.get("SAP_DEVS_HOME"))


def _xdg_config(home: Path) -> Path:
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return Path(xdg) if xdg and not _redirected() else home / ".config"


def _appdata(home: Path) -> Path:
    appdata = os.environ.get("APPDATA")
    return Path(appdata) if appdata and not _redirected() else home / "AppData" / "Roaming"


def _app_support(home: Path) -> Path:
    """The per-user application settings folder of Electron apps (Claude Desktop, VS Code)."""
    if sys.platform == "darwin":
        return home / "Library" / "Application Support"
    if sys.platform == "win32":
        return _appdata(home)
    return _xdg_config(home)


def _config_override(variable: str, home: Path) -> Path | None:
    """``$CLAUDE_CONFIG_DIR`` / ``$CODEX_HOME`` when the user set it (the client then reads nothing under
    ``~/.claude`` or ``~/.codex``). With SAP_DEVS_HOME set, only a folder inside that home counts: a test
    never writes to a real client's folder."""
    value = os.environ.get(variable)
    if not value:
        return None
    folder = Path(value).expanduser()
    return folder if not _redirected() or folder.resolve().is_relative_to(home.resolve()) else None


def claude_dir(home: Path) -> Path:
    return _config_override("CLAUDE_CONFIG_DIR", home) or home / ".claude"


def claude_json(home: Path) -> Path:
    """Claude Code's state file with the user and local MCP servers and the trusted folders: measured
    with Claude Code 2.1.197, it is ``$CLAUDE_CONFIG_DIR/.claude.json`` whenever that is set (also when it
    names ~/.claude), else ``~/.claude.json``."""
    folder = _config_override("CLAUDE_CONFIG_DIR", home)
    return folder / ".claude.json" if folder is not None else home / ".claude.json"


def codex_dir(home: Path) -> Path:
    return _config_override("CODEX_HOME", home) or home / ".codex"


def _claude_desktop(home: Path) -> Path:
    return _app_support(home) / "Claude" / "claude_desktop_config.json"


def _vscode_user(home: Path) -> Path:
    return _app_support(home) / "Code" / "User" / "mcp.json"


def _zed_user(home: Path) -> Path:
    if sys.platform == "win32":
        return _appdata(home) / "Zed" / "settings.json"
    base = home / ".config" if sys.platform == "darwin" else _xdg_config(home)
    return base / "zed" / "settings.json"


def resolve(spec: PathSpec, home: Path, project: Path, server: str = "sap-devs") -> Path:
    if callable(spec):
        return spec(home)
    spec = spec.replace("{server}", server)
    if spec.startswith("~/"):
        return home / spec[2:]
    if spec.startswith("{project}/"):
        return project / spec[len("{project}/") :]
    raise ValueError(f"bad path spec {spec!r}")  # a mistake in the table below, not user input


@dataclass(frozen=True)
class McpConfig:
    scope: Scope
    path: PathSpec
    format: Format
    container: tuple[str, ...]  # keys leading to the servers map (or list); "{project}" = abs project path
    shape: Shape
    header: tuple[tuple[str, str], ...] = ()  # top-level keys the client requires in the file (Continue)
    own_file: bool = False  # one file per server (Continue block files): removed with its last server
    trailing_commas: bool = True  # False: the client rejects JSONC trailing commas (comments are fine)


@dataclass(frozen=True)
class InstructionFile:
    scope: Scope
    path: PathSpec
    budget: int | None  # what the client reads of the whole file (user's text included); it truncates or
    # ignores more. None: the client reads the file whole, however long.
    front_matter: str = ""  # written only when sap-devs creates the file
    unit: Literal["chars", "bytes"] = "chars"


@dataclass(frozen=True)
class Client:
    id: str
    name: str
    detect: tuple[PathSpec, ...]
    executables: tuple[str, ...]
    mcp: tuple[McpConfig, ...] = ()
    instructions: tuple[InstructionFile, ...] = ()

    def mcp_config(self, scope: Scope) -> McpConfig | None:
        return next((c for c in self.mcp if c.scope == scope), None)

    def instruction_file(self, scope: Scope) -> InstructionFile | None:
        return next((f for f in self.instructions if f.scope == scope), None)


_CURSOR_FRONT = "---\ndescription: SAP developer rules and context from sap-devs\nalwaysApply: true\n---\n"
_CONTINUE_FRONT = "---\nname: SAP developer context (sap-devs)\nalwaysApply: true\n---\n"

CLIENTS: tuple[Client, ...] = (
    Client(
        "claude-code",
        "Claude Code",
        detect=(claude_dir, claude_json),
        executables=("claude",),
        mcp=(
            McpConfig("project", "{project}/.mcp.json", "json", ("mcpServers",), "claude"),
            McpConfig("user", claude_json, "json", ("mcpServers",), "claude"),
            McpConfig("local", claude_json, "json", ("projects", "{project}", "mcpServers"), "claude"),
        ),
        # Claude Code reads CLAUDE.md in full but warns above about 40k characters.
        instructions=(
            InstructionFile("project", "{project}/CLAUDE.md", 40_000),
            InstructionFile("user", lambda home: claude_dir(home) / "CLAUDE.md", 40_000),
        ),
    ),
    Client(
        "claude-desktop",
        "Claude Desktop",
        detect=(lambda home: _claude_desktop(home).parent,),
        executables=(),
        mcp=(McpConfig("user", _claude_desktop, "json", ("mcpServers",), "plain"),),
    ),
    Client(
        "cursor",
        "Cursor",
        detect=("~/.cursor",),
        executables=("cursor",),
        mcp=(
            McpConfig("user", "~/.cursor/mcp.json", "json", ("mcpServers",), "plain"),
            McpConfig("project", "{project}/.cursor/mcp.json", "json", ("mcpServers",), "plain"),
        ),
        instructions=(InstructionFile("project", "{project}/.cursor/rules/sap-devs.mdc", 24_000, _CURSOR_FRONT),),
    ),
    Client(
        "vscode",
        "VS Code (GitHub Copilot)",
        detect=("~/.vscode", lambda home: _vscode_user(home).parent),
        executables=("code",),
        mcp=(
            McpConfig("project", "{project}/.vscode/mcp.json", "json", ("servers",), "vscode"),
            McpConfig("user", _vscode_user, "json", ("servers",), "vscode"),
        ),
        instructions=(InstructionFile("project", "{project}/.github/copilot-instructions.md", 24_000),),
    ),
    Client(
        "windsurf",
        "Windsurf",
        detect=("~/.codeium/windsurf",),
        executables=("windsurf",),
        mcp=(McpConfig("user", "~/.codeium/windsurf/mcp_config.json", "json", ("mcpServers",), "plain"),),
        # Windsurf ignores rule files above 12,000 characters.
        instructions=(InstructionFile("project", "{project}/.windsurf/rules/sap-devs.md", 12_000),),
    ),
    Client(
        "gemini-cli",
        "Gemini CLI",
        detect=("~/.gemini",),
        executables=("gemini",),
        mcp=(
            # Gemini CLI 0.61 reads comments but fails on a trailing comma ("Expected double-quoted property name").
            McpConfig("user", "~/.gemini/settings.json", "json", ("mcpServers",), "plain", trailing_commas=False),
            McpConfig(
                "project", "{project}/.gemini/settings.json", "json", ("mcpServers",), "plain", trailing_commas=False
            ),
        ),
        instructions=(
            InstructionFile("project", "{project}/GEMINI.md", 64_000),
            InstructionFile("user", "~/.gemini/GEMINI.md", 64_000),
        ),
    ),
    Client(
        "codex",
        "Codex CLI",
        detect=(codex_dir,),
        executables=("codex",),
        mcp=(
            McpConfig("user", lambda home: codex_dir(home) / "config.toml", "toml", ("mcp_servers",), "plain"),
            McpConfig("project", "{project}/.codex/config.toml", "toml", ("mcp_servers",), "plain"),
        ),
        # Codex reads at most 32 KiB of the project's AGENTS.md files together (project_doc_max_bytes,
        # see agents_chain). The global ~/.codex/AGENTS.md is outside that limit and read whole
        # (Codex 0.171: a 120 KB file reached the prompt to its last line), so no budget: a stricter
        # one would shrink or drop packs for a limit Codex does not have. The default block stays
        # lean anyway (inject.LEAN_CHARS); a larger one only comes with a --verbosity the user chose.
        instructions=(
            InstructionFile("project", "{project}/AGENTS.md", 32_768, unit="bytes"),
            InstructionFile("user", lambda home: codex_dir(home) / "AGENTS.md", None, unit="bytes"),
        ),
    ),
    Client(
        "continue",
        "Continue",
        detect=("~/.continue",),
        executables=("cn",),
        mcp=(
            # Continue refuses a config.yaml without name and version ("name: Required, version: Required").
            McpConfig(
                "user",
                "~/.continue/config.yaml",
                "yaml",
                ("mcpServers",),
                "continue",
                header=(("name", "Local Config"), ("version", "1.0.0"), ("schema", "v1")),
            ),
            # A workspace block file per server; its name is filled in by mcp_install.
            McpConfig(
                "project",
                "{project}/.continue/mcpServers/{server}.yaml",
                "yaml",
                ("mcpServers",),
                "continue",
                header=(("name", "{server}"), ("version", "0.0.1"), ("schema", "v1")),
                own_file=True,
            ),
        ),
        instructions=(
            InstructionFile("project", "{project}/.continue/rules/sap-devs.md", 24_000, _CONTINUE_FRONT),
            InstructionFile("user", "~/.continue/rules/sap-devs.md", 24_000, _CONTINUE_FRONT),
        ),
    ),
    Client(
        "zed",
        "Zed",
        detect=(lambda home: _zed_user(home).parent,),
        executables=("zed", "zeditor"),
        mcp=(
            McpConfig("user", _zed_user, "json", ("context_servers",), "plain"),
            McpConfig("project", "{project}/.zed/settings.json", "json", ("context_servers",), "plain"),
        ),
    ),
)

ALIASES = {"copilot": "vscode", "claude": "claude-code", "gemini": "gemini-cli", "codex-cli": "codex"}


def by_id(client_id: str) -> Client:
    wanted = ALIASES.get(client_id.lower(), client_id.lower())
    for client in CLIENTS:
        if client.id == wanted:
            return client
    raise SapDevsError(
        f"Unknown client {client_id!r}.", hint=f"Choose from: {', '.join(c.id for c in CLIENTS)} (or 'copilot')."
    )


def which(name: str) -> str | None:
    """shutil.which, kept as a module function so tests can pretend a client is (not) installed."""
    return shutil.which(name)


def is_detected(client: Client, home: Path) -> bool:
    """A client counts as present when its config folder exists or its executable is on PATH."""
    for spec in client.detect:
        if resolve(spec, home, home).exists():
            return True
    return any(which(exe) for exe in client.executables)


def select(names: list[str] | None, home: Path) -> tuple[list[Client], bool]:
    """The clients to work on: the named ones (present or not), else the detected ones.

    Returns the clients and whether they were detected (rather than named)."""
    if names:
        chosen: list[Client] = []
        for name in names:
            for part in name.split(","):
                client = by_id(part.strip())
                if client not in chosen:
                    chosen.append(client)
        return chosen, False
    return [c for c in CLIENTS if is_detected(c, home)], True
