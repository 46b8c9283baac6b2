"""The developers.sap.com tutorial index: synced cache first, bundled snapshot otherwise."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from sap_devs.knowledge.snapshot import Snapshot, bundled_json, from_cache_or_baseline, parse_records
from sap_devs.search import Field, rank

CACHE_NAME = "tutorials/index"
TTL = dt.timedelta(days=7)
LEVELS = ("beginner", "intermediate", "advanced")


class Tutorial(BaseModel):
    slug: str
    title: str
    description: str | None = None
    tags: list[str] = []
    primary_tag: str | None = None
    level: str | None = None
    time_minutes: int | None = None
    steps: int | None = None
    url: str
    repo: str | None = None
    live: bool = True
    metadata: bool = True

    def tag_words(self) -> str:
        # "software-product-function>sap-cloud-application-programming-model" -> the readable parts
        return " ".join(t.split(">", 1)[-1].replace("-", " ") for t in self.tags)


def _parse(records: Any) -> list[Tutorial]:
    if isinstance(records, dict):  # a synced index: {"repos": ..., "tutorials": [...]}
        records = records.get("tutorials")
    return parse_records(Tutorial, records, "tutorial index")


@lru_cache(maxsize=1)
def _baseline() -> tuple[list[Tutorial], str]:
    data = bundled_json("tutorials-baseline.json")
    return _parse(data["tutorials"]), data["data_as_of"]


def load_index() -> Snapshot[Tutorial]:
    return from_cache_or_baseline(CACHE_NAME, TTL, _parse, _baseline)


def search(
    index: list[Tutorial], query: str, *, level: str | None = None, include_drafts: bool = False
) -> list[Tutorial]:
    return rank(
        query,
        index,
        [Field("title", 3.0), Field("slug", 2.0), Field("tags", 1.5), Field("description", 1.0)],
        lambda t: {
            "title": t.title,
            "slug": t.slug.replace("-", " "),
            "tags": t.tag_words(),
            "description": t.description or "",
        },
        allow=lambda t: (level is None or t.level == level) and (t.live or include_drafts),
        id_of=lambda t: t.slug,
    )
