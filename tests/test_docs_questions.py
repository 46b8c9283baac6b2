"""The developer questions indexed beside each documentation page (src/sap_devs/docs/questions/)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sap_devs.docs import api_reference, questions, store
from sap_devs.docs import index as docs_index
from sap_devs.docs.build import build_from
from sap_devs.docs.index import ASKED_BOOST, DocsIndex
from sap_devs.docs.sources import API_REFERENCE, SOURCES
from sap_devs.knowledge.ui5_api import catalog
from tests.test_docs import _tarball

LOIO = "2b8ee62bd2b54c4a9ae1b4e8d0a3f1c7"
TROUBLESHOOT = (
    f"<!-- loio{LOIO} -->\n\n# Troubleshooting the Cloud Connector\n\n"
    "Check the connectivity proxy log and the audit log of the Cloud Connector.\n\n"
    "## Logon Fails\n\nA user without the role cannot open the administration UI.\n\n"
    "## Renewing Certificates\n\nReplace the system certificate before it expires.\n"
)


@pytest.fixture
def asked_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DocsIndex:
    folder = tmp_path / "questions"
    folder.mkdir()
    monkeypatch.setattr(questions, "QUESTIONS_DIR", folder)
    (folder / "SAP-docs+btp-connectivity.tsv").write_text(
        "# written by reading each page\n"
        f"docs/1-connectivity/troubleshooting-{LOIO}.md\tdestination to on-prem system returns 503 | "
        "http 503 from my onpremise backend\n"
        f"docs/1-connectivity/troubleshooting-{LOIO}.md\tTroubleshooting the Cloud Connector > Renewing Certificates\t"
        "scc ui shows expired x.509 cert\n",
        encoding="utf-8",
    )
    filler = {
        f"docs/1-connectivity/page-{n}-{n:032x}.md": f"<!-- loio{n:032x} -->\n\n# Destinations {n}\n\n"
        "A destination names a system and how to log on to it.\n"
        for n in range(4)
    }
    tar = _tarball(
        tmp_path,
        "SAP-docs/btp-connectivity",
        {
            **filler,
            f"docs/1-connectivity/troubleshooting-{LOIO}.md": TROUBLESHOOT,
            f"docs/2-other-guide/troubleshooting-{LOIO}.md": TROUBLESHOOT,  # the same page in a second guide
        },
    )
    out = tmp_path / "docs.sqlite"
    build_from({"SAP-docs/btp-connectivity": (tar, "bundled", None)}, out)
    return DocsIndex(out)


def test_a_page_is_found_by_the_question_it_answers(asked_index: DocsIndex) -> None:
    """Its text never says "503" or "on-prem": a developer's wording still finds it first, and what the agent
    reads is the page's own text, never the questions written for it."""
    hits, _ = asked_index.search("on-prem destination gives 503")
    assert hits[0].title == "Troubleshooting the Cloud Connector"
    assert "connectivity proxy log" in hits[0].snippet and "503" not in hits[0].snippet
    doc = asked_index.read(hits[0].page_id)
    assert "503" not in "".join(text for _, _, text in doc.sections)


def test_a_question_of_one_section_leads_to_that_section(asked_index: DocsIndex) -> None:
    """A long page's later section answers it: the hit names that section and quotes it."""
    hit = asked_index.search("scc expired x.509 cert")[0][0]
    assert hit.title == "Troubleshooting the Cloud Connector"
    assert hit.section.endswith("> Renewing Certificates") and hit.snippet.startswith("Replace the system certificate")


def test_a_page_whose_one_question_says_it_all_gains_more_than_words_spread_over_several(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The developer's question, written for one page as one question, lifts that page by the whole
    ASKED_BOOST; a page whose questions hold the same words spread over several is lifted less."""
    folder = tmp_path / "questions"
    folder.mkdir()
    monkeypatch.setattr(questions, "QUESTIONS_DIR", folder)
    retention, audit = (f"docs/1-connectivity/{name}-{c * 32}.md" for name, c in (("retention", "b"), ("audit", "a")))
    (folder / "SAP-docs+btp-connectivity.tsv").write_text(
        f"{retention}\thow many days does the cloud connector keep its audit log | rotate old files\n"
        f"{audit}\taudit log level | who changed the connector configuration | how many audit entries | "
        "keep a record of logons | days of history in the ui\n",
        encoding="utf-8",
    )
    files = {
        retention: f"<!-- loio{'b' * 32} -->\n\n# Log Retention\n\nOld files are deleted after the configured number of days.\n",
        audit: f"<!-- loio{'a' * 32} -->\n\n# Audit Logging in the Cloud Connector\n\nThe Cloud Connector writes an "
        "audit log of changes. Set the audit log level in the administration UI.\n",
        **{
            f"docs/1-connectivity/page-{n}-{n:032x}.md": f"<!-- loio{n:032x} -->\n\n# Destinations {n}\n\n"
            "A destination names a system and how to log on to it.\n"
            for n in range(30)
        },
    }
    tar = _tarball(tmp_path, "SAP-docs/btp-connectivity", files)
    build_from({"SAP-docs/btp-connectivity": (tar, "bundled", None)}, tmp_path / "docs.sqlite")
    index = DocsIndex(tmp_path / "docs.sqlite")
    question = "how many days does the cloud connector keep the audit log"

    def scores() -> dict[str, float]:
        return {h.title: h.score for h in index.search(question)[0]}

    lifted = scores()
    monkeypatch.setattr(docs_index, "ASKED_BOOST", 0.0)
    plain = scores()
    gain = {title: lifted[title] / plain[title] for title in plain}
    assert gain["Log Retention"] == pytest.approx(1 + ASKED_BOOST)
    assert 1 < gain["Audit Logging in the Cloud Connector"] < gain["Log Retention"]


def test_a_page_published_in_two_guides_gets_its_questions_in_both(asked_index: DocsIndex) -> None:
    pages, _ = asked_index.pages_of("SAP-docs/btp-connectivity")
    rows = [p for p in pages if p.title.startswith("Troubleshooting")]
    assert len(rows) == 2
    found = questions.for_source("SAP-docs/btp-connectivity")
    assert all(found.of(p.path).startswith("destination to on-prem") for p in rows)
    assert found.of("docs/1-connectivity/page-0-" + "0" * 32 + ".md") == ""


def test_a_source_without_a_questions_file_is_indexed_as_before(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(questions, "QUESTIONS_DIR", tmp_path / "none")
    assert questions.for_source("capire/docs").of("guides/x.md") == ""


def test_the_bundled_questions_name_real_pages_and_cover_nearly_all() -> None:
    """A question line for a page the sources no longer have is dead weight; a source with few questions
    would rank its pages below the others'. Every bundled line must name a page, and at least 95% of each
    source's pages must have questions. The API reference is held to the first rule only: its lines name
    symbols (a symbol renamed or dropped by a newer @openui5/types leaves a stale line), but only the symbols
    developers look for have questions (controls, the classes and enums they name), not its 1,800 pages."""
    store.reset()
    index = store.current()
    for source in (*SOURCES, API_REFERENCE):
        pages, _ = index.pages_of(source.repo)
        if not pages:
            continue
        found = questions.for_source(source.repo)
        stale = found.stale(pages)
        assert not stale, f"{source.repo}: questions for pages or sections the source does not have: {stale[:5]}"
        asked = sum(1 for p in pages if found.of(p.path))
        if source.from_package:
            assert asked >= 400, f"{source.repo}: only {asked} symbols have questions"
        else:
            assert asked >= 0.95 * len(pages), f"{source.repo}: {asked} of {len(pages)} pages have questions"
        for path, text in [*found.by_path.items(), *found.by_section.items()]:
            lines = text.splitlines()
            assert 1 <= len(lines) <= 10 and all(len(q) <= 160 for q in lines), f"{source.repo}:{path}: {lines}"


def _symbol_page(name: str) -> api_reference.Page:
    data = catalog.bundled().catalog
    sym = data.by_name[name.lower()]
    return api_reference.page(sym, catalog.ancestors(data, sym))


def test_an_api_symbol_is_found_by_the_question_written_for_it(tmp_path: Path, monkeypatch) -> None:
    """The API reference pages are made from the package's data, not a tarball: their questions, filed under
    the symbol's name, still reach the index. Its page never says "stars", "five" or "review"."""
    folder = tmp_path / "questions"
    folder.mkdir()
    monkeypatch.setattr(questions, "QUESTIONS_DIR", folder)
    names = ("sap.m.RatingIndicator", "sap.m.Slider", "sap.m.StepInput", "sap.m.Input")
    monkeypatch.setattr(api_reference, "pages", lambda: ("@openui5/types test", [_symbol_page(n) for n in names]))
    out = tmp_path / "docs.sqlite"
    build_from({}, out, api_reference=True)
    before = DocsIndex(out)
    hits, _ = before.search("five stars review")
    assert not hits or hits[0].title != "sap.m.RatingIndicator"
    before.close()
    (folder / "UI5+openui5.tsv").write_text(
        "# written by reading each symbol's page\n"
        "sap.m.RatingIndicator\tshow stars for a rating | five star review control\n",
        encoding="utf-8",
    )
    build_from({}, out, api_reference=True)
    index = DocsIndex(out)
    hits, _ = index.search("five stars review")
    assert hits[0].title == "sap.m.RatingIndicator" and hits[0].url.endswith("#/api/sap.m.RatingIndicator")
    assert "stars" not in "".join(text for _, _, text in index.read(hits[0].page_id).sections)


def _script():
    spec = importlib.util.spec_from_file_location(
        "docs_questions", Path(__file__).parents[1] / "scripts" / "docs_questions.py"
    )
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_the_maintenance_script_names_stale_lines_and_pages_without_questions(
    asked_index: DocsIndex, tmp_path: Path, monkeypatch, capsys
) -> None:
    """After a tarball refresh: a line for a page that is gone, and new pages without questions, are what a
    maintainer must see (the bundled-questions test fails on both); the packet holds only the pages to write for."""
    script = _script()
    monkeypatch.setattr(store, "current", lambda: asked_index)
    tsv = questions.QUESTIONS_DIR / "SAP-docs+btp-connectivity.tsv"
    gone = (
        "docs/gone-0123.md\tan old question\n"
        f"docs/1-connectivity/troubleshooting-{LOIO}.md\tTroubleshooting the Cloud Connector > Renamed\tx\n"
    )
    tsv.write_text(tsv.read_text(encoding="utf-8") + gone, encoding="utf-8")
    assert script.check() == 1
    out = capsys.readouterr().out
    assert "FAIL SAP-docs/btp-connectivity: 2 of 6 pages have questions, 2 stale" in out
    script.stale()
    assert capsys.readouterr().out.splitlines() == [
        "SAP-docs+btp-connectivity.tsv\tgone-0123.md",
        f"SAP-docs+btp-connectivity.tsv\ttroubleshooting-{LOIO}.md\tTroubleshooting the Cloud Connector > Renamed",
    ]
    script.packet(tmp_path / "packet")
    text = (tmp_path / "packet" / "SAP-docs+btp-connectivity.md").read_text(encoding="utf-8")
    assert text.count("### ") == 4 and "Troubleshooting" not in text and "[connectivity] Destinations 0" in text
