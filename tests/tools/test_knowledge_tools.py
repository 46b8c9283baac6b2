"""Handlers of the offline knowledge tools, called through the same dispatcher the server uses."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from sap_devs.mcp.dispatch import Outcome, invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from tests.conftest import ctx_for

pytestmark = pytest.mark.anyio
REGISTRY = Registry.default()


async def call(name: str, args: dict[str, Any], ctx: ToolContext) -> Outcome:
    tool = REGISTRY.get(name)
    assert tool is not None
    return await invoke(tool, args, ctx)


async def ok(name: str, args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
    outcome = await call(name, args, ctx)
    assert not outcome.is_error, outcome.text
    assert outcome.structured is not None
    return outcome.structured


ERRORS = """
- id: demo/table-missing
  pattern: "SQLITE_ERROR: no such table: my_bookshop_Books"
  cause: The database was not deployed.
  fix: Run cds deploy.
  tags: [sqlite, cap]
- id: demo/privilege
  pattern: "SQL error 258: insufficient privilege: Not authorized"
  cause: The technical user lacks a privilege.
  fix: Grant the privilege via a .hdbgrants file.
  docs: https://help.sap.com/example
  tags: [hana, hdi]
- id: demo/port
  pattern: "Error: listen EADDRINUSE: address already in use :::4004"
  cause: Another process holds the port.
  fix: Stop it or use PORT=4005.
  tags: [nodejs]
"""


@pytest.fixture
def demo(make_pack, tmp_path):
    today = dt.date.today()
    events = "\n".join(
        f"- id: ev-{name}\n  type: {etype}\n  title: {title}\n  date: '{(today + dt.timedelta(days=start)).isoformat()}'\n"
        f"  end_date: '{(today + dt.timedelta(days=end)).isoformat()}'\n  scope: {scope}\n"
        f"  url: https://events.example/{name}\n  location: {loc}\n  tags: [x]\n"
        for name, etype, title, start, end, scope, loc in [
            ("later", "codejam", "CodeJam CAP Walldorf", 30, 30, "local", "Walldorf"),
            ("soon", "teched", "TechEd Virtual", 5, 6, "virtual", "virtual"),
            ("now", "codejam", "CodeJam RAP Bangalore", -1, 1, "local", "Bangalore"),
            ("gone", "teched", "TechEd Last Year", -300, -298, "regional", "Las Vegas"),
        ]
    )
    root = make_pack(
        "demo",
        {
            "context.md": "### Overview\nDemo core.\n<!-- verbosity:detail -->\n### Best Practices\nDemo detail.\n"
            "<!-- verbosity:extended -->\n### Anti-patterns\nDemo extended.\n",
            "constraints.md": "1. Never do demo things.\n",
            "tips.md": "## Watch mode\nTags: cap, dev\nUse cds watch.\n\n## RAP draft\nTags: rap\nUse draft.\n",
            "known_errors.yaml": ERRORS,
            "resources.yaml": "- id: demo/deploy-cf\n  title: Deploy to Cloud Foundry\n  url: https://cap.example/cf\n"
            "  type: official-docs\n  tags: [deploy, cf]\n"
            "- id: demo/sample-repo\n  title: Sample repository\n  url: https://github.com/x/y\n  type: sample\n"
            "  tags: [samples]\n",
            "samples.yaml": "- id: demo/bookshop\n  label: Bookshop\n  url: https://github.com/x/bookshop\n"
            "  description: A CAP bookshop\n  tags: [cap]\n"
            "- id: demo/flight\n  label: RAP Flight\n  url: https://github.com/x/flight\n"
            "  description: RAP reference scenario\n  tags: [rap]\n",
            "event-instances.yaml": events,
        },
    )
    make_pack("other", {"context.md": "Other core.", "tips.md": "## Other tip\nTags: btp\nBTP text.\n"})
    return ctx_for(root, cwd=tmp_path)


async def test_list_packs(demo) -> None:
    out = await ok("list_packs", {}, demo)
    assert out["total"] == 2 and {p["id"] for p in out["results"]} == {"demo", "other"}
    demo_pack = next(p for p in out["results"] if p["id"] == "demo")
    assert demo_pack["counts"]["known_errors"] == 3 and demo_pack["counts"]["events"] == 4
    limited = await ok("list_packs", {"limit": 1}, demo)
    assert limited["count"] == 1 and limited["total"] == 2 and "Showing 1 of 2 packs" in limited["hint"]


async def test_get_context_verbosity_levels(demo) -> None:
    minimal = await ok("get_context", {"pack": "demo", "verbosity": "minimal"}, demo)
    standard = await ok("get_context", {"pack": "demo"}, demo)
    full = await ok("get_context", {"pack": "demo", "verbosity": "full"}, demo)
    assert "Demo core." in minimal["content"] and "Demo detail." not in minimal["content"]
    assert "Never do demo things" in minimal["content"]
    assert standard["verbosity"] == "standard" and "Demo detail." in standard["content"]
    assert "Demo extended." not in standard["content"] and "Demo extended." in full["content"]
    every = await ok("get_context", {}, demo)
    assert every["packs"] == ["demo", "other"] and "Other core." in every["content"]


async def test_get_context_unknown_pack_names_valid_ids(demo) -> None:
    outcome = await call("get_context", {"pack": "cpa"}, demo)
    assert outcome.is_error and "Pack 'cpa' not found" in outcome.text and "demo, other" in outcome.text


async def test_get_tip_is_structured_and_filtered_by_topic(demo) -> None:
    for _ in range(10):
        tip = await ok("get_tip", {"topic": "RAP"}, demo)
        origin = tip.pop("origin")  # the demo pack is not bundled: the tip says which file it is from
        assert tip == {"title": "RAP draft", "content": "Use draft.", "tags": ["rap"], "pack": "demo"}
        assert origin.startswith("layer0 layer: ") and origin.endswith("tips.md")
    by_word = await ok("get_tip", {"topic": "watch"}, demo)
    assert by_word["title"] == "Watch mode"
    seen = {(await ok("get_tip", {}, demo))["title"] for _ in range(60)}
    assert seen == {"Watch mode", "RAP draft", "Other tip"}, "random per call over all tips"


async def test_get_tip_unknown_topic_lists_tags(demo) -> None:
    outcome = await call("get_tip", {"topic": "cobol"}, demo)
    assert outcome.is_error and "btp, cap, dev, rap" in outcome.text


async def test_get_tip_prefers_profile_tags(make_pack, tmp_path) -> None:
    root = make_pack("demo", {"tips.md": "## A\nTags: cap\nx\n\n## B\nTags: abap\ny\n"})
    (root / "profiles").mkdir()
    (root / "profiles" / "abap-dev.yaml").write_text("id: abap-dev\nname: A\ntip_tags: [abap]\n")
    ctx = ctx_for(root, profile="abap-dev")
    assert {(await ok("get_tip", {}, ctx))["title"] for _ in range(20)} == {"B"}


async def test_known_errors_pasted_message_ranks_the_entry_first(demo) -> None:
    pasted = "[cds] - Error: SQLITE_ERROR: no such table: sap_capire_bookshop_Authors in: SELECT ..."
    out = await ok("get_known_errors", {"query": pasted}, demo)
    assert out["results"][0]["id"] == "demo/table-missing"
    assert out["results"][0]["pack"] == "demo"
    hana = await ok("get_known_errors", {"query": "SQL error 258"}, demo)
    assert hana["results"][0]["id"] == "demo/privilege" and hana["results"][0]["docs"].startswith("https://")


async def test_known_errors_no_match_hint(demo) -> None:
    out = await ok("get_known_errors", {"query": "zzqx flux capacitor"}, demo)
    assert out["count"] == 0 and out["hint"].startswith("No known error matches this message.")
    assert "read_doc" in out["hint"] or "search_docs" in out["hint"]


async def test_known_errors_requires_query(demo) -> None:
    outcome = await call("get_known_errors", {}, demo)
    assert outcome.is_error and "'query' is required" in outcome.text


async def test_search_resources_ranks_and_filters_by_type(demo) -> None:
    out = await ok("search_resources", {"query": "how do I deploy to cloud foundry"}, demo)
    assert out["results"][0]["id"] == "demo/deploy-cf"
    typed = await ok("search_resources", {"query": "repository", "type": "official-docs"}, demo)
    assert typed["count"] == 0
    bad = await call("search_resources", {"query": "x", "type": "podcast"}, demo)
    assert bad.is_error and "'type'" in bad.text and "official-docs" in bad.text


async def test_get_samples_pack_filter_and_query(demo) -> None:
    out = await ok("get_samples", {"pack": "demo"}, demo)
    assert [s["id"] for s in out["results"]] == ["demo/bookshop", "demo/flight"]
    ranked = await ok("get_samples", {"query": "rap flight"}, demo)
    assert ranked["results"][0]["id"] == "demo/flight"


async def test_search_events_upcoming_first_past_hidden(demo) -> None:
    out = await ok("search_events", {}, demo)
    assert [e["id"] for e in out["results"]] == ["ev-now", "ev-soon", "ev-later"]
    assert [e["status"] for e in out["results"]] == ["ongoing", "upcoming", "upcoming"]
    with_past = await ok("search_events", {"include_past": True}, demo)
    assert with_past["results"][-1]["id"] == "ev-gone" and with_past["results"][-1]["status"] == "past"
    scoped = await ok("search_events", {"scope": "local", "query": "rap"}, demo)
    assert [e["id"] for e in scoped["results"]] == ["ev-now"]
    only_past = await ok("search_events", {"query": "Las Vegas"}, demo)
    assert only_past["count"] == 0 and "include_past=true" in only_past["hint"]


async def test_invalid_limit_names_the_bounds(demo) -> None:
    outcome = await call("search_events", {"limit": 500}, demo)
    assert outcome.is_error and "'limit'" in outcome.text and "50" in outcome.text


async def test_unknown_parameter_is_rejected(demo) -> None:
    outcome = await call("get_known_errors", {"querry": "x"}, demo)
    assert outcome.is_error and "'querry' is not a parameter of get_known_errors" in outcome.text


async def test_broken_user_pack_is_reported_by_list_packs(make_pack, tmp_path) -> None:
    good = make_pack("demo", layer="good")
    broken = make_pack("demo2", {"known_errors.yaml": "- id: bad id\n"}, layer="broken")
    out = await ok("list_packs", {}, ctx_for(good, broken))
    assert [p["id"] for p in out["results"]] == ["demo"]
    assert "known_errors.yaml" in out["hint"] and "skipped" in out["hint"]
