"""The documentation search's faster paths answer exactly as the plain ones, and the first search is prepared."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.docs import index as docs_index
from sap_devs.docs import store
from sap_devs.mcp import server

needs_bundled = pytest.mark.skipif(
    not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install` (hatch_build.py)"
)

# frequent words (the coverage check reads them from bitmaps) beside rare ones, a typo and a product filter
QUERIES = [
    ("how do I create a service in CAP and deploy it to cloud foundry", None),
    ("fiori elements list report default filter value", "ui5"),
    ("destination to an on-premise system through cloud connector", None),
    ("CDS asociation with an on condition", "cap"),
]


def _answers(index: docs_index.DocsIndex) -> list[list[tuple]]:
    found = []
    for query, product in QUERIES:
        hits, total = index.search(query, product=product)
        found.append([(total, h.source, h.path, h.sections, round(h.score, 9), h.strength, h.snippet) for h in hits])
    return found


@needs_bundled
def test_frequent_terms_held_as_bitmaps_rank_as_the_index_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docs_index, "BITMAP_DF", 10**9)  # every coverage check asked of the index
    asked = _answers(docs_index.DocsIndex(store.bundled_path()))
    monkeypatch.setattr(docs_index, "BITMAP_DF", 1)  # every term's sections from a bitmap
    monkeypatch.setattr(docs_index, "BITMAPS", 3)  # and most of them dropped again and read anew
    index = docs_index.DocsIndex(store.bundled_path())
    assert _answers(index) == asked
    assert asked[0] and all(hits for hits in asked)
    assert len(index._bitmaps) <= 3


@needs_bundled
def test_a_search_loads_neither_the_page_reader_nor_tarfile() -> None:
    code = (
        "import sys\n"
        "from sap_devs.docs.store import current\n"
        "current().search('CDS association with an on condition')\n"
        "print(sorted(m for m in sys.modules if m in ('sap_devs.docs.ingest', 'tarfile')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert result.stdout.strip() == "[]"


@needs_bundled
def test_the_warm_up_opens_the_documentation_index() -> None:
    store.reset()
    server.warm_up_docs()
    assert store._open is not None and store._open[2] is store.current()


def test_a_warm_up_without_an_index_leaves_the_error_to_the_search(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def missing() -> None:
        raise SapDevsError("The SAP documentation index is not installed.")

    monkeypatch.setattr(store, "current", missing)
    with caplog.at_level(logging.DEBUG, logger="sap_devs.mcp.server"):
        server.warm_up_docs()
    assert "documentation index warm-up failed" in caplog.text
