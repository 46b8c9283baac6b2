"""The HTTP client factory and the cache, against a real loopback server and real files."""

from __future__ import annotations

import json
import logging
import os
import time
from contextlib import suppress
from http.server import BaseHTTPRequestHandler

import pytest

from sap_devs.core import cache
from sap_devs.core.http import FetchError, Http, Policy, redact
from tests.loopback import Loopback, Route, serve

pytestmark = pytest.mark.anyio
LOOP = frozenset({"127.0.0.1"})


@pytest.fixture
def server():
    with Loopback().running() as srv:
        yield srv


def policy(**kw) -> Policy:
    return Policy(allowed_hosts=LOOP, **{"read_timeout": 2.0, **kw})


async def test_get_json_with_user_agent(server) -> None:
    server.add("/data", body=b'{"ok": true}', headers={"content-type": "application/json"})
    async with Http(policy()) as http:
        response = await http.get(server.url("/data"))
    assert response.json() == {"ok": True}
    assert server.requests[0].headers["User-Agent"].startswith("sap-devs/")


async def test_timeout_is_a_retryable_fetch_error(server) -> None:
    server.add("/slow", body=b"{}", delay=1.5)
    async with Http(policy(read_timeout=0.3)) as http:
        with pytest.raises(FetchError, match="timed out") as info:
            await http.get(server.url("/slow"))
    assert info.value.retryable


async def test_500_then_success_with_retries(server) -> None:
    server.add("/flaky", Route(status=500, times=1))
    server.add("/flaky", Route(status=429, headers={"Retry-After": "0"}, times=1))
    server.add("/flaky", body=b"[1]")
    async with Http(policy(retries=2, backoff=0.01)) as http:
        assert (await http.get(server.url("/flaky"))).json() == [1]
    assert len(server.requests) == 3


async def test_no_retries_outside_sync(server) -> None:
    server.add("/down", status=503)
    async with Http(policy()) as http:
        with pytest.raises(FetchError, match="HTTP 503") as info:
            await http.get(server.url("/down"))
    assert info.value.status == 503 and len(server.requests) == 1


async def test_retry_after_is_honoured_and_capped(server) -> None:
    server.add("/busy", Route(status=429, headers={"Retry-After": "0.2"}, times=1))
    server.add("/busy", body=b"{}")
    started = time.perf_counter()
    async with Http(policy(retries=1, backoff=5)) as http:
        await http.get(server.url("/busy"))
    assert 0.15 < time.perf_counter() - started < 3, "Retry-After (0.2 s) wins over the 5 s backoff"


async def test_truncated_json_is_a_clear_error(server) -> None:
    server.add("/trunc", body=b'{"items": [1, 2')
    async with Http(policy()) as http:
        response = await http.get(server.url("/trunc"))
        with pytest.raises(FetchError, match="invalid or truncated JSON"):
            response.json()


async def test_body_over_the_cap_is_refused(server) -> None:
    server.add("/big", body=lambda: b"x" * (50 * 1024 * 1024))
    async with Http(policy(max_bytes=1024 * 1024)) as http:
        with pytest.raises(FetchError, match="over the 1048576 byte limit"):
            await http.get(server.url("/big"))


async def test_body_over_the_cap_without_content_length_is_refused(server) -> None:
    """Nothing declares the size up front: the cap applies while reading."""
    server.add("/stream", body=lambda: b"y" * (3 * 1024 * 1024), no_length=True)
    async with Http(policy(max_bytes=1024 * 1024)) as http:
        with pytest.raises(FetchError, match="larger than the 1048576 byte limit"):
            await http.get(server.url("/stream"))


async def test_redirect_to_a_foreign_host_is_refused(server) -> None:
    server.add("/hop", status=302, headers={"Location": "https://evil.example/steal"})
    async with Http(policy()) as http:
        with pytest.raises(FetchError, match=r"host 'evil\.example' is not an allowed source"):
            await http.get(server.url("/hop"))


async def test_redirect_within_allowed_hosts_is_followed(server) -> None:
    server.add("/old", status=301, headers={"Location": "/new"})
    server.add("/new", body=b'"moved"')
    async with Http(policy()) as http:
        assert (await http.get(server.url("/old"))).json() == "moved"


@pytest.fixture
def slow_loris():
    """Answers 200 and then one body byte every 0.2 s for 12 s: each byte restarts a read timeout."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("content-length", "60")
        handler.end_headers()
        with suppress(OSError):
            for _ in range(60):
                handler.wfile.write(b"x")
                handler.wfile.flush()
                time.sleep(0.2)

    with serve(answer) as srv:
        yield f"http://127.0.0.1:{srv.server_address[1]}"


async def test_a_trickling_server_is_cut_off_at_the_overall_deadline(slow_loris) -> None:
    async with Http(policy(read_timeout=1.0, deadline=1.0)) as http:
        with pytest.raises(FetchError, match=r"did not complete within 1s") as info:
            await http.get(slow_loris + "/news")
    assert info.value.retryable


async def test_news_detail_gives_up_on_a_trickling_community_server(slow_loris, monkeypatch) -> None:
    from sap_devs.core.errors import SapDevsError
    from sap_devs.live.news import detail as news_detail

    monkeypatch.setattr(news_detail, "DEADLINE", 1.0)
    with pytest.raises(SapDevsError, match="did not complete within"):
        await news_detail.get_detail(
            "https://community.sap.com/t5/x/ba-p/1", base=slow_loris, extra_hosts=frozenset({"127.0.0.1"})
        )


@pytest.fixture
def other_host():
    """A second loopback server: another port is another origin, as another host would be."""
    with Loopback().running() as srv:
        yield srv


SECRETS = {"Authorization": "Bearer T0KEN-SECRET", "Cookie": "SAP_SESSIONID=C00KIE", "x-csrf-token": "CSRF-SECRET"}


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_a_redirect_to_another_origin_carries_no_credentials(server, other_host, status: int) -> None:
    server.add("/start", status=status, headers={"Location": other_host.url("/landing")})
    other_host.add("/landing", body=b'"landed"')
    async with Http(policy(headers={"X-API-Key": "K3Y-SECRET"})) as http:
        assert (await http.get(server.url("/start"), headers={**SECRETS, "Accept": "application/json"})).json() == (
            "landed"
        )
    first, landed = server.requests[0].headers, other_host.requests[0].headers
    assert first["Authorization"] == SECRETS["Authorization"] and first["X-API-Key"] == "K3Y-SECRET"
    sent = " ".join(f"{k}: {v}" for k, v in landed.items())
    for secret in ("T0KEN-SECRET", "C00KIE", "CSRF-SECRET", "K3Y-SECRET"):
        assert secret not in sent
    assert landed["Accept"] == "application/json"


@pytest.mark.parametrize("status", [301, 302, 303])
async def test_post_redirected_with_301_302_303_continues_as_get_without_the_body(server, other_host, status) -> None:
    server.add("/form", status=status, headers={"Location": other_host.url("/done")})
    other_host.add("/done", body=b"{}")
    async with Http(policy()) as http:
        await http.request("POST", server.url("/form"), headers=SECRETS, content=b"client_secret=S3CRET-BODY")
    landed = other_host.requests[0]
    assert landed.method == "GET" and landed.body == b"" and "Content-Length" not in landed.headers
    assert "Authorization" not in landed.headers


@pytest.mark.parametrize("status", [307, 308])
async def test_307_308_with_a_body_to_another_origin_is_refused(server, other_host, status: int) -> None:
    server.add("/token", status=status, headers={"Location": other_host.url("/steal")})
    async with Http(policy()) as http:
        with pytest.raises(FetchError, match="re-send the request body to another host") as info:
            await http.request("POST", server.url("/token"), headers=SECRETS, content=b"client_secret=S3CRET-BODY")
    assert other_host.requests == [] and not info.value.retryable


async def test_307_within_the_same_origin_keeps_method_body_and_credentials(server) -> None:
    server.add("/v1", status=307, headers={"Location": "/v2"})
    server.add("/v2", body=b"{}")
    async with Http(policy()) as http:
        await http.request("POST", server.url("/v1"), headers=SECRETS, content=b"payload")
    moved = server.requests[1]
    assert moved.method == "POST" and moved.body == b"payload"
    assert moved.headers["Authorization"] == SECRETS["Authorization"]


def test_a_redirect_from_https_to_http_is_refused() -> None:
    from sap_devs.core.http import _redirected

    with pytest.raises(FetchError, match="https to http"):
        _redirected(302, "https://127.0.0.1/a", "http://127.0.0.1/b", "GET", None, {})


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data",
        "https://community.sap.com.evil.example/x",
        "file:///etc/passwd",
        "https://user:pw@127.0.0.1/x",
        "http://example.com/",
    ],
)
async def test_disallowed_urls_make_no_request(server, url: str) -> None:
    async with Http(Policy(allowed_hosts=frozenset({"community.sap.com", "127.0.0.1"}))) as http:
        with pytest.raises(FetchError, match="refusing"):
            await http.get(url)
    assert server.requests == []


def test_redact_masks_secrets() -> None:
    url = "https://www.googleapis.com/youtube/v3/videos?id=abc&key=SECRET123"
    assert "SECRET123" not in redact(url) and "id=abc" in redact(url)


# ---- cache ----------------------------------------------------------------------------------


def test_cache_round_trip_and_age(tmp_path) -> None:
    cache.write("news/episodes", [{"a": 1}], root=tmp_path)
    got = cache.read("news/episodes", root=tmp_path)
    assert got is not None and got.data == [{"a": 1}]
    assert got.age.total_seconds() < 5 and got.age_text() == "0 min"


def test_corrupt_cache_is_reported_and_ignored(tmp_path, caplog) -> None:
    path = cache.write("tutorials/index", {"x": 1}, root=tmp_path)
    path.write_text('{"format": 1, "data": [trunc', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert cache.read("tutorials/index", root=tmp_path) is None
    assert "is corrupt" in caplog.text


def test_reader_sees_a_newer_file_without_restart(tmp_path) -> None:
    cache.write("events/codejam", [1], root=tmp_path)
    assert cache.read("events/codejam", root=tmp_path).data == [1]
    path = cache.cache_file("events/codejam", tmp_path)
    # another process (sync) replaces the file
    payload = json.loads(path.read_text())
    payload["data"] = [1, 2]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(payload))
    os.replace(tmp, path)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    assert cache.read("events/codejam", root=tmp_path).data == [1, 2]


def test_invalid_cache_names_are_rejected(tmp_path) -> None:
    for bad in ("../etc/passwd", "/abs", "UPPER", "a/../b"):
        with pytest.raises(ValueError):
            cache.cache_file(bad, tmp_path)


async def test_the_test_suite_cannot_reach_the_internet() -> None:
    async with Http(Policy(allowed_hosts=frozenset({"community.sap.com"}), read_timeout=1)) as http:
        with pytest.raises(FetchError, match="tests never touch the internet"):
            await http.get("https://community.sap.com/")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b'{"format": 1, "name": "x", "fetched_at": 5, "data": []}', "corrupt"),
        (b'{"format": 1, "name": "x", "data": []}', "corrupt"),
        (b"[1, 2, 3]", "corrupt"),
        (b'{"format": 1, "fetched_at": "2026-01-01T00:00:00+00:00", "data": ' + b"[" * 100_000, "nested too deeply"),
        (
            b'{"format": 1, "fetched_at": "2026-01-01T00:00:00+00:00", "data": '
            + b"[" * 100_000
            + b"]" * 100_000
            + b"}",
            "nested too deeply",
        ),
        (b"\xff\xfe\x00garbage\x80", "corrupt"),
    ],
)
def test_unusable_cache_files_count_as_missing_with_a_warning(tmp_path, caplog, content: bytes, says: str) -> None:
    path = cache.cache_file("news/episodes", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert cache.read("news/episodes", root=tmp_path) is None
    assert says in caplog.text and str(path) in caplog.text


def test_cached_data_of_the_wrong_shape_counts_as_missing(tmp_path, caplog) -> None:
    cache.write("news-detail/abc", ["not", "a", "dict"], root=tmp_path)
    with caplog.at_level(logging.WARNING):
        assert cache.read("news-detail/abc", root=tmp_path, expect=dict) is None
        assert cache.read("news-detail/abc", root=tmp_path, expect=dict) is None
    assert caplog.text.count("not the expected shape") == 1, "reported once per file version"
    assert cache.read("news-detail/abc", root=tmp_path, expect=list) is not None


def _disk_full(*_args, **_kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_failed_cache_write_is_a_clear_error_and_leaves_no_temp_file(tmp_path, monkeypatch) -> None:
    cache.write("events/codejam", [1], root=tmp_path)
    monkeypatch.setattr(os, "replace", _disk_full)
    with pytest.raises(cache.CacheWriteError, match="No space left on device"):
        cache.write("events/codejam", [1, 2], root=tmp_path)
    assert cache.read("events/codejam", root=tmp_path).data == [1], "the previous copy is intact"
    assert [p.name for p in (tmp_path / "events").iterdir()] == ["codejam.json"]
    note = cache.save("events/codejam", [1, 2], root=tmp_path)
    assert note is not None and "could not be cached" in note


async def test_news_detail_fetched_fine_is_answered_even_when_the_cache_cannot_be_written(monkeypatch) -> None:
    from pathlib import Path

    from sap_devs.live.news import detail as news_detail

    post = Path(__file__).parent / "data" / "recorded" / "developer-news-post.html"
    with Loopback().running() as community:
        community.add("/t5/x/ba-p/1", body=post.read_bytes())
        monkeypatch.setattr(os, "replace", _disk_full)
        detail, note = await news_detail.get_detail(
            "https://community.sap.com/t5/x/ba-p/1", base=community.base, extra_hosts=frozenset({"127.0.0.1"})
        )
    assert detail.title == "SAP Developer News, January 23rd, 2025" and detail.items
    assert note is not None and "could not be cached" in note and "No space left on device" in note


async def test_a_misshapen_news_detail_cache_is_fetched_again() -> None:
    from pathlib import Path

    from sap_devs.live.news import detail as news_detail

    url = "https://community.sap.com/t5/x/ba-p/1"
    cache.write(news_detail.cache_name(url), {"title": "Old", "unexpected": 1})
    post = Path(__file__).parent / "data" / "recorded" / "developer-news-post.html"
    with Loopback().running() as community:
        community.add("/t5/x/ba-p/1", body=post.read_bytes())
        detail, note = await news_detail.get_detail(url, base=community.base, extra_hosts=frozenset({"127.0.0.1"}))
    assert detail.title == "SAP Developer News, January 23rd, 2025" and note is None


def test_temp_files_orphaned_by_a_killed_writer_are_removed(tmp_path) -> None:
    folder = tmp_path / "news-detail"
    folder.mkdir()
    orphan = folder / ".abc.json.k1ll3d.tmp"
    orphan.write_text('{"format": 1, "da')
    old = time.time() - 3600
    os.utime(orphan, (old, old))
    in_progress = folder / ".def.json.wr1t1ng.tmp"
    in_progress.write_text("{")
    cache.write("events/codejam", [1], root=tmp_path)
    assert not orphan.exists(), "an hour-old temp file is an orphan"
    assert in_progress.exists(), "a fresh one may belong to a write still running in another process"


async def test_an_abap_system_trickling_its_answer_is_cut_off(slow_loris) -> None:
    from sap_devs.adt.client import DEADLINE_FACTOR, AdtClient
    from sap_devs.adt.config import AdtConfig
    from sap_devs.adt.errors import AdtError

    config = AdtConfig(url=slow_loris, user="DEV", password="pw", timeout=1.0)
    async with AdtClient(config) as client:
        with pytest.raises(AdtError, match=f"did not complete within {DEADLINE_FACTOR:g}s"):
            await client.get_text("/sap/bc/adt/programs/programs/ztest/source/main")
