"""The AGENTS.md files Codex reads together with the one ``inject`` writes, and their shared limit.

Codex joins one instruction file per folder, from the project root (the nearest folder holding
``.git``; without one, only the folder it starts in) down to the folder it starts in, and stops
once they add up to ``project_doc_max_bytes`` (32 KiB unless ~/.codex/config.toml says otherwise).
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

from sap_devs.integrations.clients import codex_dir

DEFAULT_LIMIT = 32 * 1024
OVERRIDE = "AGENTS.override.md"
AGENTS = "AGENTS.md"


@dataclass(frozen=True)
class Settings:
    limit: int
    fallbacks: tuple[str, ...]


def codex_home(home: Path) -> Path:
    return codex_dir(home)


def settings(home: Path) -> Settings:
    """``project_doc_max_bytes`` and ``project_doc_fallback_filenames`` from the user's Codex config;
    the defaults when it is missing or unreadable (Codex then uses its defaults too)."""
    try:
        data = tomllib.loads((codex_home(home) / "config.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return Settings(DEFAULT_LIMIT, ())
    limit = data.get("project_doc_max_bytes")
    names = data.get("project_doc_fallback_filenames")
    fallbacks = tuple(n for n in names if isinstance(n, str) and n) if isinstance(names, list) else ()
    valid = isinstance(limit, int) and not isinstance(limit, bool) and limit > 0
    return Settings(limit if valid else DEFAULT_LIMIT, fallbacks)  # type: ignore[arg-type]


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
    config = settings(home)
    folder = path.absolute().parent
    root = project_root(folder)
    # from the root down to our folder's parent
    above = [] if root is None else [p for p in reversed(folder.parents) if p == root or root in p.parents]
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
    override = codex_home(home) / OVERRIDE
    try:
        return override if override.read_text(encoding="utf-8").strip() else None
    except (OSError, UnicodeDecodeError):
        return None
