"""Tutorial search: tutorials published after the platform's list are shown, unpublished ones stay
hidden unless asked for (and a search that hits one says so), and acronyms meet their spelled-out names."""

from __future__ import annotations

import json

import pytest

from sap_devs.core import cache
from sap_devs.live.sync import run_sync
from sap_devs.live.tutorials import index as tutorials
from sap_devs.live.tutorials import sync as tutorials_sync
from sap_devs.live.tutorials.index import Tutorial
from sap_devs.search import analyze
from tests.loopback import Loopback
from tests.test_sync import bases_for, loopback_source
from tests.tools.test_knowledge_tools import ok

pytestmark = pytest.mark.anyio

# added to developer-advocates and btp-foundation in July and August 2026, after the discovery list
# bundled with sap-devs was written (tutorials-ims, last changed 2026-07-01)
PUBLISHED_AFTER_THE_LIST = [
    ("CAP MCP server", "cap-add-mcp-capabilities"),
    ("cds repl", "cap-intro-to-repl"),
    ("status transition flow", "cap-status-transition-flows"),
    ("mock authentication CAP", "cap-mocking-auth"),
    ("kyma autoscaling cloud logging", "cp-kyma-scale-with-cls"),
]
# in the list until June 2026, then dropped, although our (December 2025) copy of its repository has it
DROPPED = ("build apps barcode scanner", "codejam-12-scan-barcode")


def url(slug: str) -> str:
    return f"https://developers.sap.com/tutorials/{slug}.html"


@pytest.mark.parametrize(("query", "slug"), PUBLISHED_AFTER_THE_LIST)
async def test_tutorials_published_after_the_list_are_found(bundled_ctx, query: str, slug: str) -> None:
    out = await ok("search_tutorials", {"query": query, "limit": 5}, bundled_ctx)
    slugs = [r["slug"] for r in out["results"]]
    assert slug in slugs[:3], slugs


async def test_a_tutorial_the_platform_dropped_is_named_but_not_listed(bundled_ctx) -> None:
    query, slug = DROPPED
    out = await ok("search_tutorials", {"query": query, "limit": 5}, bundled_ctx)
    assert slug not in [r["slug"] for r in out["results"]]
    assert f"{slug} ('12 - Enable App to Select Product by Scanning Barcode'; dropped" in out["hint"]
    assert "sap-tutorials/sap-build-apps" in out["hint"]
    index = tutorials.load_index().items
    assert slug in [t.slug for t in tutorials.search(index, query, include_drafts=True)][:3]


def test_every_bundled_tutorial_with_full_metadata_is_shown_unless_the_platform_dropped_it() -> None:
    index = tutorials.load_index().items
    hidden = [t for t in index if not t.live]
    assert {t.status for t in hidden} <= {"withdrawn", "draft"}
    full = [t for t in index if tutorials.has_full_metadata(t.model_dump()) and t.status != "withdrawn"]
    assert full and all(t.live for t in full), [t.slug for t in full if not t.live]
    assert {slug for _, slug in PUBLISHED_AFTER_THE_LIST} <= {t.slug for t in index if t.status == "new"}


def test_a_draft_stays_hidden_unless_drafts_are_included() -> None:
    index = [
        Tutorial(slug="cap-kyma-helm", title="Deploy CAP to Kyma with Helm", url=url("cap-kyma-helm"), status="new"),
        Tutorial(slug="cap-kyma-wip", title="Deploy CAP to Kyma", url=url("cap-kyma-wip"), status="draft"),
    ]
    assert [t.slug for t in tutorials.search(index, "deploy CAP to Kyma")] == ["cap-kyma-helm"]
    found = tutorials.search(index, "deploy CAP to Kyma", include_drafts=True)
    assert {t.slug for t in found} == {"cap-kyma-helm", "cap-kyma-wip"}


async def test_a_synced_draft_is_hidden_and_named_by_the_tool(bundled_ctx) -> None:
    records = [
        {
            "slug": "cap-kyma-helm",
            "title": "Deploy CAP to Kyma with Helm",
            "url": url("cap-kyma-helm"),
            "status": "new",
        },
        {"slug": "cap-kyma-wip", "title": "Deploy CAP to Kyma", "url": url("cap-kyma-wip"), "status": "draft"},
    ]
    cache.write("tutorials/index", {"repos": {}, "tutorials": records})
    out = await ok("search_tutorials", {"query": "deploy CAP to Kyma"}, bundled_ctx)
    assert [r["slug"] for r in out["results"]] == ["cap-kyma-helm"]
    assert "cap-kyma-wip ('Deploy CAP to Kyma'; a draft)" in out["hint"]


REPL_MD = b"""---
parser: v2
auto_validation: false
primary_tag: software-product-function>sap-cloud-application-programming-model
tags: [ software-product>sap-business-technology-platform, topic>cloud, tutorial>beginner ]
time: 15
---

# Get an introduction to the cds REPL

<!-- description --> Get to know the cds REPL.

---

### Start the cds REPL
Run `cds repl`.
"""
BARCODE_MD = b"""---
parser: v2
time: 10
tags: [ tutorial>beginner, software-product>sap-build, software-product>sap-build-apps]
primary_tag: software-product>sap-build
---

# 12 - Enable App to Select Product by Scanning Barcode
<!-- description --> Let users select a product by scanning a barcode.

### Add logic to scan barcode
Open the barcode scanner.
"""


async def test_a_synced_index_shows_and_hides_the_same_tutorials(bundled_ctx, monkeypatch) -> None:
    _, known = tutorials_sync._known_repos()  # the bundled statuses, for two of its repositories
    monkeypatch.setattr(tutorials_sync, "_known_repos", lambda: (["developer-advocates", "sap-build-apps"], known))
    with Loopback().running() as server:
        for repo, slug, text in (
            ("developer-advocates", "cap-intro-to-repl", REPL_MD),
            ("sap-build-apps", "codejam-12-scan-barcode", BARCODE_MD),
        ):
            server.add(f"/repos/sap-tutorials/{repo}", body=json.dumps({"default_branch": "main"}).encode())
            tree = {"sha": f"sha-{repo}", "tree": [{"path": f"tutorials/{slug}/{slug}.md"}]}
            server.add(f"/repos/sap-tutorials/{repo}/git/trees/main", body=json.dumps(tree).encode())
            server.add(f"/sap-tutorials/{repo}/main/tutorials/{slug}/{slug}.md", body=text)
        source = loopback_source(tutorials_sync.SOURCE, server)
        [result] = await run_sync([source], bases=bases_for(server), env={})
    assert result.status == "ok" and result.items == 2, result.message
    out = await ok("search_tutorials", {"query": "cds repl"}, bundled_ctx)
    assert [r["slug"] for r in out["results"]] == ["cap-intro-to-repl"]
    assert "snapshot" not in (out.get("hint") or ""), "answered from the synced index"
    out = await ok("search_tutorials", {"query": "barcode scanning"}, bundled_ctx)
    assert out["results"] == [] and "codejam-12-scan-barcode" in out["hint"]


# what developers type, and what the tutorials spell out
ACRONYMS = [
    ("BPA approval workflow", "Build Process Automation approval workflow"),
    ("SBPA approval workflow", "SAP Build Process Automation approval workflow"),
    ("SPA process", "SAP Process Automation process"),
    ("CPI integration flow", "Cloud Integration integration flow"),
    ("IS trial", "Integration Suite trial"),
    ("BAS dev space", "Business Application Studio dev space"),
    ("deploy to CF", "deploy to Cloud Foundry"),
    ("HDI container", "HANA Deployment Infrastructure container"),
    ("IAS trust", "Identity Authentication trust"),
    ("UAA scopes", "XSUAA scopes"),
    ("RAP business object", "ABAP RESTful Application Programming Model business object"),
    ("CAPM service", "Cloud Application Programming Model service"),
    ("EML read entities", "Entity Manipulation Language read entities"),
    ("ATC checks", "ABAP Test Cockpit checks"),
    ("ADT project", "ABAP Development Tools project"),
    ("odata service", "OData service"),
    ("WebIDE project", "Web IDE project"),
    ("SCP trial", "SAP Cloud Platform trial"),
    ("MDK app", "Mobile Development Kit app"),
]


@pytest.mark.parametrize(("acronym", "spelled"), ACRONYMS)
def test_an_acronym_query_finds_the_same_tutorials_as_the_spelled_out_one(acronym: str, spelled: str) -> None:
    index = tutorials.load_index().items
    by_acronym = [t.slug for t in tutorials.search(index, acronym)][:10]
    spelled_out = [t.slug for t in tutorials.search(index, spelled)][:10]
    assert by_acronym and by_acronym == spelled_out


@pytest.mark.parametrize(
    ("title", "query"),
    [
        ("Model an approval with SBPA", "SAP Build Process Automation approval"),
        ("Create an approval in SAP Build Process Automation", "BPA approval"),
        ("Set up an IS tenant", "Integration Suite tenant"),
        ("Set up an SAP Integration Suite tenant", "IS tenant"),
        ("Run ATC checks in ADT", "ABAP Test Cockpit"),
        ("Consume an OData V4 service", "odata v4"),
        ("Deploy an iFlow to SAP Cloud Integration", "CPI iflow"),
    ],
)
def test_a_tutorial_written_either_way_is_found_the_other_way(title: str, query: str) -> None:
    index = [
        Tutorial(slug="the-one", title=title, url=url("the-one")),
        Tutorial(slug="other", title="Build a Fiori elements app on CAP", url=url("other")),
    ]
    assert [t.slug for t in tutorials.search(index, query)] == ["the-one"]


def test_is_means_integration_suite_only_where_a_developer_would_mean_it() -> None:
    assert "suit" in analyze("SAP IS tenant") and "suit" in analyze("IS trial")
    for text in ("IF ref IS BOUND.", "IF lv_x IS NOT INITIAL", "WHAT IS CAP", "IS-U billing", "this is it"):
        assert "suit" not in analyze(text), text


def _build_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "build_baselines.py"
    spec = importlib.util.spec_from_file_location("build_baselines", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_snapshot_build_trusts_the_list_only_where_it_is_newer_than_the_source(tmp_path) -> None:
    def record(slug: str, repo: str, listed: bool, description: str | None = "What you will do.") -> dict:
        return {
            "slug": slug,
            "title": slug.replace("-", " ").title(),
            "description": description,
            "tags": ["tutorial>beginner"],
            "level": "beginner",
            "url": url(slug),
            "repo": f"sap-tutorials/{repo}",
            "in_live_index": listed,
        }

    records = [
        record("listed", "fresh-repo", True),
        record("added-since", "fresh-repo", False),
        record("half-written", "fresh-repo", False, description=None),
        record("dropped", "old-repo", False),
    ]
    listing = {
        s: {"slug": s, "repo": r, "branch": "main"} for s, r in (("listed", "fresh-repo"), ("only-in-list", "x"))
    }
    readme = (
        "| `tutorials-ims/scripts/parsers/discovery-baseline.json` | ... |\n\n"
        "| repo | commit | commit date | records | live | licence |\n| --- | --- | --- | --- | --- | --- |\n"
        "| fresh-repo | 0123456789ab | 2026-08-21 | 3 | 1 | CC-BY-4.0 |\n"
        "| old-repo | ba9876543210 | 2025-12-08 | 1 | 0 | CC-BY-4.0 |\n\n"
        "- `scripts/parsers/discovery-baseline.json` is the platform's record (last changed 2026-07-01).\n"
    )
    (tmp_path / "tutorials-ims" / "scripts" / "parsers").mkdir(parents=True)
    (tmp_path / "tutorials.json").write_text(json.dumps(records), encoding="utf-8")
    (tmp_path / "tutorials-ims" / "scripts" / "parsers" / "discovery-baseline.json").write_text(json.dumps(listing))
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    built = _build_script().build_tutorials(tmp_path)
    got = {r["slug"]: (r["status"], r["live"]) for r in built["tutorials"]}
    assert got == {
        "listed": ("published", True),
        "only-in-list": ("published", True),
        "added-since": ("new", True),
        "half-written": ("draft", False),
        "dropped": ("withdrawn", False),
    }
    assert built["list_as_of"] == "2026-07-01"
