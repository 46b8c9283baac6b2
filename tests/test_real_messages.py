"""Known errors against what SAP's tools really print (issue 28): the corpus in tests/data/real_messages
was captured from the real tools (scripts/capture_real_messages.py) or quoted from SAP's documentation.

Every message with an entry must find that entry in the top 3 of get_known_errors; the held-out part
(chosen by a seeded hash before any entry was written) is measured, not gated, so it stays a fair
estimate. Messages without an entry (`expect: null`) are kept for calibrating the no-match signal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core import safe_yaml
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.queries import find_known_errors
from tests.conftest import bundled_layer

CORPUS = Path(__file__).parent / "data" / "real_messages"
FIELDS = {"tool", "version", "command", "scenario", "message", "source", "expect", "heldout"}


def _load() -> list[dict]:
    items: list[dict] = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for item in safe_yaml.load(path.read_text(encoding="utf-8")) or []:
            items.append({**item, "file": path.stem})
    return items


FIXTURES = _load()
KB = KnowledgeBase.load(layers=[bundled_layer()])
ENTRY_IDS = {e.id for p in KB.packs for e in p.known_errors}


def _rank(message: str, expect: str) -> int | None:
    ids = [e.id for _, e in find_known_errors(KB, message)]
    return ids.index(expect) + 1 if expect in ids else None


def test_the_corpus_is_large_varied_and_well_formed() -> None:
    for item in FIXTURES:
        assert item.keys() >= FIELDS, (item["file"], item.get("scenario"), FIELDS - item.keys())
        assert item["source"] in {"run", "docs"}
        assert isinstance(item["heldout"], bool)
        assert item["message"].strip()
    messages = {i["message"] for i in FIXTURES}
    assert len(messages) >= 150, len(messages)
    keys = [(i["file"], i["scenario"]) for i in FIXTURES]
    assert len(keys) == len(set(keys)), "scenario names are unique per fixture file"
    assert len({i["file"] for i in FIXTURES}) >= 10, "spread over the tools"
    without = [i for i in FIXTURES if i["expect"] is None]
    assert len(without) >= 30, "real messages without an entry, to calibrate the no-match signal"
    held = [i for i in FIXTURES if i["heldout"]]
    assert 0.2 <= len(held) / len(FIXTURES) <= 0.3, "about a quarter is held out"
    assert any(i["expect"] is None for i in held), "the held-out part includes messages without an entry"


def test_every_expected_entry_exists() -> None:
    unknown = {
        (i["file"], i["scenario"]): i["expect"] for i in FIXTURES if i["expect"] and i["expect"] not in ENTRY_IDS
    }
    assert unknown == {}


TUNED = [i for i in FIXTURES if i["expect"] and not i["heldout"]]


@pytest.mark.parametrize("item", TUNED, ids=lambda i: f"{i['file']}/{i['scenario']}")
def test_the_right_entry_is_in_the_top_3_for_the_real_message(item: dict) -> None:
    rank = _rank(item["message"], item["expect"])
    top = [e.id for _, e in find_known_errors(KB, item["message"])][:3]
    assert rank is not None and rank <= 3, f"{item['expect']} not in the top 3 {top} for:\n{item['message']}"


def test_the_right_entry_comes_first_for_nine_in_ten() -> None:
    ranks = [_rank(i["message"], i["expect"]) for i in TUNED]
    top1 = sum(r == 1 for r in ranks) / len(ranks)
    print(f"\nreal messages with an entry (tuned part): top-1 {top1:.0%} of {len(ranks)}")
    assert top1 >= 0.9
