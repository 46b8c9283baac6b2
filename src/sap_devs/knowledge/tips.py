"""Parsing ``tips.md``: ``## Title``, an optional ``Tags: a, b`` line, then the body."""

from __future__ import annotations

from sap_devs.core.errors import ContentError
from sap_devs.knowledge.models import Tip


def parse_tips(text: str, *, pack_id: str, source: str) -> list[Tip]:
    tips: list[Tip] = []
    title: str | None = None
    tags: list[str] = []
    body: list[str] = []
    start_line = 0

    def flush() -> None:
        if title is None:
            return
        content = "\n".join(body).strip()
        if not title:
            raise ContentError(source, f"line {start_line}: a tip heading has no title")
        if not content:
            raise ContentError(source, f"line {start_line}: tip {title!r} has no text")
        tips.append(Tip(title=title, content=content, tags=tags, pack=pack_id))

    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            flush()
            title, tags, body, start_line = line[3:].strip(), [], [], lineno
            continue
        if title is None:
            continue  # text before the first heading is a preamble
        if not body and not tags and line.strip().lower().startswith("tags:"):
            tags = [t.strip().lower() for t in line.split(":", 1)[1].split(",") if t.strip()]
            continue
        body.append(line)
    flush()
    return tips
