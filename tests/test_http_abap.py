"""ABAP tools over HTTP: the fake ADT system behind a real sap-devs HTTP server on 127.0.0.1.

The system is fixed by the server; each caller's SAP logon comes in X-SAP-Authorization with each
request and is gone when the request is: not in the logs, the metrics, the errors, nor reused.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from sap_devs.core import log as log_mod
from sap_devs.core.errors import SapDevsError
from sap_devs.http.app import HttpSettings, access_log
from sap_devs.http.run import open_http_session
from sap_devs.mcp.server import build_server
from tests.fake_adt import FakeAdt
from tests.http_helpers import sap_devs_http

PASSWORD = "Http-Caller-Passw0rd!"
TOKEN = "abap-access-token-5f2e9c81"
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


@pytest.fixture
def adt() -> Iterator[FakeAdt]:
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


@pytest.fixture
def system_env(adt: FakeAdt, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SAP_USER", "SAP_PASSWORD", "SAP_BEARER_TOKEN", "SAP_JWT_TOKEN", "SAP_SERVICE_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SAP_URL", adt.url)
    monkeypatch.setenv("SAP_CLIENT", "100")
    monkeypatch.setenv("SAP_TIMEOUT", "30")  # a loaded CI machine took up to 1.7 s for the first ADT call
    monkeypatch.setenv("SAP_DEVS_ADT_WRITE", "1")  # a developer's shell setting: must not open a team server


def serve(tmp_path: Path, *, abap: bool = True, writes: bool = False):
    registry, ctx = open_http_session(None, None, tmp_path, abap=abap, abap_writes=writes)
    return sap_devs_http(build_server(registry, ctx, mode="full"), HttpSettings(), ctx)


def client(base: str, sap_auth: str | None = None) -> Client:
    headers = {"X-SAP-Authorization": sap_auth} if sap_auth else {}
    return Client(streamable_http_client(base + "/mcp", http_client=httpx2.AsyncClient(headers=headers, timeout=30)))


@pytest.fixture
def captured_logs() -> Iterator[io.StringIO]:
    """Every log record at every level, unfiltered: what any handler could ever write."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    old_level, old_access = root.level, access_log.level
    root.addHandler(handler)
    access_log.addHandler(handler)
    root.setLevel(logging.DEBUG)
    access_log.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        access_log.removeHandler(handler)
        root.setLevel(old_level)
        access_log.setLevel(old_access)


@pytest.mark.anyio
@pytest.mark.usefixtures("system_env")
async def test_each_request_logs_on_with_its_own_credentials(adt: FakeAdt, tmp_path: Path) -> None:
    adt.bearer_tokens.add(TOKEN)
    with serve(tmp_path) as base:
        async with client(base, basic("DEVELOPER", PASSWORD)) as alice:
            result = await alice.call_tool("get_program", {"name": "ZTEST_PROGRAM"})
            assert not result.is_error, result.content
            assert "REPORT ztest_program." in str(result.structured_content)
        assert {r.headers.get("authorization") for r in adt.requests} == {basic("DEVELOPER", PASSWORD)}

        adt.requests.clear()
        async with client(base, f"Bearer {TOKEN}") as bob:
            assert not (await bob.call_tool("get_program", {"name": "ZTEST_PROGRAM"})).is_error
        assert {r.headers.get("authorization") for r in adt.requests} == {f"Bearer {TOKEN}"}
        # a fresh ADT session per request: no cookie of the earlier caller travels with the later one
        assert not any("cookie" in r.headers for r in adt.requests[:1])

        adt.requests.clear()
        async with client(base) as anonymous:  # nothing left over from the calls before
            missing = await anonymous.call_tool("get_program", {"name": "ZTEST_PROGRAM"})
        assert missing.is_error and "X-SAP-Authorization" in str(missing.content)
        assert adt.requests == []


@pytest.mark.anyio
@pytest.mark.usefixtures("system_env")
async def test_credentials_absent_from_logs_metrics_and_errors(
    adt: FakeAdt, tmp_path: Path, captured_logs: io.StringIO
) -> None:
    wrong = "Wrong-Passw0rd-77"
    seen: list[str] = []
    masked_before = set(log_mod._secrets)
    with serve(tmp_path) as base:
        async with client(base, basic("DEVELOPER", PASSWORD)) as good:
            ok = await good.call_tool("get_program", {"name": "ZTEST_PROGRAM"})
            failed = await good.call_tool("get_class", {"name": "ZCL_DOES_NOT_EXIST"})
        async with client(base, basic("DEVELOPER", wrong)) as bad:
            refused = await bad.call_tool("get_program", {"name": "ZTEST_PROGRAM"})
        seen += [str(ok.content), str(failed.content), str(refused.content)]
        assert refused.is_error and "HTTP 401" in str(refused.content)
        assert "X-SAP-Authorization" in str(refused.content)  # says where the wrong logon came from
        seen.append(httpx.get(base + "/metrics").text)
    seen.append(captured_logs.getvalue())
    assert "get_program" in seen[-1]  # the access log did record the calls
    for secret in (PASSWORD, wrong, basic("DEVELOPER", PASSWORD).split()[1], basic("DEVELOPER", wrong).split()[1]):
        assert not [text for text in seen if secret in text]
    # the server keeps nothing of a caller once the request is over (a long-running server would grow)
    assert set(log_mod._secrets) <= masked_before  # nor its session cookies and CSRF tokens


@pytest.mark.usefixtures("system_env")
def test_malformed_credentials_are_a_400_naming_the_format(tmp_path: Path) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {},
    }
    with serve(tmp_path) as base:
        for value in ("Basic not*base64", basic("DEVELOPER", ""), "Digest abc=1", "Bearer two words"):
            answer = httpx.post(base + "/mcp", json=init, headers={**MCP_HEADERS, "X-SAP-Authorization": value})
            assert answer.status_code == 400
            assert "X-SAP-Authorization must be 'Basic <base64 of user:password>' or 'Bearer <token>'" in answer.text
            assert value.split(" ", 1)[1] not in answer.text


@pytest.mark.anyio
@pytest.mark.usefixtures("system_env")
async def test_abap_tools_off_unless_enabled_and_writes_off_unless_enabled(adt: FakeAdt, tmp_path: Path) -> None:
    with serve(tmp_path, abap=False) as base:
        async with client(base, basic("DEVELOPER", PASSWORD)) as plain:
            names = {t.name for t in (await plain.list_tools()).tools}
        assert "get_program" not in names and "get_known_errors" in names
    with serve(tmp_path) as base:
        async with client(base, basic("DEVELOPER", PASSWORD)) as reader:
            names = {t.name for t in (await reader.list_tools()).tools}
        assert "get_program" in names and "write_source" not in names and "delete_object" not in names
    with serve(tmp_path, writes=True) as base:
        async with client(base, basic("DEVELOPER", PASSWORD)) as writer:
            assert "write_source" in {t.name for t in (await writer.list_tools()).tools}
            written = await writer.call_tool(
                "write_source", {"name": "ZTEST_PROGRAM", "kind": "program", "source": "REPORT ztest_program.\n* new\n"}
            )
        assert not written.is_error, written.content
        assert adt.objects["/sap/bc/adt/programs/programs/ztest_program"].inactive.endswith("* new\n")


def test_server_refuses_its_own_sap_credentials_or_no_system(
    adt: FakeAdt, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAP_URL", adt.url)
    monkeypatch.setenv("SAP_PASSWORD", "server-side-secret")
    with pytest.raises(SapDevsError, match="SAP_PASSWORD is set") as refused:
        open_http_session(None, None, tmp_path, abap=True)
    assert "server-side-secret" not in str(refused.value)
    monkeypatch.delenv("SAP_PASSWORD")
    monkeypatch.delenv("SAP_URL")
    with pytest.raises(SapDevsError, match="need the system's URL in SAP_URL"):
        open_http_session(None, None, tmp_path, abap=True)
    with pytest.raises(SapDevsError, match="--abap-writes needs --abap"):
        open_http_session(None, None, tmp_path, abap_writes=True)


def test_cli_serves_abap_tools_only_with_the_flag(adt: FakeAdt, monkeypatch: pytest.MonkeyPatch) -> None:
    from sap_devs.cli.serve import build_http

    monkeypatch.setenv("SAP_URL", adt.url)
    monkeypatch.delenv("SAP_PASSWORD", raising=False)
    _, ctx, _, args = build_http(["--transport", "http", "--abap"])
    assert ctx.adt_config.credentials_per_request and ctx.adt_config.url == adt.url
    assert ctx.adt_config.password is None and not ctx.safety.writes
    assert "ABAP tools for" in args.banner
    _, plain, _, _ = build_http(["--transport", "http"])
    assert plain.adt_config is None


@pytest.mark.usefixtures("system_env")
def test_credentials_with_bytes_outside_ascii_are_a_400(tmp_path: Path) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "get_program", "arguments": {"name": "ZTEST_PROGRAM"}},
    }
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
    with serve(tmp_path) as base:
        for value in (b"Bearer \xff\xfe-token", b"Basic \xff", b"Bearer tok\x7fen"):
            answer = httpx.post(base + "/mcp", json=call, headers={**headers, "X-SAP-Authorization": value})
            assert answer.status_code == 400, (value, answer.status_code, answer.text[:200])
            assert "X-SAP-Authorization must be printable ASCII" in answer.json()["error"]


@pytest.mark.anyio
@pytest.mark.usefixtures("system_env")
async def test_a_password_equal_to_log_text_does_not_rewrite_other_callers_lines(
    adt: FakeAdt, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's SAP password is "tools/call"; while her request runs, Bob's access line still says
    what Bob called (the production handler, as ``setup_access_log`` installs it)."""
    import sys

    import anyio

    from sap_devs.http.app import setup_access_log

    out = io.StringIO()
    monkeypatch.setattr(sys, "stderr", out)
    monkeypatch.delenv("SAP_DEVS_ACCESS_LOG", raising=False)
    saved = list(access_log.handlers)
    for handler in saved:
        access_log.removeHandler(handler)
    setup_access_log()
    call = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "get_known_errors", "arguments": {"query": "SQL error 258"}},
    }
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
    try:
        with serve(tmp_path) as base:
            async with httpx.AsyncClient(timeout=30) as http:  # the packs load before Alice's call starts
                assert (await http.post(base + "/mcp", json=call, headers=headers)).status_code == 200
            adt.delay = 6.0
            async with anyio.create_task_group() as tg:

                async def alice() -> None:
                    async with client(base, basic("ALICE", "tools/call")) as session:
                        await session.call_tool("get_program", {"name": "ZTEST_PROGRAM"})

                tg.start_soon(alice)
                while not adt.requests:  # Alice's call has reached the system and waits there
                    await anyio.sleep(0.02)
                async with httpx.AsyncClient(timeout=30) as http:
                    bob = await http.post(base + "/mcp", json=call, headers={**headers, "X-Request-Id": "bob-1"})
                    assert bob.status_code == 200
                    assert adt.requests[-1].headers.get("authorization") == basic("ALICE", "tools/call")
                deadline = time.monotonic() + 10
                while '"bob-1"' not in out.getvalue() and time.monotonic() < deadline:
                    await anyio.sleep(0.02)
    finally:
        for handler in list(access_log.handlers):
            access_log.removeHandler(handler)
        for handler in saved:
            access_log.addHandler(handler)
    line = next(json.loads(line) for line in out.getvalue().splitlines() if '"bob-1"' in line)
    assert line["rpc"] == "tools/call" and line["tool"] == "get_known_errors", line
