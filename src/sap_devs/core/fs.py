"""File writes that never leave a half-written file behind."""

from __future__ import annotations

import logging
import os
import stat
import time
import uuid
from pathlib import Path

from sap_devs.core.errors import SapDevsError

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


def read_regular(path: Path, limit: int, *, follow_links: bool = True) -> bytes:
    """At most ``limit`` + 1 bytes of ``path`` (more tells the caller it is too large), or OSError when it
    is not a regular file. Opened without blocking, so a FIFO (or a device) that a cloned repository
    ships under a config file's name is an error instead of a hang; without ``follow_links`` a
    symbolic link is an error too (a file swapped for a link after its folder was listed)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file")
        chunks: list[bytes] = []
        left = max(limit, 0) + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_own_file(path: Path, root: Path | None) -> None:
    """Refuse to read or rewrite ``path`` unless it is a regular file (or absent) reached without a link.

    ``root`` is the project for a project file: ``path`` must lie inside it, and neither the file nor
    a folder between the project and the file may be a symbolic link (a cloned repository can ship
    ``CLAUDE.md`` -> ``~/.ssh/id_ed25519``, or ``.vscode`` -> the user's own VS Code folder). ``None``
    is a user file in the client's own folder: the file itself must not be a link. Reading through
    such a link would copy its target into the file the model reads; writing would replace the link
    or write into someone else's folder. SapDevsError names the link, in one line.
    """
    path = Path(os.path.abspath(path))
    if root is not None:
        base = Path(os.path.abspath(root))
        try:
            rel = path.relative_to(base)
        except ValueError:
            raise SapDevsError(
                f"{path} is outside the project {base}; sap-devs writes project files inside it only."
            ) from None
        current = base
        for part in rel.parts:
            current = current / part
            if os.path.islink(current):
                raise _through_link(current, path)
    elif os.path.islink(path):
        raise _through_link(path, path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise SapDevsError(f"Cannot read {path}: {exc.strerror or exc}.") from None
    if stat.S_ISDIR(mode):
        raise SapDevsError(f"{path} is a folder, expected a file.", hint="Move it away and try again.")
    if not stat.S_ISREG(mode):
        raise SapDevsError(
            f"{path} is not a regular file (a FIFO, socket or device); sap-devs neither reads nor replaces it.",
            hint="Remove it and run the command again.",
        )


def _through_link(link: Path, path: Path) -> SapDevsError:
    try:
        target = os.readlink(link)
    except OSError:
        target = "?"
    what = "it" if link == path else str(path)
    return SapDevsError(
        f"{link} is a symbolic link (to {target}); sap-devs neither reads nor writes {what} through a link.",
        hint="Replace the link with a regular file or folder of its own (or remove it), then run the command again.",
    )
