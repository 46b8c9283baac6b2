"""The documentation relevance sets name pages that exist: a page a set names but the index lacks (moved,
renamed, a typo) would count as a miss for every system, silently lowering the figures reported from it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sap_devs.docs import store

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import docs_relevance  # noqa: E402

needs_bundled = pytest.mark.skipif(
    not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install` (hatch_build.py)"
)


def _named(entry: dict) -> list[dict]:
    return [*entry["relevant"], *([entry["other"]] if entry.get("other") else [])]


@needs_bundled
@pytest.mark.parametrize("name", sorted(docs_relevance.SETS))
def test_every_page_a_relevance_set_names_is_in_the_bundled_index(name: str) -> None:
    index = store.current()
    entries = docs_relevance.load(name)
    pooled = docs_relevance.pooled(name)
    missing = [
        f"{page['source']}:{page['path']} ({entry['query'][:60]})"
        for entry in entries
        for page in _named(entry) + pooled.get(entry["query"], [])
        if index.find_page(page_id=":".join(docs_relevance._resolved(page))) is None
    ]
    assert entries and not missing, f"{len(missing)} pages not in the index: {missing[:5]}"


@pytest.mark.parametrize("name", sorted(docs_relevance.SETS))
def test_a_relevance_set_asks_each_question_once(name: str) -> None:
    queries = [entry["query"] for entry in docs_relevance.load(name)]
    assert len(queries) == len(set(queries))
