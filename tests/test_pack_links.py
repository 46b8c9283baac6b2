"""Every link in the bundled packs leads to a real page: one of the documentation sources' pages, or an
entry on the short, explicit list of pages outside them (tests/data/external_links.yaml)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from sap_devs.docs import store
from sap_devs.docs.index import DocsIndex
from sap_devs.knowledge.base import KnowledgeBase
from tests.conftest import bundled_layer

EXTERNAL = yaml.safe_load((Path(__file__).parent / "data" / "external_links.yaml").read_text(encoding="utf-8"))


_URL = re.compile(r"https://[^\s)\]>\"'`,;]+")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def pack_urls() -> dict[str, list[str]]:
    """Every https URL in the bundled packs' items, link fields and texts alike, with where it is used."""
    kb = KnowledgeBase.load(layers=[bundled_layer()])
    found: dict[str, list[str]] = {}
    for pack in kb.packs:
        texts = [pack.context.at("full"), pack.constraints.at("full"), *(t.content for t in pack.tips)]
        for text in texts:
            for url in _URL.findall(text):
                found.setdefault(url.rstrip("."), []).append(f"{pack.id}/markdown")
        for kind in ("resources", "known_errors", "samples", "tools", "event_types", "event_instances", "mcp_servers"):
            for item in getattr(pack, kind):
                for text in _strings(item.model_dump(mode="json")):
                    for url in _URL.findall(text):
                        found.setdefault(url.rstrip("."), []).append(f"{pack.id}/{kind}/{getattr(item, 'id', '?')}")
    return found


def _external(url: str) -> bool:
    return any(url == e.get("url") or ("prefix" in e and url.startswith(e["prefix"])) for e in EXTERNAL)


_HELP_TOPIC = re.compile(r"^https://help\.sap\.com/docs/[^/]+/[^/]+/([0-9a-f]{32})\.html")


def _doc_page(url: str, index: DocsIndex, topics: set[str]) -> bool:
    """A page of the sources: by its URL (capire through its redirects), or for the Help Portal by the
    topic id, which is the same whichever product/deliverable path a page is linked under."""
    topic = _HELP_TOPIC.match(url)
    if topic:
        return topic.group(1) in topics
    return index.find_page(url=url) is not None


@pytest.mark.skipif(not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install`")
def test_every_pack_link_is_a_source_page_or_listed() -> None:
    store.reset()
    index = store.current()
    topics = {m.group(1) for u in index.urls() if (m := re.search(r"([0-9a-f]{32})(?:\.html)?$", u))}
    unknown = {
        url: where
        for url, where in sorted(pack_urls().items())
        if not _external(url) and not _doc_page(url, index, topics)
    }
    assert not unknown, "links that are neither a documentation-source page nor listed:\n" + "\n".join(
        f"  {url}  ({', '.join(where[:3])})" for url, where in unknown.items()
    )


def test_every_listed_external_link_is_still_used() -> None:
    urls = list(pack_urls())
    unused = [e for e in EXTERNAL if not any(u == e.get("url") or u.startswith(e.get("prefix", "\0")) for u in urls)]
    assert not unused, f"entries in external_links.yaml no pack uses any more: {unused}"
