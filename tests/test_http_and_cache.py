"""The HTTP client factory and the cache, against a real loopback server and real files."""

from __future__ import annotations

import json
import logging
import os
import time

import pytest

from sap_devs.core import cache
from sap_devs.core.http import FetchError, Http, Policy, redact
from tests.loopback import Loopback, Route

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
