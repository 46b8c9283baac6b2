"""Live mission search on SAP Discovery Center for when no mission catalogue has been synced."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
from typing import Any

from sap_devs.core import cache
from sap_devs.core.errors import SapDevsError
from sap_devs.live.discovery.client import BASES, HOSTS, call_function, normalise_mission

BUDGET = 15.0  # seconds for the whole live search, CSRF token included
TTL = dt.timedelta(hours=1)
FILTERS = ("filterCategory", "filterProduct", "filterLob", "filterIndustry", "filterFocusTags", "filterPartners")


def _cache_name(query: str, top: int) -> str:
    return "discovery/search-" + hashlib.sha256(f"{query.lower()}|{top}".encode()).hexdigest()[:16]


async def search_live(
    query: str, top: int, *, base: str | None = None, extra_hosts: frozenset[str] = frozenset()
) -> tuple[list[dict[str, Any]], str | None]:
    """(missions, note): fresh cache, else live, else stale cache; SapDevsError when nothing is available."""
    from sap_devs.core.http import Http, Policy

    name = _cache_name(query, top)
    cached = cache.read(name)
    if cached is not None and cached.fresh(TTL):
        return cached.data, None
    params = {"searchString": query, "filterType": "mission-catalog-search", "filterQuickFilter": "", "top": str(top)}
    params.update({f: "" for f in FILTERS})
    policy = Policy(allowed_hosts=HOSTS | extra_hosts, read_timeout=BUDGET, connect_timeout=5.0)
    try:
        async with Http(policy) as http:
            value = await asyncio.wait_for(
                call_function(http, base or BASES["discovery"], "GetViewFuzzySearchesCustomV3", params), BUDGET
            )
    except (SapDevsError, TimeoutError) as exc:
        if cached is not None:
            return (
                cached.data,
                f"Discovery Center did not answer ({exc or 'timeout'}); results cached {cached.age_text()} ago.",
            )
        raise SapDevsError(
            "Discovery Center is not reachable. Try again later or run sap-devs sync.", hint=str(exc) or "timeout"
        ) from None
    records = value if isinstance(value, list) else (value.get("results") if isinstance(value, dict) else [])
    found: list[dict[str, Any]] = [m for m in (normalise_mission(r) for r in records or []) if m]
    return found, cache.save(name, found)  # a full disk costs the cache, never the answer
