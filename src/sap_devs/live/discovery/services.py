"""The SAP BTP service and application catalogue."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from sap_devs.live.snapshot import Snapshot, bundled_json, from_cache_or_baseline, parse_records
from sap_devs.search import Field, rank

CACHE_NAME = "discovery/services"
TTL = dt.timedelta(days=7)


class Plan(BaseModel):
    name: str
    free: bool = False
    beta: bool = False


class Service(BaseModel):
    id: str
    name: str
    category: str = "service"
    description: str = ""
    documentation: str | None = None
    discovery_center: str | None = None
    plans: list[Plan] = []
    deprecated: bool = False


def parse(records: Any) -> list[Service]:
    return parse_records(Service, records, "service catalogue")


@lru_cache(maxsize=1)
def _baseline() -> tuple[list[Service], str]:
    data = bundled_json("btp-services-baseline.json")
    return parse(data["services"]), data["data_as_of"]


def bundled() -> tuple[int, str]:
    """Items and date of the snapshot bundled with sap-devs (what is served before the first sync)."""
    items, as_of = _baseline()
    return len(items), as_of


def load_baseline() -> list[Service]:
    return _baseline()[0]


def load() -> Snapshot[Service]:
    return from_cache_or_baseline(CACHE_NAME, TTL, parse, _baseline)


def search(services: list[Service], query: str) -> list[Service]:
    return rank(
        query,
        services,
        [Field("name", 3.0), Field("id", 2.0), Field("plans", 1.0), Field("description", 1.0)],
        lambda s: {
            "name": s.name,
            "id": s.id.replace("-", " "),
            "plans": " ".join(p.name for p in s.plans),
            "description": s.description,
        },
    )
