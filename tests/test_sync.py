"""`sap-devs sync` against recorded responses on a loopback server: success, partial failure, total
failure (previous caches untouched), and a sync killed half-way (every cache file still valid)."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sap_devs.core import cache, paths
from sap_devs.live.news import sync as news_sync
from sap_devs.live.sync import run_sync, status
from sap_devs.live.tutorials import sync as tutorials_sync
from tests.loopback import Loopback, Route

pytestmark = pytest.mark.anyio
RECORDED = Path(__file__).parent / "data" / "recorded"

TUTORIAL_MD = """---
parser: v2
time: 15
tags: [ tutorial>beginner, software-product-function>sap-cloud-application-programming-model ]
primary_tag: software-product-function>sap-cloud-application-programming-model
author_name: Test Author
---

# Deploy Your CAP App to Cloud Foundry
<!-- description --> Build an MTA and deploy it with cf deploy.

## You will learn
- how to deploy

---

### Build the archive
Run `mbt build`.

```bash
### not a step inside a fence
```

### Deploy
Run `cf deploy`.
"""


def loopback_source(source, server: Loopback, **policy):
    allowed = source.policy.allowed_hosts | {"127.0.0.1"}
    return dataclasses.replace(source, policy=dataclasses.replace(source.policy, allowed_hosts=allowed, **policy))


def bases_for(server: Loopback) -> dict[str, str]:
    return {name: server.base for name in ("github_api", "github_raw", "youtube", "community")}


@pytest.fixture
def server():
    with Loopback().running() as srv:
        yield srv


@pytest.fixture
def two_repos(monkeypatch):
    known = {"cap-deploy": "published", "old-draft": "withdrawn"}
    monkeypatch.setattr(tutorials_sync, "_known_repos", lambda: (["repo-a", "repo-b"], known))


def serve_github(server: Loopback, *, sha_a: str = "sha-a1") -> None:
    server.add("/repos/sap-tutorials/repo-a", body=json.dumps({"default_branch": "main"}).encode())
    server.add("/repos/sap-tutorials/repo-b", body=json.dumps({"default_branch": "master"}).encode())
    tree_a = {
        "sha": sha_a,
        "tree": [
            {"path": "tutorials/cap-deploy/cap-deploy.md"},
            {"path": "tutorials/cap-deploy/img/x.png"},
            {"path": "tutorials/brand-new/brand-new.md"},
            {"path": "tutorials/half-written/half-written.md"},
            {"path": "README.md"},
        ],
    }
    server.add("/repos/sap-tutorials/repo-a/git/trees/main", body=json.dumps(tree_a).encode())
    tree_b = {"sha": "sha-b1", "tree": [{"path": "tutorials/old-draft/old-draft.md"}]}
    server.add("/repos/sap-tutorials/repo-b/git/trees/master", body=json.dumps(tree_b).encode())
    server.add("/sap-tutorials/repo-a/main/tutorials/cap-deploy/cap-deploy.md", body=TUTORIAL_MD.encode())
    brand_new = (
        b"---\ntitle: Brand New\ndescription: Published after the bundled list\ntags: [tutorial>beginner]\n---\nBody"
    )
    server.add("/sap-tutorials/repo-a/main/tutorials/brand-new/brand-new.md", body=brand_new)
    server.add("/sap-tutorials/repo-a/main/tutorials/half-written/half-written.md", body=b"---\ntitle: Half\n---\nBody")
    server.add("/sap-tutorials/repo-b/master/tutorials/old-draft/old-draft.md", body=b"# Old draft\n")


def serve_news(server: Loopback) -> None:
    server.add(f"/feeds/videos.xml?playlist_id={news_sync.PLAYLIST_ID}", body=(RECORDED / "playlist.xml").read_bytes())
    server.add("/khhcw49343/rss/board?board.id=developer-news", body=(RECORDED / "posts.xml").read_bytes())


async def test_tutorials_sync_builds_the_index(server, two_repos) -> None:
    serve_github(server)
    source = loopback_source(tutorials_sync.SOURCE, server)
    [result] = await run_sync([source], bases=bases_for(server), env={"GITHUB_TOKEN": "ghp_secret"})
    assert result.status == "ok" and result.items == 4, result.message
    data = cache.read("tutorials/index").data
    by_slug = {r["slug"]: r for r in data["tutorials"]}
    cap = by_slug["cap-deploy"]
    assert cap["title"] == "Deploy Your CAP App to Cloud Foundry"
    assert cap["description"] == "Build an MTA and deploy it with cf deploy."
    assert (cap["level"], cap["time_minutes"], cap["steps"]) == ("beginner", 15, 2)
    statuses = {slug: (r["status"], r["live"]) for slug, r in by_slug.items()}
    assert statuses == {
        "cap-deploy": ("published", True),
        "brand-new": ("new", True),  # not in the bundled list, full metadata: published since
        "half-written": ("draft", False),  # not in the list, no description or level
        "old-draft": ("withdrawn", False),  # the list dropped it; its folder still being there changes nothing
    }
    assert data["repos"]["repo-a"] == {"branch": "main", "sha": "sha-a1"}
    api_calls = [r for r in server.requests if r.path.startswith("/repos/")]
    assert all(r.headers.get("Authorization") == "Bearer ghp_secret" for r in api_calls)
    raw_calls = [r for r in server.requests if r.path.startswith("/sap-tutorials/")]
    assert all("Authorization" not in r.headers for r in raw_calls), "the token only goes to the API"


async def test_unchanged_tree_reuses_records(server, two_repos) -> None:
    serve_github(server)
    source = loopback_source(tutorials_sync.SOURCE, server)
    await run_sync([source], bases=bases_for(server), env={})
    server.requests.clear()
    [again] = await run_sync([source], bases=bases_for(server), env={}, force=True)
    assert again.status == "ok" and again.items == 4
    assert not [r for r in server.requests if r.path.startswith("/sap-tutorials/")], "no markdown refetched"


async def test_one_failing_repo_keeps_its_previous_records(server, two_repos) -> None:
    serve_github(server)
    source = loopback_source(tutorials_sync.SOURCE, server)
    await run_sync([source], bases=bases_for(server), env={})
    server.routes["/repos/sap-tutorials/repo-b"] = [Route(status=500)]
    [result] = await run_sync([source], bases=bases_for(server), env={}, force=True)
    assert result.status == "ok" and result.items == 4
    assert "repo-b" in (result.message or "")


async def test_news_sync_correlates_episodes_and_posts(server) -> None:
    serve_news(server)
    source = loopback_source(news_sync.SOURCE, server)
    [result] = await run_sync([source], bases=bases_for(server), env={})
    assert result.status == "ok" and result.items == 2
    episodes = {e["id"]: e for e in cache.read("news/episodes").data}
    assert episodes["abc123"]["community_url"] == "https://community.sap.com/t5/developer-news/apr-11/ba-p/999"
    assert "community_url" not in episodes["def456"], "the March post is more than a week away"


async def test_news_without_community_posts_is_saved_with_a_note(server) -> None:
    serve_news(server)
    server.routes["/khhcw49343/rss/board?board.id=developer-news"] = [Route(status=503)]
    [result] = await run_sync([loopback_source(news_sync.SOURCE, server)], bases=bases_for(server), env={})
    assert result.status == "ok" and "SAP Community posts unavailable" in result.message


@pytest.mark.parametrize(
    "fault",
    [
        Route(status=500),
        Route(status=429, headers={"Retry-After": "0"}),
        Route(body=b"<feed><entry><title>cut off"),
        Route(
            body=b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><feed>&lol2;</feed>'
        ),
        Route(body=b"{", delay=1.5),
    ],
    ids=["500", "429", "malformed-xml", "entity-bomb", "timeout"],
)
async def test_failing_sources_leave_previous_caches_byte_for_byte(
    server, two_repos, fault: Route, bundled_ctx
) -> None:
    serve_github(server)
    serve_news(server)
    sources = [
        loopback_source(tutorials_sync.SOURCE, server, read_timeout=0.5),
        loopback_source(news_sync.SOURCE, server, read_timeout=0.5),
    ]
    await run_sync(sources, bases=bases_for(server), env={})
    files = {name: cache.cache_file(name).read_bytes() for name in ("tutorials/index", "news/episodes")}
    for path in list(server.routes):
        server.routes[path] = [dataclasses.replace(fault)]
    results = await run_sync(sources, bases=bases_for(server), env={}, force=True)
    assert [r.status for r in results] == ["stale", "stale"], [r.message for r in results]
    assert all("keeping the cached copy" in r.message for r in results)
    for name, before in files.items():
        assert cache.cache_file(name).read_bytes() == before
    from tests.tools.test_knowledge_tools import ok

    news = await ok("get_recent_news", {}, bundled_ctx)
    assert news["results"][0]["url"] == "https://www.youtube.com/watch?v=abc123", "tools answer from the kept cache"


async def test_first_sync_failure_is_failed_not_stale(server) -> None:
    [result] = await run_sync([loopback_source(news_sync.SOURCE, server)], bases=bases_for(server), env={})
    assert result.status == "failed" and "HTTP 404" in result.message
    assert not cache.cache_file("news/episodes").exists()


def test_status_reports_age_without_fetching() -> None:
    cache.write("news/episodes", [{"id": "x"}])
    rows = {r.name: r for r in status([news_sync.SOURCE, tutorials_sync.SOURCE])}
    assert rows["news"].status == "fresh" and rows["news"].items == 1
    assert rows["tutorials"].status == "bundled"  # never synced: the bundled snapshot is served


def test_sync_killed_half_way_leaves_every_cache_file_valid(tmp_path: Path) -> None:
    """A real process syncs against a slow loopback server and is SIGKILLed mid-way, repeatedly."""
    script = tmp_path / "sync_forever.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import dataclasses, json, sys, anyio
            sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})
            from tests.loopback import Loopback, Route
            from sap_devs.live.news import sync as news_sync
            from sap_devs.live.sync import run_sync
            from sap_devs.core import cache
            feed = open({str(RECORDED / "playlist.xml")!r}, "rb").read()
            big = [dict(id=str(i), title="t" * 200, url="https://www.youtube.com/watch?v=" + str(i),
                        published="2026-04-11T15:00:00+00:00") for i in range(20000)]
            with Loopback().running() as srv:
                srv.add(f"/feeds/videos.xml?playlist_id={{news_sync.PLAYLIST_ID}}", body=feed, delay=0.01)
                srv.add("/khhcw49343/rss/board?board.id=developer-news", status=500)
                source = dataclasses.replace(news_sync.SOURCE, policy=dataclasses.replace(
                    news_sync.SOURCE.policy, allowed_hosts=frozenset({{"127.0.0.1"}}), retries=0))
                bases = {{"youtube": srv.base, "community": srv.base}}
                print("ready", flush=True)
                while True:
                    cache.write("tutorials/index", big)  # a large write the kill can interrupt
                    anyio.run(lambda: run_sync([source], bases=bases, env={{}}, force=True))
            """
        )
    )
    env = dict(os.environ)
    for attempt in range(5):
        proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(0.3 + attempt * 0.17)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        root = paths.cache_dir()
        files = [p for p in root.rglob("*") if p.is_file()]
        for path in files:
            if path.name.endswith(".tmp"):
                continue  # an abandoned temp file is not a cache file; readers never open it
            payload = json.loads(path.read_text(encoding="utf-8"))
            assert payload["format"] == 1 and "data" in payload
    assert cache.read("news/episodes") is not None and cache.read("tutorials/index") is not None


LEARNING_CATALOGUE = [
    {
        "Learning_object_ID": "LJ-1",
        "Learning_type": "Learning Journey",
        "Title": "Acquiring Core ABAP Skills",
        "Description": "Learn  ABAP\\n basics.",
        "Level": "Beginner",
        "Duration_in_hours": "30.5",
        "Role": "Developer, Consultant",
        "LSC_product": "ABAP Platform",
        "Direct_link": {"hyperlink": "https://learning.sap.com/learning-journeys/acquiring-core-abap-skills"},
    },
    {
        "Learning_type": "Course",
        "Title": "Not a journey",
        "Direct_link": {"hyperlink": "https://learning.sap.com/courses/x"},
    },
    {"Learning_type": "Learning Journey", "Title": "Bad link", "Direct_link": {"hyperlink": "https://evil.example/x"}},
    "garbage",
]


async def test_learning_sync_keeps_only_journeys(server) -> None:
    from sap_devs.live.learning import sync as learning_sync

    server.add("/service/catalog-download/json", body=json.dumps(LEARNING_CATALOGUE).encode())
    source = loopback_source(learning_sync.SOURCE, server)
    [result] = await run_sync([source], bases={"learning": server.base}, env={})
    assert result.status == "ok" and result.items == 1
    [journey] = cache.read("learning/index").data
    assert journey["slug"] == "acquiring-core-abap-skills" and journey["duration_hours"] == 30.5
    assert journey["roles"] == ["Developer", "Consultant"] and journey["level"] == "beginner"


async def test_videos_sync_reads_the_pack_sources(server) -> None:
    from sap_devs.live.videos import sync as videos_sync

    feed = (RECORDED / "playlist.xml").read_bytes()
    server.add("/feeds/videos.xml?playlist_id=PL6RpkC85SLQAVBSQXN9522_1jNvPavBgg", body=feed)
    server.add("/feeds/videos.xml?channel_id=UCNfmelKDrvRmjYwSi9yvrMg", status=500)
    [result] = await run_sync([loopback_source(videos_sync.SOURCE, server)], bases={"youtube": server.base}, env={})
    assert result.status == "ok" and result.items == 2 and "sap-developers" in result.message
    videos = cache.read("videos/index").data
    assert videos[0]["id"] == "abc123" and videos[0]["source"] == "sap-dev-news"


def khoros_payload(today) -> bytes:
    import datetime as dt

    soon = (today + dt.timedelta(days=10)).isoformat()
    return json.dumps(
        {
            "status": "success",
            "data": {
                "items": [
                    {
                        "id": "13990001",
                        "subject": "SAP CodeJam: CAP in  Walldorf",
                        "view_href": "https://community.sap.com/t5/sap-codejam/cap-walldorf/ev-p/13990001",
                        "occasion_data": {
                            "start_time": f"{soon}T09:00:00.000+01:00",
                            "end_time": f"{soon}T17:00:00.000+01:00",
                            "location": "Walldorf, Germany",
                        },
                    },
                    {"id": "2", "subject": "No occasion", "view_href": "https://community.sap.com/t5/x/ev-p/2"},
                    {
                        "id": "3",
                        "subject": "Event calendar page",
                        "view_href": "https://community.sap.com/t5/x/ec-p/3",
                        "occasion_data": {"start_time": f"{soon}T09:00:00Z"},
                    },
                ]
            },
        }
    ).encode()


async def test_events_sync_reads_khoros_and_rss_and_search_events_uses_them(server, bundled_ctx) -> None:
    import datetime as dt

    from sap_devs.live.events import sync as events_sync
    from tests.tools.test_knowledge_tools import ok

    server.add("/api/2.0/search", body=khoros_payload(dt.date.today()))
    server.add("/t5/devtoberfest/bg-p/devtoberfest/rss", body=(RECORDED / "posts.xml").read_bytes())
    source = loopback_source(events_sync.SOURCE, server)
    [result] = await run_sync([source], bases={"khoros": server.base, "community": server.base}, env={})
    assert result.status == "ok" and result.items == 3, result.message
    liql = server.requests[0].path
    assert "board.id%3D%27codejam-events%27" in liql, "the board id is quoted inside the LiQL string literal"
    out = await ok("search_events", {"query": "CodeJam CAP"}, bundled_ctx)
    first = out["results"][0]
    assert first["title"] == "SAP CodeJam: CAP in Walldorf" and first["pack"] == "community"
    assert first["status"] == "upcoming" and first["location"] == "Walldorf, Germany"
    assert "sap-devs sync --only events" not in (out.get("hint") or "")


async def test_search_events_before_sync_mentions_it(bundled_ctx) -> None:
    from tests.tools.test_knowledge_tools import ok

    out = await ok("search_events", {"include_past": True}, bundled_ctx)
    assert "sap-devs sync --only events" in out["hint"]


async def test_news_falls_back_to_the_data_api_with_a_key_that_never_leaks(server) -> None:
    server.add(f"/feeds/videos.xml?playlist_id={news_sync.PLAYLIST_ID}", status=404)
    server.add("/youtube/v3/playlistItems", body=(RECORDED / "apiv3_playlistitems.json").read_bytes())
    server.add("/khhcw49343/rss/board?board.id=developer-news", body=(RECORDED / "posts.xml").read_bytes())
    bases = {**bases_for(server), "youtube_api": server.base}
    source = loopback_source(news_sync.SOURCE, server)
    [result] = await run_sync([source], bases=bases, env={"YOUTUBE_API_KEY": "AIzaSECRET"})
    assert result.status == "ok" and result.items == 2
    assert "used the YouTube Data API" in result.message and "AIzaSECRET" not in result.message
    assert [e["id"] for e in cache.read("news/episodes").data] == ["vid001", "vid002"]
    api = [r for r in server.requests if r.path.startswith("/youtube/v3/")]
    assert "key=AIzaSECRET" in api[0].path


async def test_data_api_key_is_masked_in_failures(server) -> None:
    server.add(f"/feeds/videos.xml?playlist_id={news_sync.PLAYLIST_ID}", status=404)
    server.add("/youtube/v3/playlistItems", status=403)
    bases = {**bases_for(server), "youtube_api": server.base}
    [result] = await run_sync(
        [loopback_source(news_sync.SOURCE, server)], bases=bases, env={"YOUTUBE_API_KEY": "AIzaSECRET"}
    )
    assert result.status == "failed" and "HTTP 403" in result.message and "AIzaSECRET" not in result.message


async def test_every_source_failing_keeps_every_cache_byte_for_byte(server) -> None:
    from sap_devs.live.sources import all_sources

    sources = [loopback_source(s, server, retries=0) for s in all_sources()]
    for source in sources:
        cache.write(source.cache_name, [{"placeholder": source.name}])
    before = {s.cache_name: cache.cache_file(s.cache_name).read_bytes() for s in sources}
    bases = dict.fromkeys(
        ("github_api", "github_raw", "youtube", "community", "youtube_api", "learning", "khoros", "discovery"),
        server.base,
    )
    results = await run_sync(sources, bases=bases, env={}, force=True)
    assert {r.status for r in results} == {"stale"}, [(r.name, r.status, r.message) for r in results]
    assert all(r.message for r in results)
    for name, content in before.items():
        assert cache.cache_file(name).read_bytes() == content
