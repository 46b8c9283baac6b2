"""Reading a developers.sap.com tutorial's markdown: front matter, title, description, step count."""

from __future__ import annotations

import re
from typing import Any

import yaml

from sap_devs.core import safe_yaml

_LEVEL = re.compile(r"^tutorial>(beginner|intermediate|advanced)$")
_DESCRIPTION_MARK = "<!-- description -->"
_MAX_FRONT_MATTER_NODES = 10_000


def _front_matter(text: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        return {}, text
    try:
        # front matter of a real tutorial is a dozen keys; a sync must not stall on a hostile file
        meta = safe_yaml.load(text[3:end], max_nodes=_MAX_FRONT_MATTER_NODES) or {}
    except (yaml.YAMLError, ValueError):
        meta = {}  # ValueError: PyYAML's date and number constructors (e.g. time: 2024-13-45)
    body = text[end + 4 :]
    return (meta if isinstance(meta, dict) else {}), body


def _count_steps(body: str, parser: str | None) -> int:
    if parser != "v2":
        return body.count("[ACCORDION-BEGIN")
    in_fence = False
    steps = 0
    for line in body.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and line.startswith("### "):
            steps += 1
    return steps


def _as_int(value: Any) -> int | None:
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def parse_tutorial(slug: str, text: str, *, repo: str) -> dict[str, Any]:
    """A tutorial index record in the bundled snapshot's shape."""
    meta, body = _front_matter(text)
    tags_raw = meta.get("tags") or []
    if isinstance(tags_raw, str):
        tags_raw = tags_raw.split(",")
    tags = [str(t).strip() for t in tags_raw if str(t).strip()]
    title = str(meta.get("title") or "").strip()
    if not title:
        heading = re.search(r"^# (.+)$", body, flags=re.M)
        title = heading.group(1).strip() if heading else slug.replace("-", " ")
    description = str(meta.get("description") or "").strip()
    if not description and _DESCRIPTION_MARK in body:
        after = body.split(_DESCRIPTION_MARK, 1)[1].strip()
        description = after.split("\n\n", 1)[0].strip()
    level = next((m.group(1) for t in tags if (m := _LEVEL.match(t))), None)
    parser = str(meta.get("parser")) if meta.get("parser") else None
    record: dict[str, Any] = {
        "slug": slug,
        "title": title,
        "description": description or None,
        "tags": tags,
        "primary_tag": meta.get("primary_tag"),
        "time_minutes": _as_int(meta.get("time")),
        "level": level,
        "url": f"https://developers.sap.com/tutorials/{slug}.html",
        "steps": _count_steps(body, parser),
        "repo": repo,
    }
    return {k: v for k, v in record.items() if v is not None}
