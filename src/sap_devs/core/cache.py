"""One JSON cache for every synced source, under the platform cache folder.

Writes are atomic (temp file + rename), so a crash or a kill mid-write leaves the previous file
intact. Reads never crash: a missing file is simply absent, a corrupt one is reported on stderr
and treated as absent. Readers notice a newer file (written by ``sap-devs sync`` in another
process) by its modification time, so a running server picks it up without a restart.
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
from sap_devs.core.fs import atomic_write_text

log = logging.getLogger(__name__)

FORMAT = 1
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")


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
    stamp = (fetched_at or dt.datetime.now(dt.UTC)).isoformat()
    payload = {"format": FORMAT, "name": name, "fetched_at": stamp, "data": data}
    atomic_write_text(path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
    _memo.pop(path, None)
    return path


_memo: dict[Path, tuple[tuple[int, int], Cached | None]] = {}


def read(name: str, *, root: Path | None = None) -> Cached | None:
    """The cached value, or None when absent or unusable (reported once per file version)."""
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
        return memo[1]
    value = _load(name, path)
    _memo[path] = (stamp, value)
    return value


def _load(name: str, path: Path) -> Cached | None:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(payload, dict) or payload.get("format") != FORMAT or "data" not in payload:
            raise ValueError("not a sap-devs cache file of this version")
        fetched_at = dt.datetime.fromisoformat(payload["fetched_at"])
        if fetched_at.tzinfo is None:
            fetched_at = fetched_at.replace(tzinfo=dt.UTC)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        log.warning("cache %s is corrupt (%s); ignoring it until the next sync", path, exc)
        return None
    return Cached(name=name, data=payload["data"], fetched_at=fetched_at, path=path)
