"""Product hints: a question naming an SAP product ("... in CAP", "CPI", "Credential Store") gets that
product's pages first, even where another product's page shares more of its words; the other pages stay."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.docs import hints
from sap_devs.docs import index as docs_index
from sap_devs.docs.build import build_from
from sap_devs.docs.index import DocsIndex
from sap_devs.search.analysis import analyze
from tests.test_docs import _tarball

UI5_PAGE = (
    "<!-- loio0123456789abcdef0123456789abcdef -->\n\n# Editing Objects\n\n"
    "When a second user changes a record you are editing on the object page, your save fails with a message.\n"
)
CAP_PAGE = "# Optimistic Locking\n\nWith ETags the save of a second user who changes a record fails with status 412, Precondition Failed, on the server of the service.\n"
FILLER = {
    f"docs/99_Other/page-{n}-{n:07x}.md": f"<!-- loio{n:032x} -->\n\n# Other topic {n}\n\nCharts and icons {n}.\n"
    for n in range(1, 25)  # enough pages that a word of two of them is a telling one
}


@pytest.fixture
def index(tmp_path: Path) -> DocsIndex:
    ui5 = _tarball(
        tmp_path, "SAP-docs/sapui5", {"docs/04_Essentials/concurrent-changes-0ff0001.md": UI5_PAGE, **FILLER}
    )
    cap = _tarball(tmp_path, "capire/docs", {"guides/optimistic-locking.md": CAP_PAGE})
    out = tmp_path / "docs.sqlite"
    build_from({"SAP-docs/sapui5": (ui5, "bundled", None), "capire/docs": (cap, "bundled", None)}, out)
    return DocsIndex(out)


def test_a_question_naming_its_product_gets_that_products_page_first(
    index: DocsIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "a second user changes the record and my save fails, in cap"
    assert [h.source for h in index.search(question)[0]] == ["capire/docs", "SAP-docs/sapui5"]
    # the UI5 page holds more of the question's words: without the hint it comes first
    monkeypatch.setattr(docs_index, "HINT_BOOST", 1.0)
    assert index.search(question)[0][0].source == "SAP-docs/sapui5"


def test_a_question_naming_no_product_is_ranked_on_its_words(index: DocsIndex) -> None:
    assert index.search("a second user changes the record and my save fails")[0][0].source == "SAP-docs/sapui5"


def test_hints_are_the_products_a_question_names_by_official_name_or_abbreviation() -> None:
    def named(question: str) -> set[str]:
        return set(hints.of_query(analyze(question)))

    assert named("encrypt the outgoing file with PGP in CPI") == {"sap-docs/btp-integration-suite"}
    assert named("SAP Cloud Integration iflow retries") == {"sap-docs/btp-integration-suite"}
    assert named("call the Credential Store API with mTLS") == {"sap-docs/btp-credential-store"}
    assert named("users from IAS in my CAP app") == {"sap-docs/btp-cloud-identity-services", "capire/docs"}
    # a product's name split over the question is not the product; words of a name alone are no hint
    assert named("store the credential in a variable") == set()
    assert named("a credential for the object store") == {"sap-docs/btp-object-store"}
    assert named("upload the ui5 app and the abap class") == set()  # context words, every other page has them
