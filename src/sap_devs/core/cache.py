"""One JSON cache for every synced source, under the platform cache folder.

Writes are atomic (temp file + rename), so a crash or a kill mid-write leaves the previous file
intact, and the temporary files such a kill leaves behind are removed by the next process that
writes. Reads never raise: a missing file is simply absent; a corrupt, too deeply nested or
wrongly shaped one is reported on stderr and treated as absent. A failed write (disk full,
read-only folder) raises CacheWriteError for ``sync`` to report; answers use ``save``, which turns
the failure into a note, because an answer fetched fine must not fail for want of a cache.
Readers notice a newer file (written by ``sap-devs sync`` in another process) by its modification
time, so a running server picks it up without a restart.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sap_devs.core import paths
from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import atomic_write_text, remove_stale_temp_files

log = logging.getLogger(__name__)

FORMAT = 1
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")
STALE_TEMP_AGE = 600.0  # seconds; no real write takes this long, so an older temp file is an orphan


class CacheWriteError(SapDevsError):
    """The cache folder could not be written; what was fetched is still good."""


@dataclass(frozen=True)
class Cached:
    name: str
    data: Any
    fetched_at: dt.datetime
    path: Path

    @property
    def age(self) -> dt.timedelta:
        return dt.datetime.now(dt.UTC) - self.fetched_at

    def fresh(self, ttl: dt.timedelta) -> bool:
        return self.age <= ttl

    def age_text(self) -> str:
        seconds = max(0, int(self.age.total_seconds()))
        if seconds < 3600:
            return f"{seconds // 60} min"
        if seconds < 172800:
            return f"{seconds // 3600} h"
        return f"{seconds // 86400} days"


def cache_file(name: str, root: Path | None = None) -> Path:
    if not _NAME.match(name):
        raise ValueError(f"invalid cache name {name!r}")
    return (root or paths.cache_dir()) / f"{name}.json"


def write(name: str, data: Any, *, root: Path | None = None, fetched_at: dt.datetime | None = None) -> Path:
    path = cache_file(name, root)
    _sweep_once(root or paths.cache_dir())
    stamp = (fetched_at or dt.datetime.now(dt.UTC)).isoformat()
    payload = {"format": FORMAT, "name": name, "fetched_at": stamp, "data": data}
    try:
        atomic_write_text(path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
    except OSError as exc:
        raise CacheWriteError(
            f"could not write the cache file {path} ({exc.strerror or exc})",
            hint="Free disk space or make the cache folder writable (SAP_DEVS_CACHE_DIR chooses another one).",
        ) from None
    _memo.pop(path, None)
    return path


def save(name: str, data: Any, *, root: Path | None = None) -> str | None:
    """``write`` for an answer already in hand: None when saved, else a note for the answer saying
    the copy was not kept (also logged), so the fetched answer is returned all the same."""
    try:
        write(name, data, root=root)
    except CacheWriteError as exc:
        log.warning("%s; the answer is not cached", exc)
        return f"The answer could not be cached ({exc}); it will be fetched again next time."
    return None


_swept: set[Path] = set()


def _sweep_once(root: Path) -> None:
    """Remove temp files orphaned by a killed writer, once per process and cache folder: the first
    write already pays for a network fetch, so the walk costs nothing noticeable there."""
    if root in _swept:
        return
    _swept.add(root)
    if root.is_dir():
        remove_stale_temp_files(root, older_than=STALE_TEMP_AGE)


_memo: dict[Path, tuple[tuple[int, int], Cached | None]] = {}


def read(name: str, *, root: Path | None = None, expect: type | tuple[type, ...] | None = None) -> Cached | None:
    """The cached value, or None when absent or unusable (reported once per file version);
    with ``expect``, data of another type counts as unusable too."""
    path = cache_file(name, root)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("cache %s cannot be read (%s); ignoring it", path, exc.strerror)
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    memo = _memo.get(path)
    if memo and memo[0] == stamp:
        value = memo[1]
    else:
        value = _load(name, path)
        _memo[path] = (stamp, value)
    if value is not None and expect is not None and not isinstance(value.data, expect):
        if (path, stamp) not in _misshapen:  # reported once per file version, like a corrupt file
            _misshapen.add((path, stamp))
            log.warning("cache %s holds %s, not the expected shape; ignoring it", path, type(value.data).__name__)
        return None
    return value


_misshapen: set[tuple[Path, tuple[int, int]]] = set()


def _load(name: str, path: Path) -> Cached | None:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(payload, dict) or payload.get("format") != FORMAT or "data" not in payload:
            raise ValueError("not a sap-devs cache file of this version")
        if not isinstance(payload.get("fetched_at"), str):
            raise ValueError("no fetched_at time")
        fetched_at = dt.datetime.fromisoformat(payload["fetched_at"])
        if fetched_at.tzinfo is None:
            fetched_at = fetched_at.replace(tzinfo=dt.UTC)
    except RecursionError:
        log.warning("cache %s is nested too deeply to read; ignoring it until the next sync", path)
        return None
    except Exception as exc:  # any unreadable file (bad bytes, bad JSON, wrong envelope) counts as missing
        log.warning("cache %s is corrupt (%s); ignoring it until the next sync", path, _short(exc))
        return None
    return Cached(name=name, data=payload["data"], fetched_at=fetched_at, path=path)


def _short(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "..."
