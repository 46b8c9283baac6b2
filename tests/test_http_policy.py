"""What core/http.py refuses and how it retries, each refusal named and final (mutants
scripts/mutation.py found surviving: the scheme check, retryable flags, redaction, backoff)."""

from __future__ import annotations

import httpx
import pytest

from sap_devs.core import http as http_module
from sap_devs.core.http import FetchError, Http, Policy, redact

pytestmark = pytest.mark.anyio

ALLOWED = frozenset({"community.sap.com", "127.0.0.1"})


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("file:///etc/passwd", "only http(s) URLs can be fetched"),
        ("ftp://community.sap.com/x", "only http(s) URLs can be fetched"),
        ("https:///no-host", "only http(s) URLs can be fetched"),
        ("javascript:alert(1)", "only http(s) URLs can be fetched"),
        ("http://community.sap.com/x", "only https is allowed"),
        ("https://user:pw@community.sap.com/x", "credentials in URLs are not allowed"),
        ("https://user@community.sap.com/x", "credentials in URLs are not allowed"),
        ("https://community.sap.com.evil.example/x", "host 'community.sap.com.evil.example' is not an allowed source"),
    ],
)
def test_each_refused_url_is_refused_for_its_own_reason_and_for_good(url: str, says: str) -> None:
    with pytest.raises(FetchError) as caught:
        Policy(allowed_hosts=ALLOWED).check(url)
    assert says in str(caught.value)
    assert caught.value.retryable is False, "trying again cannot help"
    assert "pw" not in str(caught.value)


@pytest.mark.parametrize("url", ["https://community.sap.com/x", "https://COMMUNITY.SAP.COM/x", "http://127.0.0.1:8/x"])
def test_allowed_urls_pass(url: str) -> None:
    Policy(allowed_hosts=ALLOWED).check(url)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://user:secret@h.example:8443/p?a=&key=K&KEY=L#frag", "https://h.example:8443/p?a=&key=***&KEY=***"),
        ("https://h.example/p", "https://h.example/p"),
        ("file:///etc/passwd", "file:///etc/passwd"),
        ("https://h.example/v?id=abc&access_token=T&Sig=S", "https://h.example/v?id=abc&access_token=***&Sig=***"),
    ],
)
def test_redact_keeps_the_address_and_masks_credentials(url: str, shown: str) -> None:
    assert redact(url) == shown


def _failing(times: int, *, status: int | None = None):
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(str(request.url))
        if len(calls) <= times:
            if status is None:
                raise httpx.ConnectError("connection refused", request=request)
            return httpx.Response(status)
        return httpx.Response(200, content=b"ok")

    return httpx.MockTransport(handler), calls


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(http_module.asyncio, "sleep", fake_sleep)
    return slept


async def test_connection_failures_are_retried_with_doubling_backoff(sleeps) -> None:
    transport, calls = _failing(3)
    policy = Policy(allowed_hosts=ALLOWED, retries=3, backoff=0.5)
    async with Http(policy, transport=transport) as http:
        assert (await http.get("https://community.sap.com/x")).content == b"ok"
    assert len(calls) == 4 and sleeps == [0.5, 1.0, 2.0]


async def test_retries_stop_at_the_policy_limit(sleeps) -> None:
    transport, calls = _failing(5)
    async with Http(Policy(allowed_hosts=ALLOWED, retries=2, backoff=1.0), transport=transport) as http:
        with pytest.raises(FetchError, match="ConnectError") as caught:
            await http.get("https://community.sap.com/x")
    assert caught.value.retryable is True
    assert len(calls) == 3 and sleeps == [1.0, 2.0]


async def test_without_retries_a_failure_is_final_at_once(sleeps) -> None:
    transport, calls = _failing(1)
    async with Http(Policy(allowed_hosts=ALLOWED), transport=transport) as http:
        with pytest.raises(FetchError):
            await http.get("https://community.sap.com/x")
    assert len(calls) == 1 and sleeps == []


@pytest.mark.parametrize(("status", "retried"), [(500, True), (503, True), (429, True), (404, False), (401, False)])
async def test_only_server_errors_and_429_are_retried(sleeps, status: int, retried: bool) -> None:
    transport, calls = _failing(1, status=status)
    async with Http(Policy(allowed_hosts=ALLOWED, retries=1, backoff=0.25), transport=transport) as http:
        if retried:
            assert (await http.get("https://community.sap.com/x")).status == 200
            assert len(calls) == 2 and sleeps == [0.25]
        else:
            with pytest.raises(FetchError, match=f"answered HTTP {status}") as caught:
                await http.get("https://community.sap.com/x")
            assert caught.value.status == status and caught.value.retryable is False
            assert len(calls) == 1 and sleeps == []


async def test_a_refused_url_is_not_retried(sleeps) -> None:
    transport, calls = _failing(0)
    async with Http(Policy(allowed_hosts=ALLOWED, retries=3), transport=transport) as http:
        with pytest.raises(FetchError, match="only https"):
            await http.get("http://community.sap.com/x")
    assert calls == [] and sleeps == []


@pytest.mark.parametrize(("header", "delay"), [("7", 7.0), ("0", 0.25), ("-3", 0.25), ("999", 30.0), ("soon", 0.25)])
async def test_retry_after_is_honoured_within_bounds(sleeps, header: str, delay: float) -> None:
    answers = iter([httpx.Response(503, headers={"Retry-After": header}), httpx.Response(200)])
    transport = httpx.MockTransport(lambda request: next(answers))
    async with Http(Policy(allowed_hosts=ALLOWED, retries=1, backoff=0.25), transport=transport) as http:
        await http.get("https://community.sap.com/x")
    assert sleeps == [delay]


async def test_an_ok_status_list_accepts_other_answers() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(304))
    async with Http(Policy(allowed_hosts=ALLOWED), transport=transport) as http:
        assert (await http.get("https://community.sap.com/x", ok=(200, 304))).status == 304


async def test_a_body_of_exactly_the_limit_is_accepted() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=b"x" * 10))
    async with Http(Policy(allowed_hosts=ALLOWED, max_bytes=10), transport=transport) as http:
        assert len((await http.get("https://community.sap.com/x")).content) == 10
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=b"x" * 11))
    async with Http(Policy(allowed_hosts=ALLOWED, max_bytes=10), transport=transport) as http:
        with pytest.raises(FetchError, match="over the 10 byte limit") as caught:
            await http.get("https://community.sap.com/x")
    assert caught.value.retryable is False


def test_a_password_without_a_user_name_is_refused_too() -> None:
    with pytest.raises(FetchError, match="credentials in URLs are not allowed"):
        Policy(allowed_hosts=ALLOWED).check("https://:pw@community.sap.com/x")


async def test_server_errors_back_off_doubling_without_retry_after(sleeps) -> None:
    transport, calls = _failing(2, status=503)
    async with Http(Policy(allowed_hosts=ALLOWED, retries=2, backoff=0.25), transport=transport) as http:
        assert (await http.get("https://community.sap.com/x")).status == 200
    assert len(calls) == 3 and sleeps == [0.25, 0.5]


def _redirect_chain(hops: int):
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        step = int(request.url.path.strip("/") or 0)
        if step < hops:
            return httpx.Response(302, headers={"location": f"/{step + 1}"})
        return httpx.Response(200, content=b"end")

    return httpx.MockTransport(handler), seen


async def test_five_redirects_are_followed_and_a_sixth_is_refused() -> None:
    transport, seen = _redirect_chain(5)
    async with Http(Policy(allowed_hosts=ALLOWED), transport=transport) as http:
        assert (await http.get("https://community.sap.com/0")).content == b"end"
    assert len(seen) == 6
    transport, seen = _redirect_chain(6)
    async with Http(Policy(allowed_hosts=ALLOWED), transport=transport) as http:
        with pytest.raises(FetchError, match="too many redirects") as caught:
            await http.get("https://community.sap.com/0")
    assert caught.value.retryable is False and len(seen) == 6


async def test_a_redirect_to_an_address_without_a_host_is_refused() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(302, headers={"location": "ftp:///x"}))
    async with Http(Policy(allowed_hosts=ALLOWED), transport=transport) as http:
        with pytest.raises(FetchError, match="only http"):
            await http.get("https://community.sap.com/a")


async def test_a_streamed_body_over_the_limit_is_refused_for_good() -> None:
    async def chunks():
        for _ in range(3):
            yield b"x" * 6

    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=chunks()))
    async with Http(Policy(allowed_hosts=ALLOWED, max_bytes=10), transport=transport) as http:
        with pytest.raises(FetchError, match="larger than the 10 byte limit") as caught:
            await http.get("https://community.sap.com/x")
    assert caught.value.retryable is False


def test_the_default_port_is_the_same_origin() -> None:
    sent = {"Authorization": "Basic eA=="}
    assert http_module._redirected(302, "http://127.0.0.1/a", "http://127.0.0.1:80/b", "GET", None, sent)[2] == sent
    assert http_module._redirected(302, "https://h.example/a", "https://h.example:443/b", "GET", None, sent)[2] == sent
    assert http_module._redirected(302, "http://127.0.0.1/a", "http://127.0.0.1:81/b", "GET", None, sent)[2] == {}


def test_https_to_http_redirects_are_refused_for_good() -> None:
    with pytest.raises(FetchError) as caught:
        http_module._redirected(302, "https://h.example/a", "http://h.example/b", "GET", None, {})
    assert caught.value.retryable is False


async def test_a_post_redirected_to_get_drops_its_body_headers() -> None:
    received: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        received.append(request)
        if request.url.path == "/form":
            return httpx.Response(303, headers={"location": "/done"})
        return httpx.Response(200)

    headers = {"Content-Type": "application/json", "Content-Length": "2", "X-Trace": "1"}
    async with Http(Policy(allowed_hosts=ALLOWED), transport=httpx.MockTransport(handler)) as http:
        await http.request("POST", "https://community.sap.com/form", headers=headers, content=b"{}")
    follow = received[-1]
    assert follow.method == "GET" and follow.content == b""
    assert "content-type" not in follow.headers and follow.headers.get("content-length") in (None, "0")
    assert follow.headers["x-trace"] == "1", "same origin: other headers stay"
