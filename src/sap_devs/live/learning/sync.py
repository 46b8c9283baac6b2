"""Syncing the learning.sap.com catalogue: learning journeys only, normalised for search."""

from __future__ import annotations

from typing import Any

from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.live.learning.journeys import CACHE_NAME, TTL
from sap_devs.live.sync import FetchContext, Source

BASES = {"learning": "https://learning.sap.com"}
JOURNEY_PREFIX = "https://learning.sap.com/learning-journeys/"


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if value else ""


def _split(value: Any) -> list[str]:
    if isinstance(value, list):
        return [_text(v) for v in value if _text(v)]
    return [p.strip() for p in _text(value).split(",") if p.strip()]


def normalise(item: dict[str, Any]) -> dict[str, Any] | None:
    if item.get("Learning_type") != "Learning Journey":
        return None
    link = item.get("Direct_link")
    url = link.get("hyperlink") if isinstance(link, dict) else link
    if not isinstance(url, str) or not url.startswith(JOURNEY_PREFIX):
        return None
    try:
        hours = float(item["Duration_in_hours"]) if item.get("Duration_in_hours") not in (None, "") else None
    except (TypeError, ValueError):
        hours = None
    products = _split(item.get("LSC_product")) + _split(item.get("LSC_product_category"))
    return {
        "slug": url[len(JOURNEY_PREFIX) :].strip("/"),
        "title": _text(item.get("Title")),
        "description": _text(item.get("Description"))[:600],
        "level": _text(item.get("Level")).lower() or None,
        "duration_hours": hours,
        "roles": _split(item.get("Role")),
        "products": list(dict.fromkeys(products)),
        "url": url,
    }


async def fetch(http: Http, ctx: FetchContext) -> list[dict[str, Any]]:
    response = await http.get(ctx.url("learning", "/service/catalog-download/json"))
    data = response.json()
    if not isinstance(data, list):
        raise FetchError("the learning catalogue is not a JSON list", retryable=False)
    journeys = [j for j in (normalise(i) for i in data if isinstance(i, dict)) if j and j["title"]]
    ctx.tick(len(journeys), len(journeys))
    return journeys


SOURCE = Source(
    name="learning",
    title="learning.sap.com learning journeys",
    cache_name=CACHE_NAME,
    ttl=TTL,
    policy=Policy(
        allowed_hosts=frozenset({"learning.sap.com"}), read_timeout=60.0, max_bytes=40 * 1024 * 1024, retries=2
    ),
    fetch=fetch,
    budget=180.0,
)
