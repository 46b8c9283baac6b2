"""Syncing community events for the packs' event types: Khoros boards (CodeJam ...) and RSS feeds."""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
from typing import Any
from urllib.parse import quote

from sap_devs.core.errors import SapDevsError
from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.core.xml import parse_xml
from sap_devs.knowledge.models import EventType
from sap_devs.live.events.community import CACHE_NAME, TTL
from sap_devs.live.sync import FetchContext, Source

BASES = {"khoros": "https://groups.community.sap.com", "community": "https://community.sap.com"}
HOSTS = frozenset({"groups.community.sap.com", "community.sap.com"})
LIQL = (
    "SELECT id,subject,view_href,occasion_data.location,occasion_data.start_time,occasion_data.end_time,"
    "occasion_data.timezone FROM messages WHERE board.id='{board}'"
)


def _event_types() -> list[EventType]:
    from sap_devs.knowledge.base import KnowledgeBase

    seen: dict[str, EventType] = {}
    for pack in KnowledgeBase.load().packs:
        for event_type in pack.event_types:
            seen.setdefault(event_type.id, event_type)
    return [t for t in seen.values() if t.source in ("khoros", "rss")]


def _day(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).date().isoformat()
    except ValueError:
        return value[:10] if len(value) >= 10 and value[4] == "-" else None


def parse_khoros(payload: Any, event_type: EventType) -> list[dict[str, Any]]:
    if not isinstance(payload, dict) or payload.get("status") != "success":
        raise FetchError(f"Khoros answered without success for board {event_type.khoros_board_id}", retryable=False)
    events = []
    for item in (payload.get("data") or {}).get("items") or []:
        occasion = item.get("occasion_data") if isinstance(item, dict) else None
        href = str(item.get("view_href") or "") if isinstance(item, dict) else ""
        if not occasion or "/ec-p/" in href or not href.startswith("https://"):
            continue
        start = _day(occasion.get("start_time"))
        if not start:
            continue
        events.append(
            {
                "id": f"{event_type.id}/{item.get('id')}",
                "type": event_type.id,
                "title": " ".join(str(item.get("subject") or "").split()),
                "date": start,
                "end_date": _day(occasion.get("end_time")) or start,
                "location": occasion.get("location") or None,
                "scope": event_type.default_scope,
                "url": href,
                "tags": list(event_type.tags),
            }
        )
    return events


def parse_rss(xml: bytes, event_type: EventType) -> list[dict[str, Any]]:
    root = parse_xml(xml, source=f"{event_type.id} RSS feed")
    events = []
    for item in root.iter("item"):
        link = (item.findtext("link") or "").strip()
        title = " ".join((item.findtext("title") or "").split())
        try:
            published = email.utils.parsedate_to_datetime(item.findtext("pubDate") or "")
        except (TypeError, ValueError):
            continue
        if not (link.startswith("https://") and title):
            continue
        events.append(
            {
                "id": f"{event_type.id}/{hashlib.sha256(link.encode()).hexdigest()[:12]}",
                "type": event_type.id,
                "title": title,
                "date": published.date().isoformat(),
                "scope": event_type.default_scope,
                "url": link,
                "tags": list(event_type.tags),
            }
        )
    return events


async def _fetch_type(http: Http, ctx: FetchContext, event_type: EventType) -> list[dict[str, Any]]:
    if event_type.source == "khoros":
        query = quote(LIQL.format(board=event_type.khoros_board_id), safe="")
        response = await http.get(ctx.url("khoros", f"/api/2.0/search?q={query}"))
        return parse_khoros(response.json(), event_type)
    if not event_type.rss_url:
        return []
    url = event_type.rss_url
    if "community" in ctx.bases and url.startswith(BASES["community"]):
        url = ctx.bases["community"].rstrip("/") + url[len(BASES["community"]) :]
    return parse_rss((await http.get(url)).content, event_type)


async def fetch(http: Http, ctx: FetchContext) -> list[dict[str, Any]]:
    types = [t for t in _event_types() if (t.source == "khoros" and t.khoros_board_id) or t.rss_url]
    if not types:
        raise FetchError("no pack defines a Khoros or RSS event type", retryable=False)
    events: list[dict[str, Any]] = []
    failures = []
    for done, event_type in enumerate(types, start=1):
        try:
            events += await _fetch_type(http, ctx, event_type)
        except SapDevsError as exc:
            failures.append(f"{event_type.id}: {exc}")
        finally:
            ctx.tick(done, len(types))
    if len(failures) == len(types):
        raise FetchError("every event source failed: " + "; ".join(failures[:3]))
    for failure in failures:
        ctx.note(failure)
    return events


SOURCE = Source(
    name="events",
    title="SAP community events",
    cache_name=CACHE_NAME,
    ttl=TTL,
    policy=Policy(allowed_hosts=HOSTS, read_timeout=10.0, max_bytes=1024 * 1024, retries=2),
    fetch=fetch,
    count=len,
    budget=60.0,
)
