"""Syncing the YouTube sources listed in the packs' youtube.yaml files."""

from __future__ import annotations

from typing import Any

from sap_devs.core.errors import SapDevsError
from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.live.sync import FetchContext, Source
from sap_devs.live.videos.catalogue import CACHE_NAME, TTL
from sap_devs.live.videos.catalogue import bundled as bundled_videos
from sap_devs.live.youtube_feed import parse_feed

BASES = {"youtube": "https://www.youtube.com"}
DESCRIPTION_LIMIT = 600


def _sources() -> list[Any]:
    from sap_devs.knowledge.base import KnowledgeBase

    seen: dict[str, Any] = {}
    for pack in KnowledgeBase.load().packs:
        for source in pack.youtube_sources:
            seen.setdefault(source.id, source)
    return list(seen.values())


async def fetch(http: Http, ctx: FetchContext) -> list[dict[str, Any]]:
    sources = _sources()
    if not sources:
        raise FetchError("no pack lists a YouTube source (youtube.yaml)", retryable=False)
    videos: dict[str, dict[str, Any]] = {}
    failures = []
    for done, source in enumerate(sources, start=1):
        try:
            feed = await http.get(ctx.url("youtube", source.feed_path()))
            entries = parse_feed(feed.content)
        except SapDevsError as exc:
            failures.append(f"{source.id}: {exc}")
            continue
        finally:
            ctx.tick(done, len(sources))
        for entry in entries:
            videos.setdefault(
                entry["id"],
                {
                    "id": entry["id"],
                    "source": source.id,
                    "title": entry["title"],
                    "url": entry["url"],
                    "published": entry["published"],
                    "description": entry["description"][:DESCRIPTION_LIMIT],
                    "tags": list(source.tags),
                },
            )
    if len(failures) == len(sources):
        raise FetchError("every YouTube source failed: " + "; ".join(failures[:3]))
    for failure in failures:
        ctx.note(failure)
    return sorted(videos.values(), key=lambda v: v["published"], reverse=True)


SOURCE = Source(
    name="videos",
    title="SAP developer videos (YouTube)",
    cache_name=CACHE_NAME,
    ttl=TTL,
    policy=Policy(allowed_hosts=frozenset({"www.youtube.com"}), read_timeout=10.0, max_bytes=1024 * 1024, retries=2),
    fetch=fetch,
    budget=120.0,
    bundled=bundled_videos,
)
