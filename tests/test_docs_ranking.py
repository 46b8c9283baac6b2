"""What an agent sees of a documentation hit: the passage that answers, how strong the match is, the page's
flavour (a V4 question gets the V4 page), one slot per page, and an index that takes one changed source
without re-reading the others."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from sap_devs.docs import flavours, store
from sap_devs.docs import index as docs_index
from sap_devs.docs.build import build_from
from sap_devs.docs.index import DocsIndex, updatable, update
from sap_devs.docs.ingest import load_source
from sap_devs.docs.sources import BY_REPO
from tests.test_docs import _tarball, call
from tests.test_docs_postings import assert_arrays_match_fts5

pytestmark = pytest.mark.anyio
UI5_DOCS = "docs/06_SAP_Fiori_Elements"

V2_DRAFT = f"""<!-- loio{"b0eb3cc0e69a46ef99735c58566a7bf8"} -->

# Draft Handling

You can configure how your SAP Fiori elements app handles drafts and draft handling.

> This topic is relevant to SAP Fiori elements for OData V2. For information about SAP Fiori elements for
OData V4, see [Draft Handling](draft-handling-0ff0002.md).

## Configuring Draft Handling

Draft handling: set the draft handling options of the app, draft handling for every entity, draft handling
in the manifest.
"""

V4_DRAFT = f"""<!-- loio{"ed9aa41c563a44b18701529c8327db4d"} -->

# Draft Handling

You can configure drafts of SAP Fiori elements apps on OData V4.

## Settings

The editFlow API controls the draft.
"""

CAP_PAGES = {
    "java/remote-services.md": "# Remote Services\n\nCall a remote OData service from CAP Java with Spring.\n",
    "node.js/remote-services.md": "# Remote Services\n\nCall a remote OData service, remote service, remote call.\n",
    "guides/intro.md": (
        "# Configuring the Outbox\n\nSome general words about the project.\n\n"
        "## Background\n\nNothing here about it.\n\n"
        "## Persistent outbox\n\nThe persistent outbox stores messages in the database before sending.\n\n"
        "## Outbox retries\n\nThe outbox retries sending messages with an exponential backoff.\n\n"
        "## Unrelated\n\nSomething else entirely.\n"
    ),
    "guides/later.md": (
        "# Tips\n\nGeneral tips.\n\n## Many things\n\nLorem ipsum.\n\n"
        "## Tenant upgrade\n\nTo upgrade a tenant database run cds-mtx upgrade for each tenant.\n"
    ),
}


# a long page SAP-docs publishes twice under two loios, and a page whose V2 and V4 variants share nearly
# every line (only the flavour sentence differs)
_AUDIT = " ".join(
    f"Step {n}: the security audit log viewer lists the quokka events of subaccount {n} for retention."
    for n in range(1, 30)
)
TWINS = {
    "docs/04_Essentials/retrieving-security-audit-log-0ff0004.md": f"<!-- loio{'a' * 32} -->\n\n"
    f"# Retrieving the Security Audit Log\n\n{_AUDIT}\n",
    "docs/10_More/retrieving-security-audit-log-0ff0005.md": f"<!-- loio{'b' * 32} -->\n\n"
    f"# Retrieving the Security Audit Log\n\n{_AUDIT}\n",
}
_HEADER = " ".join(f"Row {n} of the wombat table header shows the title and item count {n}." for n in range(1, 30))
for _loio, _version in (("c", "V2"), ("d", "V4")):
    TWINS[f"{UI5_DOCS}/setting-the-table-header-0ff000{_loio}.md"] = (
        f"<!-- loio{_loio * 32} -->\n\n# Setting the Table Header\n\n"
        f"This topic is relevant for SAP Fiori elements for OData {_version}.\n\n{_HEADER}\n"
    )


# pages on other things, so that words have the weight they have in a real index
FILLER = {
    f"docs/99_Other/page-{n}-{n:07x}.md": f"<!-- loio{n:032x} -->\n\n# Other topic {n}\n\nCharts, themes and icons {n}.\n"
    for n in range(1, 9)
}


@pytest.fixture
def flavour_index(tmp_path: Path) -> DocsIndex:
    ui5 = _tarball(
        tmp_path,
        "SAP-docs/sapui5",
        {
            f"{UI5_DOCS}/draft-handling-0ff0001.md": V2_DRAFT,
            f"{UI5_DOCS}/draft-handling-0ff0002.md": V4_DRAFT,
            # the same page in two guide folders (one loio, one file name): it must take one slot only
            "docs/04_Essentials/odata-v4-model-0ff0003.md": "<!-- loio5de13cf4dd1f4a3480f7e2eaaee3f5b8 -->\n\n"
            "# OData V4 Model\n\nThe OData V4 model supports list bindings with a unique zebra.\n",
            "docs/10_More/odata-v4-model-0ff0003.md": "<!-- loio5de13cf4dd1f4a3480f7e2eaaee3f5b8 -->\n\n"
            "# OData V4 Model\n\nThe OData V4 model supports list bindings with a unique zebra.\n",
            **TWINS,
            **FILLER,
        },
    )
    cap = _tarball(tmp_path, "capire/docs", CAP_PAGES)
    out = tmp_path / "docs.sqlite"
    build_from({"SAP-docs/sapui5": (ui5, "bundled", None), "capire/docs": (cap, "bundled", None)}, out)
    return DocsIndex(out)


def _paths(index: DocsIndex, query: str) -> list[str]:
    return [h.path for h in index.search(query)[0]]


def _ui5_index(tmp_path: Path, pages: dict[str, str]) -> DocsIndex:
    """An index of SAP-docs/sapui5 with ``pages`` (path -> Markdown) beside the filler pages."""
    ui5 = _tarball(tmp_path, "SAP-docs/sapui5", {**pages, **FILLER})
    out = tmp_path / "docs.sqlite"
    build_from({"SAP-docs/sapui5": (ui5, "bundled", None)}, out)
    return DocsIndex(out)


# --- flavours ----------------------------------------------------------------------------------------


def test_pages_know_their_flavour_from_title_opening_or_path() -> None:
    assert flavours.of_page(f"{UI5_DOCS}/draft-handling-0ff0001.md", "Draft Handling", V2_DRAFT) == {"odata-v2"}
    assert flavours.of_page(f"{UI5_DOCS}/draft-handling-0ff0002.md", "Draft Handling", V4_DRAFT) == {"odata-v4"}
    assert flavours.of_page("java/messaging.md", "Messaging", "x") == {"cap-java"}
    assert flavours.of_page("docs/x.md", "Extending SAP S/4HANA in the Cloud Foundry and Kyma Environment", "") == set()
    assert flavours.of_page("guides/x.md", "Domain Modeling", "Entities and types.") == set()
    assert flavours.of_query("migrate a fiori elements app from V2 to V4") == {"odata-v2", "odata-v4"}
    assert flavours.of_query("pods in kyma reach on premise") == {"kyma"}
    assert flavours.of_query("cds association on condition") == set()


def test_the_versions_of_kyma_apirules_are_not_odata_versions() -> None:
    """Kyma's API Gateway docs title pages "APIRule v2" and "Migrate ... v1beta1 to Version v2": a V4 question
    must not be steered away from them, nor an APIRule question towards OData V2 pages."""
    migrate = "Migrating APIRule `v1beta1` of Type **jwt** to Version `v2`"
    assert flavours.of_page("docs/user/apirule-migration/01-83-migrate-jwt-v1beta1-to-v2.md", migrate, "") == set()
    assert flavours.of_page("docs/user/custom-resources/apirule/04-70-changes-in-apirule-v2.md", "Changes", "") == set()
    assert flavours.of_query("apirule v2 has no rules after migration from v1beta1") == set()
    assert flavours.of_query("odata v2 model batch requests") == {"odata-v2"}


def test_a_java_exception_class_names_java_and_an_abap_one_does_not() -> None:
    assert flavours.of_query("DestinationAccessException: Failed to get destination") == {"cap-java"}
    for abap in ("ZCX_MYEXCEPTION is raised", "zcx_myexception", "CX_SY_ZERODIVIDE exception", "an exception"):
        assert flavours.of_query(abap) == set(), abap


def test_a_v4_question_gets_the_v4_page_first_and_a_v2_question_the_v2_page(
    flavour_index: DocsIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    v2, v4 = f"{UI5_DOCS}/draft-handling-0ff0001.md", f"{UI5_DOCS}/draft-handling-0ff0002.md"
    assert _paths(flavour_index, "fiori elements v4 draft handling")[0] == v4
    assert _paths(flavour_index, "fiori elements odata v2 draft handling")[0] == v2
    hit = flavour_index.search("fiori elements v4 draft handling")[0][0]
    assert hit.flavours == ("odata-v4",)
    # the V2 page's words match better: without the flavour it would come first
    monkeypatch.setattr(docs_index, "FLAVOUR_WEIGHT", 1.0)
    assert _paths(flavour_index, "fiori elements v4 draft handling")[0] == v2


def test_a_java_question_gets_the_cap_java_page_and_a_plain_one_is_not_demoted(flavour_index: DocsIndex) -> None:
    assert _paths(flavour_index, "cap java call a remote service")[0] == "java/remote-services.md"
    assert _paths(flavour_index, "remote service call")[0] == "node.js/remote-services.md"  # its words win


# --- duplicates ----------------------------------------------------------------------------------------


def test_a_page_published_in_two_guide_folders_takes_one_slot(flavour_index: DocsIndex) -> None:
    hits, total = flavour_index.search("odata v4 model list binding zebra")
    names = [h.path.rsplit("/", 1)[-1] for h in hits]
    assert names.count("odata-v4-model-0ff0003.md") == 1 and total == len(hits)


def test_the_same_page_under_two_loios_takes_one_slot_and_names_where_else_it_is_published(
    flavour_index: DocsIndex,
) -> None:
    hits, total = flavour_index.search("security audit log quokka events retention")
    audit = [h for h in hits if "retrieving-security-audit-log" in h.path]
    assert len(audit) == 1 and total == len(hits)
    assert [path.rsplit("/", 1)[-1] for _, path, _ in audit[0].also] == [
        (
            {"retrieving-security-audit-log-0ff0004.md", "retrieving-security-audit-log-0ff0005.md"}
            - {audit[0].path.rsplit("/", 1)[-1]}
        ).pop()
    ]
    assert audit[0].also[0][2].startswith("https://ui5.sap.com/#/topic/")


def test_near_identical_pages_of_two_flavours_stay_two_results(flavour_index: DocsIndex) -> None:
    hits, _ = flavour_index.search("wombat table header item count")
    headers = [h for h in hits if "setting-the-table-header" in h.path]
    assert len(headers) == 2 and all(not h.also for h in headers)
    assert {h.flavours for h in headers} == {("odata-v2",), ("odata-v4",)}


# --- the passage that answers and its strength ------------------------------------------------------


def test_the_snippet_is_the_section_that_answers_not_the_opening(flavour_index: DocsIndex) -> None:
    hit = flavour_index.search("upgrade tenant database cds-mtx")[0][0]
    assert hit.path == "guides/later.md" and hit.section.endswith("Tenant upgrade")
    assert hit.snippet.startswith("To upgrade a tenant database") and hit.sections == (hit.section,)


def test_a_match_over_two_neighbouring_sections_names_both(flavour_index: DocsIndex) -> None:
    hit = flavour_index.search("outbox persistent retries sending messages")[0][0]
    assert hit.path == "guides/intro.md"
    assert [s.rsplit(" > ", 1)[-1] for s in hit.sections] == ["Persistent outbox", "Outbox retries"]


def test_match_strength_tells_a_weak_hit_from_a_good_one(flavour_index: DocsIndex) -> None:
    good = flavour_index.search("upgrade tenant database")[0][0]
    assert good.match == "strong" and good.strength == 1.0
    weak = flavour_index.search("upgrade kubernetes helm chart ingress certificate rotation")[0][0]
    assert weak.match == "weak" and weak.strength < docs_index.PARTIAL


async def test_search_docs_and_read_doc_give_the_answering_sections(
    flavour_index: DocsIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "bundled_path", lambda: flavour_index.path)
    store.reset()
    try:
        is_error, text, found = await call("search_docs", query="outbox persistent retries sending messages")
        assert not is_error, text
        first = found["results"][0]  # type: ignore[index]
        assert first["match"] in ("strong", "partial") and 0 < first["strength"] <= 1
        assert len(first["sections"]) == 2 and first["flavours"] == []
        is_error, text, page = await call("read_doc", id=first["id"], sections=first["sections"])
        assert not is_error, text
        content = page["content"]  # type: ignore[index]
        assert content.startswith("## Persistent outbox") and "## Outbox retries" in content
        assert "Background" not in content and "Unrelated" not in content
        assert page["section"] == " | ".join(first["sections"])  # type: ignore[index]
        is_error, text, _ = await call("read_doc", id=first["id"], section="x", sections=["y"])
        assert is_error and "not both" in text
        _, _, v4 = await call("search_docs", query="draft handling in fiori elements for odata v4")
        assert v4["results"][0]["flavours"] == ["odata-v4"]  # type: ignore[index]
    finally:
        store.reset()


# --- replacing one source in place ---------------------------------------------------------------------


def test_updating_one_source_leaves_the_others_untouched_and_forgets_its_old_pages(
    tmp_path: Path, flavour_index: DocsIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert updatable(flavour_index.path)
    cap = BY_REPO["capire/docs"]
    (tmp_path / "new").mkdir()
    new_tar = _tarball(tmp_path / "new", "capire/docs", {"guides/narwhal.md": "# Narwhal\n\nA narwhal guide.\n"}, "fff")
    commit, pages, redirects = load_source(cap, str(new_tar))

    def no_reading(repo: str):  # the unchanged source's pages are not analysed again
        if repo != "capire/docs":
            raise AssertionError(f"{repo} was read again")
        return real(repo)

    real = docs_index.questions.for_source
    monkeypatch.setattr(docs_index.questions, "for_source", no_reading)
    out = tmp_path / "updated.sqlite"
    counts = update(
        flavour_index.path,
        out,
        [(cap, commit, pages, "synced", "now", redirects)],
        keep=["SAP-docs/sapui5"],
        prepare=lambda: None,
    )
    monkeypatch.undo()
    updated = DocsIndex(out)
    assert counts == {"pages": 17, "sections": updated.counts()[1]}
    assert _paths(updated, "narwhal") == ["guides/narwhal.md"]
    assert sum("security-audit-log" in p for p in _paths(updated, "security audit log quokka")) == 1  # twins kept
    assert _paths(updated, "remote service call") == []  # capire's old pages are gone, terms and all
    assert _paths(updated, "fiori elements v4 draft handling")[0].endswith("0ff0002.md")
    info = {s.repo: (s.commit, s.origin) for s in updated.sources()}
    assert info == {"capire/docs": ("fff", "synced"), "SAP-docs/sapui5": ("abc1234def", "bundled")}
    con = sqlite3.connect(out)
    con.execute("INSERT INTO fts(fts, rank) VALUES ('integrity-check', 1)")  # raises on a corrupt FTS index
    con.execute("INSERT INTO asked(asked, rank) VALUES ('integrity-check', 1)")
    assert_arrays_match_fts5(con)  # the stored term arrays forgot the old pages' rows and hold the new ones
    assert_arrays_match_fts5(con, docs_index.ASKED_WEIGHTS, "asked")
    # the written questions of capire's old pages left with them; none is left pointing at a page that is gone
    before = sqlite3.connect(flavour_index.path)
    old_pages = {p for (p,) in before.execute("SELECT id FROM pages WHERE source = 'capire/docs'")}
    old_rows = [r for (r,) in before.execute("SELECT rowid FROM asked")]
    before.close()
    pages = {p for (p,) in con.execute("SELECT id FROM pages")}
    rows = [r for (r,) in con.execute("SELECT rowid FROM asked")]
    con.close()
    assert any(r >> docs_index.ASKED_SHIFT in old_pages for r in old_rows)  # the test has questions to forget
    assert all(r >> docs_index.ASKED_SHIFT in pages for r in rows)
    assert len(rows) == len([r for r in old_rows if r >> docs_index.ASKED_SHIFT not in old_pages])


def test_an_index_whose_terms_were_made_otherwise_is_not_updated_in_place(flavour_index: DocsIndex, tmp_path) -> None:
    copy = tmp_path / "other.sqlite"
    copy.write_bytes(flavour_index.path.read_bytes())
    con = sqlite3.connect(copy)
    con.execute("UPDATE meta SET value = 'older' WHERE key = 'terms'")
    con.commit()
    con.close()
    assert not updatable(copy) and not updatable(tmp_path / "missing.sqlite")


def test_a_synced_index_of_the_previous_format_is_set_aside_for_the_bundled_one(
    flavour_index: DocsIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    store.reset()
    synced = store.synced_path()
    synced.parent.mkdir(parents=True, exist_ok=True)
    synced.write_bytes(flavour_index.path.read_bytes())
    con = sqlite3.connect(synced)
    con.execute("UPDATE meta SET value = '3' WHERE key = 'format'")  # written before pages had flavours
    con.commit()
    con.close()
    monkeypatch.setattr(store, "bundled_path", lambda: flavour_index.path)
    try:
        assert store.current().path == flavour_index.path
        assert "another sap-devs version" in caplog.text and not updatable(synced)
    finally:
        store.reset()


def test_twins_are_found_again_for_the_pages_an_update_changed(tmp_path: Path, flavour_index: DocsIndex) -> None:
    ui5 = BY_REPO["sap-docs/sapui5"]
    rewritten = dict(TWINS)
    rewritten["docs/10_More/retrieving-security-audit-log-0ff0005.md"] = (
        f"<!-- loio{'b' * 32} -->\n\n# Retrieving the Security Audit Log\n\n"
        "The quokka audit log of the ABAP environment is read with the security audit log events app.\n"
    )
    rewritten["docs/11_New/retrieving-security-audit-log-0ff0007.md"] = rewritten[  # a new copy of the first
        "docs/04_Essentials/retrieving-security-audit-log-0ff0004.md"
    ].replace("a" * 32, "e" * 32)
    (tmp_path / "new").mkdir()
    new_tar = _tarball(tmp_path / "new", "SAP-docs/sapui5", {**rewritten, **FILLER}, "eee")
    commit, pages, redirects = load_source(ui5, str(new_tar))
    out = tmp_path / "updated.sqlite"
    update(
        flavour_index.path,
        out,
        [(ui5, commit, pages, "synced", "now", redirects)],
        keep=["capire/docs"],
        prepare=lambda: None,
    )
    audit = [h for h in DocsIndex(out).search("security audit log quokka events")[0] if "audit-log" in h.path]
    assert len(audit) == 2  # the rewritten page apart, the new copy one result with the first
    also = {path.rsplit("/", 1)[-1] for h in audit for _, path, _ in h.also}
    assert also & {"retrieving-security-audit-log-0ff0004.md", "retrieving-security-audit-log-0ff0007.md"}
    assert not any("0ff0005" in h.path for h in audit if h.also)


# SAP's Help Portal republishes kyma-project's module pages edited: the title reworded, a third of the text
# its own; within one repository two pages of one title that share as much are siblings, not one page
_ROTATION = [
    f"Rotation step {n}: the platypus binding secret of namespace {n} is renewed by the operator." for n in range(30)
]
_EDITED = [s if n % 3 else f"In SAP BTP, note {n} about the platypus secret." for n, s in enumerate(_ROTATION)]
_LIMITS = [f"Limit {n}: the echidna quota of subaccount {n} allows that many instances." for n in range(30)]
_OTHER_LIMITS = [
    s if n % 3 else f"For the global account, limit {n} of the echidna differs." for n, s in enumerate(_LIMITS)
]


def test_a_page_republished_edited_in_another_repository_takes_one_slot(tmp_path: Path) -> None:
    istio = _tarball(
        tmp_path,
        "kyma-project/istio",
        {"docs/user/rotate-bindings.md": "# Rotate Service Bindings\n\n" + " ".join(_ROTATION) + "\n"},
    )
    btp = _tarball(
        tmp_path,
        "SAP-docs/btp-cloud-platform",
        {
            "docs/30-development/rotating-service-bindings-0ff0010.md": f"<!-- loio{'1' * 32} -->\n\n"
            "# Rotating Service Bindings\n\n" + " ".join(_EDITED) + "\n",
            "docs/30-development/echidna-quotas-0ff0011.md": f"<!-- loio{'2' * 32} -->\n\n"
            "# Echidna Quotas\n\n" + " ".join(_LIMITS) + "\n",
            "docs/50-admin/echidna-quotas-0ff0012.md": f"<!-- loio{'3' * 32} -->\n\n"
            "# Echidna Quotas\n\n" + " ".join(_OTHER_LIMITS) + "\n",
            **FILLER,
        },
    )
    out = tmp_path / "docs.sqlite"
    build_from(
        {"kyma-project/istio": (istio, "bundled", None), "SAP-docs/btp-cloud-platform": (btp, "bundled", None)}, out
    )
    index = DocsIndex(out)
    hits = index.search("rotate platypus binding secret")[0]
    assert len(hits) == 1 and {hits[0].path, *(path for _, path, _ in hits[0].also)} == {
        "docs/user/rotate-bindings.md",
        "docs/30-development/rotating-service-bindings-0ff0010.md",
    }
    siblings = index.search("echidna quota limit")[0]
    assert sorted(h.path.rsplit("/", 1)[-1] for h in siblings) == [
        "echidna-quotas-0ff0011.md",
        "echidna-quotas-0ff0012.md",
    ]
    assert not any(h.also for h in siblings)


def test_a_section_that_says_the_question_words_next_to_each_other_ranks_first(tmp_path: Path) -> None:
    # the shorter page holds the words apart; the other says "wombat catalog" as the question does
    scattered = "# Nightly Jobs\n\nA wombat team: export each catalog.\n"
    adjacent = "# Nightly Jobs\n\nTo export a wombat catalog, run the nightly job app.\n"
    index = _ui5_index(
        tmp_path,
        {
            "docs/10_More/nightly-jobs-0ff0020.md": f"<!-- loio{'7' * 32} -->\n\n{scattered}",
            "docs/11_Other/nightly-jobs-0ff0021.md": f"<!-- loio{'8' * 32} -->\n\n{adjacent}",
        },
    )
    assert _paths(index, "export the wombat catalog")[0].endswith("0ff0021.md")


def test_an_overview_page_answers_what_something_is_not_how_to_do_it(tmp_path: Path) -> None:
    overview = (
        "# What Is the Quokka Service\n\nThe quokka service keeps quokka quotas. Set quokka quotas, raise quokka "
        "quotas and read quokka quotas: the quokka service does all of it.\n"
    )
    task = "# Quotas in the Cockpit\n\nTo set a quokka quota, open the cockpit, choose the subaccount and enter it.\n"
    index = _ui5_index(
        tmp_path,
        {
            "docs/10_More/what-is-the-quokka-service-0ff0040.md": f"<!-- loio{'4' * 32} -->\n\n{overview}",
            "docs/10_More/setting-quokka-quotas-0ff0041.md": f"<!-- loio{'5' * 32} -->\n\n{task}",
        },
    )
    assert _paths(index, "set the quokka quota")[0].endswith("0ff0041.md")
    assert _paths(index, "what is the quokka service")[0].endswith("0ff0040.md")


def test_the_cloud_sdk_pages_answer_questions_about_its_code_not_the_platform(tmp_path: Path) -> None:
    sdk = _tarball(
        tmp_path,
        "SAP/cloud-sdk",
        {
            "docs-java/features/connectivity/009-wombat.mdx": "---\nid: wombat\ntitle: Wombat Destinations\n---\n\n"
            "Read a wombat destination: the wombat destination lookup of the SDK.\n"
        },
    )
    connectivity = _tarball(
        tmp_path,
        "SAP-docs/btp-connectivity",
        {
            "docs/1-connectivity-documentation/wombat-destinations-0ff0050.md": f"<!-- loio{'6' * 32} -->\n\n"
            "# Destinations for Wombats\n\nCreate the wombat destination in the cockpit; its lookup needs a token.\n",
            **FILLER,
        },
    )
    out = tmp_path / "docs.sqlite"
    build_from(
        {"SAP/cloud-sdk": (sdk, "bundled", None), "SAP-docs/btp-connectivity": (connectivity, "bundled", None)}, out
    )
    index = DocsIndex(out)
    assert _paths(index, "wombat destination lookup")[0].endswith("0ff0050.md")
    assert _paths(index, "wombat destination lookup in Java")[0].endswith("009-wombat.mdx")
    assert _paths(index, "wombat destination lookup with the Cloud SDK")[0].endswith("009-wombat.mdx")


def test_the_snippet_is_the_passage_holding_the_question_and_reads_on_past_it() -> None:
    filler = "\n".join(f"Line {i} says nothing of interest." for i in range(250))
    body = f"{filler}\n```\nquokka quota in code\n```\nRaise the quokka quota in the cockpit.\nIt applies at once.\n{filler}"
    got = docs_index.snippet(body, {"quokka", "quota", "cockpit"})
    assert got.startswith("Raise the quokka quota in the cockpit. It applies at once. Line 0 says")
    assert len(got) <= docs_index.SNIPPET_CHARS


def test_a_snippet_of_a_long_body_scores_its_first_passages_only() -> None:
    body = "\n".join(f"Passage {i} is filler." for i in range(400)) + "\nThe quokka quota is here."
    assert docs_index.snippet(body, {"quokka", "quota"}).startswith("Passage 0 is filler. Passage 1")


def test_a_questions_contractions_are_not_words_a_page_must_hold(tmp_path: Path) -> None:
    # "doesn't" and "can't" are "does not" and "can not", not the terms "doesn" and "t": a page that chats in
    # contractions must not be the better match for them
    chatty = "# Wombat Moods\n\nA wombat doesn't export; it can't, don't ask, it doesn't want to export.\n"
    answer = "# Starting the Wombat Export\n\nTo start the wombat export, open the export job and start it.\n"
    index = _ui5_index(
        tmp_path,
        {
            "docs/10_More/wombat-moods-0ff0060.md": f"<!-- loio{'9' * 32} -->\n\n{chatty}",
            "docs/10_More/starting-the-wombat-export-0ff0061.md": f"<!-- loio{'a1' * 16} -->\n\n{answer}",
        },
    )
    assert _paths(index, "the wombat export doesn't start, can't see why")[0].endswith("0ff0061.md")


def test_a_question_in_developers_short_forms_finds_the_page_that_writes_them_out(tmp_path: Path) -> None:
    # "auth" and "config" as developers write them, "authentication" and "configure" as the documentation does
    feeding = "# Feeding Wombats\n\nA wombat eats grass. Wombat keepers feed each wombat twice a day.\n"
    setup = "# Wombat Authentication\n\nTo configure basic authentication for the wombat API, set the user.\n"
    index = _ui5_index(
        tmp_path,
        {
            "docs/10_More/feeding-wombats-0ff0070.md": f"<!-- loio{'b2' * 16} -->\n\n{feeding}",
            "docs/10_More/wombat-authentication-0ff0071.md": f"<!-- loio{'c3' * 16} -->\n\n{setup}",
        },
    )
    assert _paths(index, "wombat auth config")[0].endswith("0ff0071.md")
