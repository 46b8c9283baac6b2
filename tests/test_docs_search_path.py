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

# frequent words beside rare ones, a typo (its alternatives) and a product filter
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
def test_coverage_read_from_the_stored_arrays_ranks_as_fts5_answers() -> None:
    index = docs_index.DocsIndex(store.bundled_path())
    summed = _answers(index)
    assert isinstance(index._scorers, tuple) and index._scorers[0]._memo is None  # the memo ends with the search
    by_fts5 = docs_index.DocsIndex(store.bundled_path())
    by_fts5._scorers = None  # every coverage check, bm25 and written question asked of FTS5
    assert _answers(by_fts5) == summed
    assert summed[0] and all(hits for hits in summed)


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
