"""Which project and company pack folders the user trusts to define commands and servers.

A cloned repository's ``.sap-devs/`` folder is someone else's input. Its packs give content only
(context, rules, known errors, links) until the user runs ``sap-devs trust``, which records a digest
of the folder as it is now: any later change to a file needs trust again. Trusted folders may then
define tool checks (``tools.yaml``, whose commands run) and MCP servers (``mcp.yaml``, whose
commands an AI client runs).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from sap_devs.core import paths
from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import atomic_write_text

log = logging.getLogger(__name__)

EXECUTABLE_FILES = ("tools.yaml", "mcp.yaml")
"""Pack files whose content ends up being run: ignored in untrusted layers."""
MAX_FILES = 5_000
MAX_BYTES = 64 * 1024 * 1024
STORE_NAME = "trusted-packs.json"


@dataclass(frozen=True)
class TrustEntry:
    folder: str
    digest: str
    files: int


def store_path() -> Path:
    return paths.config_dir() / STORE_NAME


def digest(folder: Path) -> tuple[str, int]:
    """SHA-256 over every file's relative path and bytes (symlinks by their target, never followed).

    Raises SapDevsError for a folder too large to be a pack folder, rather than reading without end.
    """
    h = hashlib.sha256()
    count = size = 0
    stack = [folder]
    entries: list[tuple[str, Path, bool]] = []
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as it:
                children = list(it)
        except OSError as exc:
            raise SapDevsError(f"Cannot read {current}: {exc.strerror}.") from None
        for entry in children:
            rel = Path(entry.path).relative_to(folder).as_posix()
            if entry.is_symlink():
                entries.append((rel, Path(entry.path), True))
            elif entry.is_dir(follow_symlinks=False):
                stack.append(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                entries.append((rel, Path(entry.path), False))
            count += 1
            if count > MAX_FILES:
                raise SapDevsError(
                    f"{folder} holds more than {MAX_FILES:,} entries; that is not a pack folder.",
                    hint="Point sap-devs trust at the project folder that contains .sap-devs/.",
                )
    for rel, path, is_link in sorted(entries):
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        try:
            data = os.readlink(path).encode("utf-8", "surrogateescape") if is_link else path.read_bytes()
        except OSError as exc:
            raise SapDevsError(f"Cannot read {path}: {exc.strerror}.") from None
        size += len(data)
        if size > MAX_BYTES:
            raise SapDevsError(f"{folder} holds more than {MAX_BYTES // (1024 * 1024)} MB; that is not a pack folder.")
        h.update(b"L" if is_link else b"F")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest(), len(entries)


def _load() -> dict[str, dict[str, object]]:
    path = store_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        # an unreadable store trusts nothing: the safe reading, and the user can trust again
        log.warning("%s cannot be read (%s); no project packs are trusted", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, dict[str, object]]) -> None:
    atomic_write_text(store_path(), json.dumps(data, indent=1, sort_keys=True) + "\n")


def _key(folder: Path) -> str:
    return str(folder.resolve())


def is_trusted(folder: Path) -> bool:
    """True when ``folder`` was trusted and no file in it changed since."""
    entry = _load().get(_key(folder))
    if not isinstance(entry, dict):
        return False
    try:
        current, _ = digest(folder)
    except SapDevsError as exc:
        log.warning("%s", exc)
        return False
    return entry.get("digest") == current


def pack_folder(path: Path) -> Path:
    """The folder to trust for ``path``: a project's ``.sap-devs`` folder, or a pack layer folder itself."""
    path = path.expanduser()
    if not path.is_dir():
        raise SapDevsError(f"{path} is not a folder.", hint="Give the project folder that contains .sap-devs/.")
    if (path / ".sap-devs").is_dir():
        return (path / ".sap-devs").resolve()
    if (path / "packs").is_dir() or (path / "profiles").is_dir():
        return path.resolve()
    raise SapDevsError(
        f"{path} has no .sap-devs/ folder and no packs/ folder, so there is nothing to trust.",
        hint="Run sap-devs trust in (or with the path of) a project that has .sap-devs/packs/.",
    )


def trust(folder: Path) -> TrustEntry:
    value, files = digest(folder)
    data = _load()
    data[_key(folder)] = {"digest": value, "files": files}
    _save(data)
    return TrustEntry(_key(folder), value, files)


def revoke(folder: Path) -> bool:
    data = _load()
    removed = data.pop(_key(folder), None) is not None
    if removed:
        _save(data)
    return removed


def entries() -> list[tuple[TrustEntry, str]]:
    """Every trusted folder with its state now: ``trusted``, ``changed`` or ``missing``."""
    out = []
    for folder, entry in sorted(_load().items()):
        if not isinstance(entry, dict):
            continue
        item = TrustEntry(folder, str(entry.get("digest", "")), int(entry.get("files", 0) or 0))
        path = Path(folder)
        if not path.is_dir():
            state = "missing"
        else:
            try:
                state = "trusted" if digest(path)[0] == item.digest else "changed"
            except SapDevsError:
                state = "changed"
        out.append((item, state))
    return out
