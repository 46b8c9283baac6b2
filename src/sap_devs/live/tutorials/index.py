"""The developers.sap.com tutorial index: synced cache first, bundled snapshot otherwise.

Whether a tutorial is shown depends on its ``status``:

- ``published``: in the platform's list of published tutorials (tutorials-ims discovery list);
- ``new``: not in that list, but its source was read after the list was written and it has full
  metadata (title, description, level): published since, and shown;
- ``withdrawn``: not in the list although the list is newer than our copy of its source, so the
  platform dropped it; hidden;
- ``draft``: not in the list and without full metadata; hidden.

``include_drafts`` shows the hidden ones too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel

from sap_devs.live.snapshot import Snapshot, bundled_json, from_cache_or_baseline, parse_records
from sap_devs.search import Field, rank

CACHE_NAME = "tutorials/index"
TTL = dt.timedelta(days=7)
LEVELS = ("beginner", "intermediate", "advanced")

Status = Literal["published", "new", "withdrawn", "draft"]
LIVE_STATUSES: frozenset[str] = frozenset({"published", "new"})


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
    status: Status | None = None  # None in indexes written before statuses existed; `live` decides then
    metadata: bool = True

    def model_post_init(self, context: Any, /) -> None:
        if self.status is not None:  # the status decides; `live` stays for older readers of the file
            self.live = self.status in LIVE_STATUSES

    def tag_words(self) -> str:
        # "software-product-function>sap-cloud-application-programming-model" -> the readable parts
        return " ".join(t.split(">", 1)[-1].replace("-", " ") for t in self.tags)


def has_full_metadata(record: Mapping[str, Any]) -> bool:
    """Title, description and level (from a ``tutorial>...`` tag): what a published tutorial carries."""
    return all(str(record.get(key) or "").strip() for key in ("title", "description", "level"))


def unlisted_status(record: Mapping[str, Any], *, read_after_list: bool) -> Status:
    """The status of a tutorial that is not in the platform's list of published tutorials.

    ``read_after_list``: its source was read after the list was written, so it may have been
    published since. Otherwise the list is the newer word, and it left the tutorial out.
    """
    if not read_after_list:
        return "withdrawn"
    return "new" if has_full_metadata(record) else "draft"


def _parse(records: Any) -> list[Tutorial]:
    if isinstance(records, dict):  # a synced index: {"repos": ..., "tutorials": [...]}
        records = records.get("tutorials")
    return parse_records(Tutorial, records, "tutorial index")


@lru_cache(maxsize=1)
def _baseline() -> tuple[list[Tutorial], str]:
    data = bundled_json("tutorials-baseline.json")
    return _parse(data["tutorials"]), data["data_as_of"]


def bundled() -> tuple[int, str]:
    """Items and date of the snapshot bundled with sap-devs (what is served before the first sync)."""
    items, as_of = _baseline()
    return len(items), as_of


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
