"""One SAP Developer News episode in detail: its items with links and its chapter timestamps.

Read from the episode's SAP Community post (https on community.sap.com or blogs.sap.com only),
cached per URL for an hour; a failed fetch falls back to an older cached copy.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sap_devs.core import cache
from sap_devs.core.errors import SapDevsError
from sap_devs.live.news import episodes as news
from sap_devs.live.news.html_blocks import Block, parse_html, youtube_url

log = logging.getLogger(__name__)

HOSTS = frozenset({"community.sap.com", "blogs.sap.com"})
TTL = dt.timedelta(hours=1)
RAW_LIMIT = 20_000
DEADLINE = 20.0  # seconds for the whole fetch: an agent is waiting on this answer
_CHAPTER = re.compile(r"^(\d{1,2}:\d{2}(?::\d{2})?)\s+(.+)$")
_ITEM_SECTIONS = ("items", "description")
_CHAPTER_SECTIONS = ("chapter titles", "chapters")
_TRANSCRIPT_SECTIONS = ("transcript", "transcription")


class InvalidNewsUrl(SapDevsError):
    pass


def validate_url(url: str) -> str:
    """The URL, normalised, if it is an https SAP Community URL; InvalidNewsUrl otherwise."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if (
        parts.scheme != "https"
        or host not in HOSTS
        or parts.username
        or parts.password
        or parts.port not in (None, 443)
    ):
        raise InvalidNewsUrl(
            f"community_url must be an https://community.sap.com/ or https://blogs.sap.com/ address, got {url!r}.",
            hint="Use the community_url of a get_recent_news result.",
        )
    return urlunsplit(("https", host, parts.path or "/", parts.query, ""))


@dataclass
class Detail:
    title: str
    community_url: str
    video_url: str | None = None
    published: str | None = None
    items: list[dict[str, Any]] = field(default_factory=list)
    chapters: list[dict[str, str]] = field(default_factory=list)
    raw_content: str | None = None


def _sections(blocks: list[Block]) -> dict[str, list[Block]]:
    sections: dict[str, list[Block]] = {"": []}
    current = ""
    for block in blocks:
        if block.is_heading and block.kind in ("h2", "h3", "h4"):
            current = block.text.strip().rstrip(":").lower()
            sections.setdefault(current, [])
            continue
        sections.setdefault(current, []).append(block)
    return sections


def _pick(sections: dict[str, list[Block]], names: tuple[str, ...]) -> list[Block] | None:
    return next((sections[n] for n in names if n in sections), None)


def _items(blocks: list[Block]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for block in blocks:
        if block.kind == "para" and block.all_bold:
            title = block.text
            for text, href in block.links:
                if text == href:  # a bare URL inside the bold line is a link, not part of the title
                    title = title.replace(href, "")
            title = title.strip().rstrip(":").strip() or block.text
            items.append({"title": title, "links": [href for _, href in block.links if href.startswith("http")]})
        elif items:
            items[-1]["links"] += [href for _, href in block.links if href.startswith("http")]
    for item in items:
        item["links"] = list(dict.fromkeys(item["links"]))
    return items


def parse_post(html: str, url: str) -> Detail:
    page_title, blocks = parse_html(html)
    headings = [b.text for b in blocks if b.kind in ("h1", "h2")]
    title = next((h for h in headings if "developer news" in h.lower()), None) or (
        headings[0] if headings else page_title
    )
    title = re.sub(r"\s+-\s+SAP Community$", "", title)
    sections = _sections(blocks)
    item_blocks = _pick(sections, _ITEM_SECTIONS)
    items = _items(item_blocks) if item_blocks else []
    chapters = []
    for block in _pick(sections, _CHAPTER_SECTIONS) or []:
        match = _CHAPTER.match(block.text)
        if match:
            chapters.append({"time": match.group(1), "title": match.group(2).strip()})
    detail = Detail(title=title, community_url=url, video_url=youtube_url(html), items=items, chapters=chapters)
    if not items:
        body = _pick(sections, _TRANSCRIPT_SECTIONS) or blocks
        raw = "\n\n".join(b.markdown() for b in body)
        detail.raw_content = raw if len(raw) <= RAW_LIMIT else raw[:RAW_LIMIT] + "\n\n[truncated]"
    return detail


def _with_episode(detail: Detail) -> Detail:
    for episode in news.load().items:
        if episode.community_url == detail.community_url:
            detail.published = episode.published
            detail.video_url = detail.video_url or episode.url
            break
    return detail


def cache_name(url: str) -> str:
    return "news-detail/" + hashlib.sha256(url.encode("utf-8")).hexdigest()


async def get_detail(
    url: str, *, base: str | None = None, extra_hosts: frozenset[str] = frozenset()
) -> tuple[Detail, str | None]:
    """(detail, note); ``base`` replaces scheme and host for fetching (tests point it at a loopback server)."""
    url = validate_url(url)
    name = cache_name(url)
    cached = cache.read(name, expect=dict)
    old = _from_cache(cached.data) if cached is not None else None
    if cached is None or old is None:
        cached = None
    elif cached.fresh(TTL):
        return _with_episode(old), None
    from sap_devs.core.http import Http, Policy  # imported on first use: httpx stays off the start-up path

    fetch_url = url if base is None else base.rstrip("/") + urlsplit(url).path
    policy = Policy(allowed_hosts=HOSTS | extra_hosts, read_timeout=10.0, deadline=DEADLINE, max_bytes=4 * 1024 * 1024)
    try:
        async with Http(policy) as http:
            response = await http.get(fetch_url, headers={"Accept": "text/html"})
        detail = parse_post(response.text(), url)
    except SapDevsError as exc:
        if cached is not None and old is not None:
            note = f"Could not refresh the post ({exc}); showing the copy cached {cached.age_text()} ago."
            return _with_episode(old), note
        raise SapDevsError(f"Could not read {url}: {exc}", hint="Try again later.") from None
    return _with_episode(detail), cache.save(name, detail.__dict__)


def _from_cache(data: dict[str, Any]) -> Detail | None:
    """The cached post, or None when the file holds something else (it is then fetched again)."""
    try:
        return Detail(**data)
    except TypeError:
        log.warning("cached news detail has unexpected fields; fetching the post again")
        return None
