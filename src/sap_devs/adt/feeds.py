"""Atom feeds of the ABAP system monitoring: system messages (SM02) and the SAP Gateway error log.

Both answer an Atom feed (GET /sap/bc/adt/runtime/systemmessages, GET /sap/bc/adt/gw/errorlog);
each entry has an id, a title, an author, a time and an HTML summary.
"""

from __future__ import annotations

from dataclasses import dataclass

from sap_devs.adt.atc import html_text
from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ATOM
from sap_devs.core.xml import parse_xml

SYSTEM_MESSAGES = "/sap/bc/adt/runtime/systemmessages"
GATEWAY_ERRORS = "/sap/bc/adt/gw/errorlog"
SUMMARY_MAX = 2000


@dataclass
class FeedEntry:
    id: str
    title: str | None
    author: str | None
    time: str | None
    summary: str | None


def parse_entries(xml: bytes) -> list[FeedEntry]:
    root = parse_xml(xml, source="feed")
    found = []
    for entry in root.iter(f"{ATOM}entry"):
        summary = entry.find(f"{ATOM}summary")
        text = None
        if summary is not None and (summary.text or "").strip():
            raw = summary.text or ""
            text = html_text(raw) if summary.get("type") == "html" else " ".join(raw.split())
        title = entry.findtext(f"{ATOM}title")
        found.append(
            FeedEntry(
                id=(entry.findtext(f"{ATOM}id") or "").strip(),
                title=" ".join(title.split()) if title else None,
                author=(entry.findtext(f"{ATOM}author/{ATOM}name") or "").strip() or None,
                time=entry.findtext(f"{ATOM}updated") or entry.findtext(f"{ATOM}published"),
                summary=text[:SUMMARY_MAX] if text else None,
            )
        )
    return found


async def read_feed(client: AdtClient, path: str, *, limit: int, user: str | None = None) -> list[FeedEntry]:
    params = {"$top": str(limit)}
    if user:
        params["$query"] = f"and( equals( user, {user.upper()} ) )"
    try:
        response = await client.request("GET", path, params=params, accept="application/atom+xml;type=feed")
    except AdtError as exc:
        if exc.status == 404:
            raise AdtError(
                f"This system has no {path} feed.",
                status=404,
                hint="The feed needs a newer release or the component (SAP Gateway for the error log).",
            ) from None
        raise
    return parse_entries(response.content)
