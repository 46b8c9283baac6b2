"""Tools over synced SAP data: they answer from the bundled snapshot offline and prefer a synced cache."""

from __future__ import annotations

import datetime as dt

import pytest

from sap_devs.core import cache
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio


async def test_fresh_install_tutorial_search_answers_offline(bundled_ctx) -> None:
    out = await ok("search_tutorials", {"query": "deploy CAP application to Cloud Foundry"}, bundled_ctx)
    slugs = [r["slug"] for r in out["results"]]
    assert {"cap-service-deploy", "deploy-to-cf", "cp-cap-java-deploy-cf"} & set(slugs[:5])
    assert all(r["url"] == f"https://developers.sap.com/tutorials/{r['slug']}.html" for r in out["results"])
    assert "snapshot bundled with sap-devs (data as of 2026-11-29)" in out["hint"] and "sap-devs sync" in out["hint"]


async def test_tutorial_level_filter(bundled_ctx) -> None:
    out = await ok("search_tutorials", {"query": "CAP", "level": "intermediate", "limit": 50}, bundled_ctx)
    assert out["count"] > 0 and all(r["level"] == "intermediate" for r in out["results"])


async def test_synced_tutorial_cache_wins_over_the_snapshot(bundled_ctx) -> None:
    record = {
        "slug": "brand-new-cap-tutorial",
        "title": "Brand new CAP deployment tutorial",
        "url": "https://developers.sap.com/tutorials/brand-new-cap-tutorial.html",
        "tags": ["software-product-function>sap-cloud-application-programming-model"],
    }
    cache.write("tutorials/index", [record, {"broken": True}])
    out = await ok("search_tutorials", {"query": "brand new CAP"}, bundled_ctx)
    assert [r["slug"] for r in out["results"]] == ["brand-new-cap-tutorial"]
    assert "snapshot" not in (out.get("hint") or "")


async def test_stale_cache_says_so(bundled_ctx) -> None:
    old = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
    cache.write(
        "tutorials/index",
        [{"slug": "old-one", "title": "Old CAP tutorial", "url": "https://developers.sap.com/tutorials/old-one.html"}],
        fetched_at=old,
    )
    out = await ok("search_tutorials", {"query": "old CAP"}, bundled_ctx)
    assert "The cached tutorial index is 30 days old" in out["hint"]


async def test_corrupt_cache_falls_back_to_the_snapshot(bundled_ctx) -> None:
    path = cache.write("tutorials/index", [])
    path.write_text("{not json", encoding="utf-8")
    out = await ok("search_tutorials", {"query": "ABAP RAP"}, bundled_ctx)
    assert out["count"] > 0 and "snapshot bundled" in out["hint"]


async def test_recent_news_from_the_baseline(bundled_ctx) -> None:
    out = await ok("get_recent_news", {}, bundled_ctx)
    assert out["count"] == 5 and out["total"] == 12
    dates = [r["published"] for r in out["results"]]
    assert dates == sorted(dates, reverse=True)
    assert out["results"][0]["url"].startswith("https://www.youtube.com/watch?v=")
    assert "Refine your query" not in out["hint"] and "data as of 2026-05-13" in out["hint"]


async def test_discovery_services_finds_hana_cloud(bundled_ctx) -> None:
    out = await ok("search_discovery", {"query": "SAP HANA Cloud", "type": "services"}, bundled_ctx)
    first = out["results"][0]
    assert first["id"] == "hana-cloud" and first["name"] == "SAP HANA Cloud"
    assert any(p.endswith("(free)") for p in first["plans"])
    assert first["documentation"].startswith("https://help.sap.com")


async def test_discovery_rejects_unknown_type(bundled_ctx) -> None:
    outcome = await call("search_discovery", {"query": "x", "type": "missions-and-more"}, bundled_ctx)
    assert outcome.is_error and "'type'" in outcome.text


async def test_learning_journeys_before_the_first_sync_say_how_to_get_them(bundled_ctx) -> None:
    out = await ok("search_learning_journeys", {"query": "ABAP Cloud"}, bundled_ctx)
    assert out["count"] == 0 and "sap-devs sync --only learning" in out["hint"]


async def test_learning_journeys_from_the_synced_catalogue(bundled_ctx) -> None:
    cache.write(
        "learning/index",
        [
            {
                "slug": "acquiring-core-abap-skills",
                "title": "Acquiring Core ABAP Skills",
                "level": "beginner",
                "duration_hours": 30.5,
                "roles": ["Developer"],
                "products": ["ABAP Platform"],
                "url": "https://learning.sap.com/learning-journeys/acquiring-core-abap-skills",
            },
            {
                "slug": "administrating-sap-btp",
                "title": "Administrating SAP BTP",
                "level": "intermediate",
                "url": "https://learning.sap.com/learning-journeys/administrating-sap-btp",
            },
        ],
    )
    out = await ok("search_learning_journeys", {"query": "ABAP skills"}, bundled_ctx)
    assert [r["slug"] for r in out["results"]] == ["acquiring-core-abap-skills"]
    level = await ok("search_learning_journeys", {"query": "BTP", "level": "beginner"}, bundled_ctx)
    assert level["count"] == 0


async def test_videos_offline_are_the_news_episodes(bundled_ctx) -> None:
    out = await ok("search_videos", {}, bundled_ctx)
    assert out["count"] == 10 and out["total"] == 12 and "Refine your query" not in out["hint"]
    assert all(
        r["source"] == "sap-dev-news" and r["url"].startswith("https://www.youtube.com/") for r in out["results"]
    )
    abap = await ok("search_videos", {"query": "ABAP"}, bundled_ctx)
    assert abap["count"] >= 1 and all("ABAP" in r["title"] or "ABAP" in r["description"] for r in abap["results"])
