"""Pack events in date order: upcoming and ongoing first, past ones only on request."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from sap_devs.knowledge.models import EventInstance

Status = Literal["upcoming", "ongoing", "past"]


@dataclass(frozen=True)
class DatedEvent:
    pack: str
    event: EventInstance
    status: Status


def status_of(event: EventInstance, today: dt.date) -> Status:
    end = event.end_date or event.date
    if end < today:
        return "past"
    if event.date <= today:
        return "ongoing"
    return "upcoming"


def arrange(events: list[tuple[str, EventInstance]], today: dt.date, *, include_past: bool) -> list[DatedEvent]:
    dated = [DatedEvent(pack, ev, status_of(ev, today)) for pack, ev in events]
    current = sorted((d for d in dated if d.status != "past"), key=lambda d: (d.event.date, d.event.id))
    past = sorted((d for d in dated if d.status == "past"), key=lambda d: d.event.date, reverse=True)
    return current + past if include_past else current


def count_past(events: list[tuple[str, EventInstance]], today: dt.date) -> int:
    return sum(1 for _, ev in events if status_of(ev, today) == "past")
