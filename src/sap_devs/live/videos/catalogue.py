"""SAP developer videos from the packs' YouTube sources: synced cache, else the bundled news episodes."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from sap_devs.live.snapshot import Snapshot, bundled_json, from_cache_or_baseline, parse_records
from sap_devs.search import Field, rank

CACHE_NAME = "videos/index"
TTL = dt.timedelta(hours=6)
NEWS_SOURCE = "sap-dev-news"


class Video(BaseModel):
    id: str
    source: str
    title: str
    url: str
    published: str
    description: str = ""
    tags: list[str] = []


def parse(records: Any) -> list[Video]:
    return sorted(parse_records(Video, records, "video index"), key=lambda v: v.published, reverse=True)


@lru_cache(maxsize=1)
def _baseline() -> tuple[list[Video], str]:
    data = bundled_json("news-baseline.json")
    videos = [
        {
            "id": e["id"],
            "source": NEWS_SOURCE,
            "title": e["title"],
            "url": e["url"],
            "published": e["published"],
            "description": e.get("description", ""),
            "tags": ["news", "weekly"],
        }
        for e in data["episodes"]
    ]
    return parse(videos), data["data_as_of"]


def bundled() -> tuple[int, str]:
    """Items and date of the snapshot bundled with sap-devs (what is served before the first sync)."""
    items, as_of = _baseline()
    return len(items), as_of


def load() -> Snapshot[Video]:
    return from_cache_or_baseline(CACHE_NAME, TTL, parse, _baseline)


def search(videos: list[Video], query: str | None, *, source: str | None = None) -> list[Video]:
    allow = (lambda v: v.source == source) if source else None
    if not query:
        return [v for v in videos if allow is None or allow(v)]
    return rank(
        query,
        videos,
        [Field("title", 3.0), Field("tags", 2.0), Field("description", 1.0)],
        lambda v: {"title": v.title, "tags": " ".join(v.tags), "description": v.description},
        allow=allow,
    )
