"""Discovery Center missions: guided, hands-on BTP projects, synced into the cache."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel

from sap_devs.live.snapshot import Snapshot, from_cache, parse_records
from sap_devs.search import Field, rank

CACHE_NAME = "discovery/missions"
TTL = dt.timedelta(days=7)


class Mission(BaseModel):
    id: str
    name: str
    description: str = ""
    effort: Any = None
    category: Any = None
    url: str


def parse(records: Any) -> list[Mission]:
    return parse_records(Mission, records, "mission catalogue")


def load() -> Snapshot[Mission] | None:
    """The synced catalogue, or None before the first sync (nothing is bundled for it)."""
    return from_cache(CACHE_NAME, TTL, parse)


def search(missions: list[Mission], query: str) -> list[Mission]:
    return rank(
        query,
        missions,
        [Field("name", 3.0), Field("category", 1.5), Field("description", 1.0)],
        lambda m: {"name": m.name, "category": str(m.category or ""), "description": m.description},
    )
