"""Where a live-data answer came from (fresh cache, stale cache, or the bundled baseline) and what to say about it."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from sap_devs.core import cache, paths

T = TypeVar("T")
Origin = Literal["cache", "baseline"]
DATA_DIR = paths.bundled_root() / "live" / "data"


@dataclass(frozen=True)
class Snapshot(Generic[T]):
    items: list[T]
    origin: Origin
    as_of: str  # a date for baselines, an age such as "3 h" for caches
    stale: bool = False

    def hint(self, what: str) -> str | None:
        if self.origin == "baseline":
            return (
                f"Answered from the {what} snapshot bundled with sap-devs (data as of {self.as_of}); "
                "run `sap-devs sync` for current data."
            )
        if self.stale:
            return f"The cached {what} is {self.as_of} old; run `sap-devs sync` to refresh it."
        return None


M = TypeVar("M", bound=BaseModel)


def parse_records(model: type[M], records: Any, what: str) -> list[M]:
    """Valid records as models; one bad record must not hide the rest (a non-list is a ValueError)."""
    if not isinstance(records, list):
        raise ValueError(f"{what} is not a list")
    out = []
    for record in records:
        try:
            out.append(model.model_validate(record))
        except ValidationError:
            continue
    return out


@lru_cache(maxsize=8)
def bundled_json(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


_parsed: dict[str, tuple[cache.Cached, Any]] = {}


def from_cache(cache_name: str, ttl: dt.timedelta, parse: Any) -> Snapshot[Any] | None:
    """The synced data parsed once per file version, or None when nothing usable is cached."""
    cached = cache.read(cache_name)
    if cached is None:
        return None
    memo = _parsed.get(cache_name)
    if memo is not None and memo[0] is cached:
        items = memo[1]
    else:
        try:
            items = parse(cached.data)
        except (TypeError, ValueError, KeyError):
            items = None
        _parsed[cache_name] = (cached, items)
    if not items:
        return None
    return Snapshot(items, "cache", cached.age_text(), stale=not cached.fresh(ttl))


def from_cache_or_baseline(
    cache_name: str,
    ttl: dt.timedelta,
    parse: Any,
    baseline: Any,
) -> Snapshot[Any]:
    """``parse(data)`` turns cached JSON into items; ``baseline()`` returns (items, as_of) when no cache is usable."""
    synced = from_cache(cache_name, ttl, parse)
    if synced is not None:
        return synced
    items, as_of = baseline()
    return Snapshot(items, "baseline", as_of)
