"""YouTube playlist and channel feeds (Atom) parsed into plain video records."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sap_devs.core.xml import parse_xml

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "yt": "http://www.youtube.com/xml/schemas/2015",
    "media": "http://search.yahoo.com/mrss/",
}


def parse_feed(xml: bytes) -> list[dict[str, Any]]:
    root = parse_xml(xml, source="YouTube feed")
    episodes = []
    for entry in root.findall("atom:entry", NS):
        video_id = entry.findtext("yt:videoId", default="", namespaces=NS)
        title = entry.findtext("atom:title", default="", namespaces=NS).strip()
        published = entry.findtext("atom:published", default="", namespaces=NS)
        link = entry.find("atom:link[@rel='alternate']", NS)
        url = link.get("href") if link is not None else f"https://www.youtube.com/watch?v={video_id}"
        description = entry.findtext("media:group/media:description", default="", namespaces=NS)
        if not (video_id and title and published):
            continue
        try:
            dt.datetime.fromisoformat(published)
        except ValueError:
            continue  # one bad date must not sink the whole feed
        episodes.append(
            {"id": video_id, "title": title, "url": url, "published": published, "description": description.strip()}
        )
    return episodes
