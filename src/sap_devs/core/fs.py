"""File writes that never leave a half-written file behind."""

from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; new files get the usual umask-based ones, not mkstemp's 0600."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
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
