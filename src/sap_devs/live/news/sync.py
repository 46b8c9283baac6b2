"""Syncing SAP Developer News: the YouTube playlist feed, matched with SAP Community posts."""

from __future__ import annotations

import datetime as dt
import email.utils
from difflib import SequenceMatcher
from typing import Any

from sap_devs.core.errors import SapDevsError
from sap_devs.core.http import Http, Policy
from sap_devs.core.xml import parse_xml
from sap_devs.live.news.episodes import CACHE_NAME, TTL
from sap_devs.live.news.episodes import bundled as bundled_episodes
from sap_devs.live.sync import FetchContext, Source
from sap_devs.live.youtube_feed import parse_feed

PLAYLIST_ID = "PL6RpkC85SLQAVBSQXN9522_1jNvPavBgg"  # SAP Developer News on the SAP Developers channel
BASES = {
    "youtube": "https://www.youtube.com",
    "community": "https://community.sap.com",
    "youtube_api": "https://www.googleapis.com",
}
HOSTS = frozenset({"www.youtube.com", "community.sap.com", "www.googleapis.com"})
WINDOW = dt.timedelta(days=7)


def parse_community_rss(xml: bytes) -> list[dict[str, Any]]:
    root = parse_xml(xml, source="SAP Community RSS feed")
    posts = []
    for item in root.iter("item"):
        title = (item.findtext("title") or "").strip()
        link = (item.findtext("link") or "").strip()
        try:
            published = email.utils.parsedate_to_datetime(item.findtext("pubDate") or "")
        except (TypeError, ValueError):
            continue
        if title and link.startswith("https://community.sap.com/"):
            posts.append({"title": title, "url": link, "published": published})
    return posts


def _similarity(a: str, b: str) -> int:
    match = SequenceMatcher(None, a.lower(), b.lower()).find_longest_match()
    return match.size


def correlate(episodes: list[dict[str, Any]], posts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each episode gets the unused post published within a week whose title shares the longest run."""
    used: set[str] = set()
    out = []
    for episode in episodes:
        when = dt.datetime.fromisoformat(episode["published"])
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        candidates = [p for p in posts if p["url"] not in used and abs(p["published"] - when) <= WINDOW]
        best = max(candidates, key=lambda p: _similarity(p["title"], episode["title"]), default=None)
        enriched = dict(episode)
        if best is not None:
            used.add(best["url"])
            enriched["community_url"] = best["url"]
            enriched["community_title"] = best["title"]
        out.append(enriched)
    return out


def parse_api_items(payload: object) -> list[dict[str, Any]]:
    """Episodes from a YouTube Data API v3 playlistItems answer."""
    items = payload.get("items") if isinstance(payload, dict) else None
    episodes = []
    for item in items or []:
        snippet = item.get("snippet") if isinstance(item, dict) else None
        if not isinstance(snippet, dict):
            continue
        video_id = (snippet.get("resourceId") or {}).get("videoId")
        title, published = snippet.get("title"), snippet.get("publishedAt")
        if not (video_id and title and published):
            continue
        episodes.append(
            {
                "id": video_id,
                "title": " ".join(str(title).split()),
                "url": f"https://www.youtube.com/watch?v={video_id}",
                "published": published,
                "description": str(snippet.get("description") or "").strip(),
            }
        )
    return episodes


async def _episodes_from_api(http: Http, ctx: FetchContext, key: str) -> list[dict[str, Any]]:
    path = f"/youtube/v3/playlistItems?part=snippet&maxResults=50&playlistId={PLAYLIST_ID}&key={key}"
    return parse_api_items((await http.get(ctx.url("youtube_api", path))).json())


async def fetch(http: Http, ctx: FetchContext) -> list[dict[str, Any]]:
    key = ctx.env.get("YOUTUBE_API_KEY")
    try:
        feed = await http.get(ctx.url("youtube", f"/feeds/videos.xml?playlist_id={PLAYLIST_ID}"))
        episodes = parse_feed(feed.content)
    except SapDevsError as exc:
        if not key:
            raise
        ctx.note(f"YouTube feed failed ({exc}); used the YouTube Data API")
        episodes = []
    if not episodes and key:
        episodes = await _episodes_from_api(http, ctx, key)
    ctx.tick(1, 2)
    try:
        rss = await http.get(ctx.url("community", "/khhcw49343/rss/board?board.id=developer-news"))
        posts = parse_community_rss(rss.content)
    except SapDevsError as exc:  # posts only enrich the episodes; the episodes alone are still worth caching
        ctx.note(f"SAP Community posts unavailable ({exc}); episodes saved without their posts")
        posts = []
    ctx.tick(2, 2)
    return correlate(episodes, posts)


SOURCE = Source(
    name="news",
    title="SAP Developer News",
    cache_name=CACHE_NAME,
    ttl=TTL,
    policy=Policy(allowed_hosts=HOSTS, read_timeout=10.0, max_bytes=1024 * 1024, retries=2),
    fetch=fetch,
    budget=60.0,
    bundled=bundled_episodes,
)
