"""learning.sap.com learning journeys: the public catalogue, synced into the cache."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel

from sap_devs.live.snapshot import Snapshot, from_cache, parse_records
from sap_devs.search import Field, rank

CACHE_NAME = "learning/index"
TTL = dt.timedelta(days=7)


class Journey(BaseModel):
    slug: str
    title: str
    description: str = ""
    level: str | None = None
    duration_hours: float | None = None
    roles: list[str] = []
    products: list[str] = []
    url: str


def parse(records: Any) -> list[Journey]:
    return parse_records(Journey, records, "learning index")


def load() -> Snapshot[Journey] | None:
    """The synced catalogue, or None before the first sync (nothing is bundled for it)."""
    return from_cache(CACHE_NAME, TTL, parse)


def search(journeys: list[Journey], query: str, *, level: str | None = None) -> list[Journey]:
    return rank(
        query,
        journeys,
        [Field("title", 3.0), Field("products", 2.0), Field("roles", 1.0), Field("description", 1.0)],
        lambda j: {
            "title": j.title,
            "products": " ".join(j.products),
            "roles": " ".join(j.roles),
            "description": j.description,
        },
        allow=(lambda j: (j.level or "").lower() == level) if level else None,
    )
