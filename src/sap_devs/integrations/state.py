"""What sap-devs wrote into the clients' files, kept in its own state folder (never next to those files).

For every file ``mcp install`` or ``inject`` changes we keep

- a backup of the previous content, under ``<state>/backups/`` (the last few per file, private mode),
  so a project folder never collects ``*.bak`` files that ``git add -A`` would commit;
- a record: the file's content before sap-devs first touched it (or that it did not exist), the
  content sap-devs last wrote, the folders it had to create and the containers it added. When the file
  still reads exactly as sap-devs left it, uninstall can give back the original byte for byte (or
  delete the file and the folders sap-devs created), instead of editing it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import atomic_write_text, check_own_file

KEEP_BACKUPS = 5


def state_dir() -> Path:
    """``SAP_DEVS_STATE_DIR``; under a redirected home (``SAP_DEVS_HOME``, tests) its ``.local/state``;
    else the platform's per-user state folder."""
    override = os.environ.get("SAP_DEVS_STATE_DIR")
    if override:
        return Path(override).expanduser()
    home = os.environ.get("SAP_DEVS_HOME")
    if home:
        return Path(home).expanduser() / ".local" / "state" / "sap-devs"
    import platformdirs

    return Path(platformdirs.user_state_dir("sap-devs", appauthor=False))


def _key(path: Path) -> str:
    return hashlib.sha256(str(path.absolute()).encode("utf-8")).hexdigest()[:32]


def _private_dir(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


@dataclass
class Record:
    path: str
    before: str | None  # the content before sap-devs first changed the file; None: sap-devs created it
    after: str  # what sap-devs last wrote
    dirs: list[str] = field(default_factory=list)  # folders sap-devs created for it, deepest first
    containers: list[list[str]] = field(default_factory=list)  # keys sap-devs added to hold its entries


def _record_path(path: Path) -> Path:
    return state_dir() / "files" / f"{_key(path)}.json"


def load(path: Path) -> Record | None:
    try:
        raw = json.loads(_record_path(path).read_text(encoding="utf-8"))
        record = Record(**raw)
    except (OSError, ValueError, TypeError):
        return None  # no record, or one we cannot read: fall back to editing the file
    return record if record.path == str(path.absolute()) else None


def current(path: Path, text: str | None) -> Record | None:
    """The record, if the file still holds exactly what sap-devs last wrote."""
    record = load(path)
    return record if record is not None and text is not None and record.after == text else None


def save(record: Record) -> None:
    target = _record_path(Path(record.path))
    _private_dir(target.parent)
    try:
        atomic_write_text(target, json.dumps(record.__dict__, ensure_ascii=False, indent=1))
        os.chmod(target, 0o600)  # the files may hold secrets (env of a server entry)
    except OSError as exc:
        raise SapDevsError(f"Cannot write sap-devs' record {target}: {exc.strerror or exc}.") from None


def forget(path: Path) -> None:
    _record_path(path).unlink(missing_ok=True)


def _dirs_file() -> Path:
    return state_dir() / "created-dirs.json"


def created_dirs() -> set[str]:
    """Every folder sap-devs created for a file it wrote (and has not removed since)."""
    try:
        data = json.loads(_dirs_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {d for d in data if isinstance(d, str)} if isinstance(data, list) else set()


def _save_dirs(dirs: set[str]) -> None:
    _private_dir(state_dir())
    try:
        atomic_write_text(_dirs_file(), json.dumps(sorted(dirs), ensure_ascii=False, indent=1))
    except OSError as exc:
        raise SapDevsError(f"Cannot write sap-devs' record {_dirs_file()}: {exc.strerror or exc}.") from None


def missing_dirs(path: Path) -> list[Path]:
    """The folders a write to ``path`` would create, deepest first."""
    missing: list[Path] = []
    parent = path.absolute().parent
    while not parent.exists() and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    return missing


def backup(path: Path, old: str) -> Path:
    """Keep ``old`` in the state folder (mode 0600); only the newest ``KEEP_BACKUPS`` per file stay."""
    folder = state_dir() / "backups" / _key(path)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"{time.time_ns() % 1_000_000_000:09d}"
    target = folder / f"{stamp}-{path.name}"
    try:
        _private_dir(folder)
        (folder / "PATH").write_text(str(path.absolute()) + "\n", encoding="utf-8")
        atomic_write_text(target, old)
        os.chmod(target, 0o600)
        for stale in sorted(p for p in folder.iterdir() if p.name != "PATH")[:-KEEP_BACKUPS]:
            stale.unlink(missing_ok=True)
    except OSError as exc:
        raise SapDevsError(f"Cannot write the backup {target}: {exc.strerror or exc}.") from None
    return target


def write(
    path: Path, old: str | None, new: str, containers: list[list[str]] | None = None, *, root: Path | None
) -> Path | None:
    """Atomically replace ``path`` with ``new``: back up ``old`` and update the record. ``root``: the
    project for a project file (see ``check_own_file``: no write goes through a link)."""
    check_own_file(path, root)
    created = missing_dirs(path)
    saved = backup(path, old) if old is not None else None
    try:
        atomic_write_text(path, new)
    except OSError as exc:
        raise SapDevsError(f"Cannot write {path}: {exc.strerror or exc}.") from None
    previous = current(path, old) if old is not None else None
    if previous is not None:  # sap-devs' own earlier write, unchanged since: the original stays the same
        previous.after = new
        for container in containers or []:
            if container not in previous.containers:
                previous.containers.append(container)
        save(previous)
    else:
        save(Record(str(path.absolute()), old, new, [str(d) for d in created], list(containers or [])))
    if created:
        _save_dirs(created_dirs() | {str(d) for d in created})
    return saved


def delete(path: Path, old: str, record: Record | None, *, root: Path | None) -> Path:
    """Delete a file sap-devs created (backup first), and the folders it created for it if empty."""
    check_own_file(path, root)
    saved = backup(path, old)
    try:
        path.unlink()
    except OSError as exc:
        raise SapDevsError(f"Cannot delete {path}: {exc.strerror or exc}.") from None
    ours = created_dirs() | set(record.dirs if record else [])
    folder = path.absolute().parent
    removed: set[str] = set()
    while str(folder) in ours:  # sap-devs' folders, from the file up, while empty
        try:
            folder.rmdir()  # only when empty: the user may have put files there since
        except OSError:
            break
        removed.add(str(folder))
        folder = folder.parent
    if removed:
        _save_dirs(created_dirs() - removed)
    forget(path)
    return saved


def restore(path: Path, old: str, record: Record, *, root: Path | None) -> Path | None:
    """Give back the content from before sap-devs' first change (or delete the file it created)."""
    if record.before is None:
        return delete(path, old, record, root=root)
    check_own_file(path, root)
    saved = backup(path, old)
    try:
        atomic_write_text(path, record.before)
    except OSError as exc:
        raise SapDevsError(f"Cannot write {path}: {exc.strerror or exc}.") from None
    forget(path)
    return saved
