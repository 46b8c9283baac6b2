"""get_news_detail against a loopback SAP Community serving a recorded Developer News post."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core import cache
from sap_devs.live.news import detail as news_detail
from sap_devs.mcp.framework import ToolContext
from tests.conftest import bundled_layer
from tests.loopback import Loopback, Route
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio
RECORDED = Path(__file__).resolve().parent.parent / "data" / "recorded"
POST_PATH = "/t5/developer-news/sap-developer-news-january-23rd-2025/ba-p/13994568"
POST_URL = "https://community.sap.com" + POST_PATH


@pytest.fixture
def community():
    with Loopback().running() as srv:
        yield srv


@pytest.fixture
def ctx(community, tmp_path) -> ToolContext:
    return ToolContext(cwd=tmp_path, layers=[bundled_layer()], endpoints={"community": community.base})


async def test_items_chapters_and_video_from_a_real_post(community, ctx) -> None:
    community.add(POST_PATH, body=(RECORDED / "developer-news-post.html").read_bytes())
    out = await ok("get_news_detail", {"community_url": POST_URL}, ctx)
    assert out["title"] == "SAP Developer News, January 23rd, 2025"
    assert out["video_url"] == "https://www.youtube.com/watch?v=BO4qZLxBPG4"
    titles = [i["title"] for i in out["items"]]
    assert "New Release of the SAP Cloud SDK for AI" in titles and "Code Connect 2025" in titles
    sdk = next(i for i in out["items"] if i["title"] == "New Release of the SAP Cloud SDK for AI")
    assert sdk["links"] == ["https://github.com/SAP/ai-sdk-js/releases/tag/v1.6.0"]
    assert out["chapters"][:2] == [
        {"time": "0:00", "title": "Intro"},
        {"time": "0:10", "title": "2025 Developer Insight Survey"},
    ]
    assert "raw_content" not in out, "structured and raw content are mutually exclusive"
    requests = len(community.requests)
    await ok("get_news_detail", {"community_url": POST_URL}, ctx)
    assert len(community.requests) == requests, "served from the one-hour cache"


async def test_unexpected_layout_returns_raw_content(community, ctx) -> None:
    community.add("/t5/x/ba-p/1", body=(RECORDED / "post.html").read_bytes())
    out = await ok("get_news_detail", {"community_url": "https://community.sap.com/t5/x/ba-p/1"}, ctx)
    assert out["items"] == [] and "## CAP Updates" in out["raw_content"]
    assert "usual layout" in out["hint"]


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/",
        "https://community.sap.com.evil.example/",
        "file:///etc/passwd",
        "http://community.sap.com/t5/x",
        "https://user:pw@community.sap.com/t5/x",
        "https://community.sap.com:8443/t5/x",
    ],
)
async def test_refuses_other_urls_without_a_request(community, ctx, url: str) -> None:
    outcome = await call("get_news_detail", {"community_url": url}, ctx)
    assert outcome.is_error and "must be an https://community.sap.com/" in outcome.text
    assert community.requests == []


async def test_failed_refresh_falls_back_to_the_older_copy(community, ctx) -> None:
    import datetime as dt

    old = news_detail.Detail(title="Cached episode", community_url=POST_URL, items=[{"title": "A", "links": []}])
    cache.write(
        news_detail.cache_name(POST_URL), old.__dict__, fetched_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=5)
    )
    community.add(POST_PATH, Route(status=503))
    out = await ok("get_news_detail", {"community_url": POST_URL}, ctx)
    assert out["title"] == "Cached episode" and "Could not refresh the post" in out["hint"]


async def test_failed_fetch_without_cache_is_a_tool_error(community, ctx) -> None:
    community.add(POST_PATH, Route(status=500))
    outcome = await call("get_news_detail", {"community_url": POST_URL}, ctx)
    assert outcome.is_error and "Could not read" in outcome.text and "HTTP 500" in outcome.text


async def test_published_date_comes_from_the_news_list(community, ctx) -> None:
    url = "https://community.sap.com/t5/developer-news/sap-developer-news-for-may-7th-2026/ba-p/14391439"
    community.add(
        "/t5/developer-news/sap-developer-news-for-may-7th-2026/ba-p/14391439",
        body=(RECORDED / "post.html").read_bytes(),
    )
    out = await ok("get_news_detail", {"community_url": url}, ctx)
    assert out["published"] == "2026-05-07T19:00:06Z"
    assert out["video_url"] == "https://www.youtube.com/watch?v=bLwvT_R43HM"
