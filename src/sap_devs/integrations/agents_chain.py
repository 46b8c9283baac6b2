"""The AGENTS.md files Codex reads together with the one ``inject`` writes, and their shared limit.

Codex joins one instruction file per folder, from the project root (the nearest folder holding
``.git``; without one, only the folder it starts in) down to the folder it starts in, and stops
once they add up to ``project_doc_max_bytes`` (32 KiB unless ~/.codex/config.toml, or in a trusted
project its own .codex/config.toml, says otherwise).
In each folder the first of AGENTS.override.md, AGENTS.md and the configured fallback names that
exists is the one read, so an override, even an empty one, hides AGENTS.md. The global
~/.codex/AGENTS.md is not part of that sum. All of this was checked with ``codex debug
prompt-input`` (Codex CLI 0.171): files above the project take their bytes first, so the
sap-devs block must fit in what they leave.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from sap_devs.core.fs import read_regular
from sap_devs.integrations.clients import codex_dir

DEFAULT_LIMIT = 32 * 1024
OVERRIDE = "AGENTS.override.md"
AGENTS = "AGENTS.md"


@dataclass(frozen=True)
class Settings:
    limit: int
    fallbacks: tuple[str, ...]


MAX_CONFIG_BYTES = 1024 * 1024  # a project's .codex/config.toml comes with the repository: bound what is parsed


def _read_config(path: Path) -> dict | None:
    """A Codex config.toml, or None when it is missing, unreadable, too large or not TOML (Codex's defaults)."""
    try:
        raw = read_regular(path, MAX_CONFIG_BYTES)
        return tomllib.loads(raw.decode("utf-8")) if len(raw) <= MAX_CONFIG_BYTES else None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def _down_to(top: Path, folder: Path) -> list[Path]:
    """The folders from ``top`` down to ``folder``'s parent (empty when ``folder`` is ``top``)."""
    return [p for p in reversed(folder.parents) if p == top or top in p.parents]


def _trusted_from(user: dict, folder: Path) -> Path | None:
    """The folder whose entry in the user's ``[projects]`` decides trust for ``folder`` (the nearest one
    listed, the folder itself first), when that entry says trusted."""
    projects = user.get("projects")
    if not isinstance(projects, dict):
        return None
    for candidate in (folder, *folder.parents):
        entry = projects.get(candidate.as_posix())
        if isinstance(entry, dict):
            return candidate if entry.get("trust_level") == "trusted" else None
    return None


def settings(home: Path, folder: Path | None = None) -> Settings:
    """``project_doc_max_bytes`` and ``project_doc_fallback_filenames`` as Codex started in ``folder`` uses
    them: the user's config, then, in a trusted project, each ``.codex/config.toml`` from the trusted
    folder down to ``folder`` (Codex 0.171 ignores a project's config until the project is trusted; the
    nearest folder listed under ``[projects]`` decides). Defaults where nothing readable says otherwise."""
    user = _read_config(codex_dir(home) / "config.toml") or {}
    layers = [user]
    if folder is not None:
        folder = folder.absolute()
        trusted = _trusted_from(user, folder)
        if trusted is not None:
            for directory in [*_down_to(trusted, folder), folder]:
                layers.append(_read_config(directory / ".codex" / "config.toml") or {})
    limit, fallbacks = DEFAULT_LIMIT, ()
    for data in layers:
        value = data.get("project_doc_max_bytes")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            limit = value
        names = data.get("project_doc_fallback_filenames")
        if isinstance(names, list):
            fallbacks = tuple(n for n in names if isinstance(n, str) and n)
    return Settings(limit, fallbacks)


def project_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def read_in(folder: Path, fallbacks: tuple[str, ...]) -> Path | None:
    """The file Codex reads in ``folder``: the first that exists of its candidate names."""
    for name in (OVERRIDE, AGENTS, *fallbacks):
        path = folder / name
        if path.is_file():
            return path
    return None


@dataclass(frozen=True)
class Chain:
    limit: int
    before: list[tuple[Path, int]]  # files Codex reads ahead of ours, with their size in bytes
    hidden_by: Path | None  # a file in our folder that Codex reads instead of ours

    @property
    def bytes_before(self) -> int:
        return sum(size for _, size in self.before)


def chain(path: Path, home: Path) -> Chain:
    """What Codex reads along with the project file ``path`` when started in its folder."""
    folder = path.absolute().parent
    config = settings(home, folder)
    root = project_root(folder)
    above = [] if root is None else _down_to(root, folder)
    before = []
    for directory in above:
        found = read_in(directory, config.fallbacks)
        if found is not None:
            before.append((found, _size(found)))
    here = read_in(folder, config.fallbacks)
    hidden_by = here if here is not None and here.name != path.name else None
    return Chain(config.limit, [(p, s) for p, s in before if s], hidden_by)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def describe_before(found: Chain) -> str:
    """``19,019 bytes of /repo/AGENTS.md that Codex reads first`` (empty when there are none)."""
    if not found.before:
        return ""
    files = ", ".join(str(p) for p, _ in found.before)
    return f"{found.bytes_before:,} bytes of {files} that Codex reads first"


def global_hidden_by(home: Path) -> Path | None:
    """~/.codex/AGENTS.override.md, which Codex reads instead of ~/.codex/AGENTS.md when it holds text."""
    override = codex_dir(home) / OVERRIDE
    try:
        return override if override.read_text(encoding="utf-8").strip() else None
    except (OSError, UnicodeDecodeError):
        return None
