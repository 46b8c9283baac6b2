"""SAP Developer News episodes (weekly show on the SAP Developers YouTube channel) with their community posts."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from sap_devs.live.snapshot import Snapshot, bundled_json, from_cache_or_baseline, parse_records

CACHE_NAME = "news/episodes"
TTL = dt.timedelta(hours=2)


class Episode(BaseModel):
    id: str
    title: str
    url: str
    published: str  # RFC 3339
    description: str = ""
    community_url: str | None = None
    community_title: str | None = None


def parse(records: Any) -> list[Episode]:
    return sorted(parse_records(Episode, records, "news cache"), key=lambda e: e.published, reverse=True)


@lru_cache(maxsize=1)
def _baseline() -> tuple[list[Episode], str]:
    data = bundled_json("news-baseline.json")
    return parse(data["episodes"]), data["data_as_of"]


def bundled() -> tuple[int, str]:
    """Items and date of the snapshot bundled with sap-devs (what is served before the first sync)."""
    items, as_of = _baseline()
    return len(items), as_of


def load() -> Snapshot[Episode]:
    return from_cache_or_baseline(CACHE_NAME, TTL, parse, _baseline)
