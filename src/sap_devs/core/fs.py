"""File writes that never leave a half-written file behind."""

from __future__ import annotations

import logging
import os
import time
import uuid
from pathlib import Path

log = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"


def _existing_mode(path: Path) -> int | None:
    """An existing file's permissions, which a rewrite keeps."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _existing_mode(path)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}{TEMP_SUFFIX}")
    # open(..., "x"), not mkstemp (0600): the kernel gives a new file the umask's permissions. Reading
    # the umask means setting it for every thread of the process, and other threads' files (or two
    # writes at once, leaving it at 0) would get world-writable permissions meanwhile.
    try:
        with open(tmp, "x", encoding=encoding, newline="") as fh:
            if mode is not None:
                os.chmod(tmp, mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def remove_stale_temp_files(folder: Path, *, older_than: float = 600.0) -> int:
    """Delete the temporary files of writes that never finished (a process killed mid-write) under
    ``folder``; returns how many. Only files older than ``older_than`` seconds are touched, so a
    write still running in another process keeps its file."""
    cutoff = time.time() - older_than
    removed = 0
    for dirpath, _dirnames, filenames in os.walk(folder):
        for name in filenames:
            if not (name.startswith(".") and name.endswith(TEMP_SUFFIX)):
                continue
            path = Path(dirpath) / name
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
            except OSError:  # gone already, or not ours to delete: neither should stop the caller
                continue
    if removed:
        log.info("removed %d unfinished temporary file(s) under %s", removed, folder)
    return removed
