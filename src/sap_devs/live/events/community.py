"""Community events fetched by ``sap-devs sync`` (Khoros boards, RSS feeds), read back for search_events."""

from __future__ import annotations

import datetime as dt

from pydantic import ValidationError

from sap_devs.core import cache
from sap_devs.knowledge.models import EventInstance

CACHE_NAME = "events/synced"
TTL = dt.timedelta(hours=4)


def load() -> tuple[list[EventInstance], str | None]:
    """(events, age) from the last sync; ([], None) before the first one."""
    cached = cache.read(CACHE_NAME)
    if cached is None or not isinstance(cached.data, list):
        return [], None
    events = []
    for record in cached.data:
        try:
            events.append(EventInstance.model_validate(record))
        except ValidationError:
            continue
    return events, cached.age_text()
