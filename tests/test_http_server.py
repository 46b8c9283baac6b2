"""sap-devs over Streamable HTTP: a real uvicorn server on 127.0.0.1, the SDK's HTTP client, both eras."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from sap_devs.core.errors import SapDevsError
from sap_devs.http import keys as keys_mod
from sap_devs.http.app import HttpSettings
from sap_devs.http.keys import create_key, revoke_key
from sap_devs.http.run import LOCAL_ONLY_TOOLS
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http

ERAS = ["legacy", "auto"]
REGISTRY = Registry([t for t in Registry.default() if t.name not in LOCAL_ONLY_TOOLS])
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def _server(tmp_path: Path, mode: str = "full"):
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()])
    return build_server(REGISTRY, ctx, mode=mode), ctx


def _client(url: str, mode: str, key: str | None = None) -> Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    http = httpx2.AsyncClient(headers=headers, timeout=30)
    return Client(streamable_http_client(url, http_client=http), mode=mode)


@pytest.fixture(scope="module")
def open_server(tmp_path_factory):
    server, ctx = _server(tmp_path_factory.mktemp("cwd"))
    with sap_devs_http(server, HttpSettings(), ctx) as base:
        yield base


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_both_eras_list_and_call_tools_over_http(open_server: str, tmp_path: Path, mode: str) -> None:
    local, _ = _server(tmp_path)
    async with Client(local, mode="legacy") as direct:
        expected_instructions = direct.instructions
        expected_tools = [t.name for t in (await direct.list_tools()).tools]
        expected_prompts = [p.name for p in (await direct.list_prompts()).prompts]
        expected_resources = [r.uri for r in (await direct.list_resources()).resources]
    async with _client(open_server + "/mcp", mode) as client:
        if mode == "auto":
            assert client.protocol_version == "2026-07-28"
        else:
            assert client.protocol_version < "2026"
        assert client.server_info is not None and client.server_info.name == "sap-devs"
        assert client.instructions == expected_instructions
        listed = [t.name for t in (await client.list_tools()).tools]
        assert listed == expected_tools
        assert not set(listed) & LOCAL_ONLY_TOOLS
        assert [p.name for p in (await client.list_prompts()).prompts] == expected_prompts
        assert [r.uri for r in (await client.list_resources()).resources] == expected_resources
        result = await client.call_tool("get_known_errors", {"query": "SQL error 258: insufficient privilege"})
        assert not result.is_error
        assert result.structured_content is not None and result.structured_content["count"] >= 1
        bad = await client.call_tool("get_known_errors", {"query": 42})
        assert bad.is_error


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_progressive_mode_advertises_library_discovery_over_http(tmp_path: Path, mode: str) -> None:
    server, ctx = _server(tmp_path, mode="progressive")
    with sap_devs_http(server, HttpSettings(), ctx) as base:
        async with _client(base + "/mcp", mode) as client:
            caps = client.server_capabilities
            assert caps is not None and (caps.experimental or {}).get("libraryDiscovery") == {"version": "0.1.0"}
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"search_tools", "get_tool_schemas", "call_tool"} <= names


def test_health_and_readiness(open_server: str) -> None:
    assert httpx.get(open_server + "/healthz").json() == {"status": "ok"}
    ready = httpx.get(open_server + "/readyz")
    assert ready.status_code == 200 and ready.json() == {"ready": True}


def test_dns_rebinding_origin_and_host_refused(open_server: str) -> None:
    evil = httpx.post(open_server + "/mcp", json=INIT, headers={**MCP_HEADERS, "Origin": "http://evil.example"})
    assert evil.status_code == 403
    rebound = httpx.post(open_server + "/mcp", json=INIT, headers={**MCP_HEADERS, "Host": "evil.example"})
    assert rebound.status_code == 421
    local = httpx.post(open_server + "/mcp", json=INIT, headers={**MCP_HEADERS, "Origin": "http://localhost:3000"})
    assert local.status_code == 200
    # health probes come with the pod's address as Host: not refused
    assert httpx.get(open_server + "/healthz", headers={"Host": "10.1.2.3:8080"}).status_code == 200


def test_request_body_is_bounded(tmp_path: Path) -> None:
    server, ctx = _server(tmp_path)
    with sap_devs_http(server, HttpSettings(max_body=4096), ctx) as base:
        big = {**INIT, "params": {**INIT["params"], "padding": "x" * 10_000}}
        assert httpx.post(base + "/mcp", json=big, headers=MCP_HEADERS).status_code == 413
        assert httpx.post(base + "/mcp", json=INIT, headers=MCP_HEADERS).status_code == 200


def test_non_loopback_without_authentication_refused() -> None:
    with pytest.raises(SapDevsError, match="without authentication"):
        HttpSettings(host="0.0.0.0").check()
    HttpSettings(host="0.0.0.0", api_keys=Path("keys.json")).check()
    HttpSettings(host="::1").check()


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(keys_mod, "RELOAD_INTERVAL", 0.0)
    return tmp_path / "keys" / "api-keys.json"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_api_key_required_and_revocable(tmp_path: Path, key_file: Path, mode: str) -> None:
    key, _ = create_key(key_file, "alice")
    server, ctx = _server(tmp_path)
    with sap_devs_http(server, HttpSettings(api_keys=key_file), ctx) as base:
        url = base + "/mcp"
        missing = httpx.post(url, json=INIT, headers=MCP_HEADERS)
        assert missing.status_code == 401
        challenge = missing.headers["www-authenticate"]
        assert challenge.startswith("Bearer ") and 'error="invalid_token"' in challenge
        wrong = key[:-4] + ("AAAA" if not key.endswith("AAAA") else "BBBB")
        for bad in (wrong, "sdk_00000000_" + "A" * 43, "not-a-key", "x" * 20_000):
            answer = httpx.post(url, json=INIT, headers={**MCP_HEADERS, "Authorization": f"Bearer {bad}"})
            assert answer.status_code == 401
            assert bad[:16] not in answer.text and bad[:16] not in answer.headers["www-authenticate"]
        async with _client(url, mode, key) as client:
            assert "get_known_errors" in {t.name for t in (await client.list_tools()).tools}
        revoke_key(key_file, "alice")
        after = httpx.post(url, json=INIT, headers={**MCP_HEADERS, "Authorization": f"Bearer {key}"})
        assert after.status_code == 401


def test_key_file_is_private_and_holds_only_hashes(key_file: Path) -> None:
    key, entry = create_key(key_file, "ci-bot")
    other, _ = create_key(key_file, "alice")
    assert key_file.stat().st_mode & 0o777 == 0o600
    text = key_file.read_text()
    assert key not in text and other not in text and key.split("_")[2] not in text
    assert entry.hash in text and entry.hash.startswith("sha256:")
    with pytest.raises(SapDevsError, match="exists already"):
        create_key(key_file, "ci-bot")
    with pytest.raises(SapDevsError, match="Invalid key name"):
        create_key(key_file, "../evil\n")
    assert revoke_key(key_file, entry.id).name == "ci-bot"
    assert [e.name for e in keys_mod.read_entries(key_file)] == ["alice"]
    key_file.write_text("{not json")
    with pytest.raises(SapDevsError, match="not a sap-devs key file"):
        keys_mod.read_entries(key_file)


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _ENTRY, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


_ENTRY = "import sys; from sap_devs.cli.entry import main; sys.argv[0] = 'sap-devs'; main()"


def test_keys_cli_create_list_revoke(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}
    created = _cli("keys", "create", "ci-bot", env=env)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    assert key.startswith("sdk_") and "not shown again" in created.stderr and key not in created.stderr
    listed = _cli("keys", "list", "--json", env=env)
    assert json.loads(listed.stdout)[0]["name"] == "ci-bot" and key not in listed.stdout
    assert _cli("keys", "create", "ci-bot", env=env).returncode == 2
    revoked = _cli("keys", "revoke", "ci-bot", env=env)
    assert revoked.returncode == 0 and "Revoked" in revoked.stderr
    missing = _cli("keys", "revoke", "ci-bot", env=env)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


def test_cli_refuses_public_bind_without_authentication(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("SAP_DEVS_API_KEYS_FILE", None)
    out = _cli("mcp", "serve", "--transport", "http", "--host", "0.0.0.0", "--port", "1", env=env)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [out.stderr.strip()]
    assert "without authentication" in out.stderr


def test_stdio_start_up_does_not_import_the_http_stack() -> None:
    """(uvicorn and starlette come with the SDK's own imports; the JWT library and sap_devs.http do not.)"""
    code = (
        "import sys\n"
        "from sap_devs.cli import serve\n"
        "from sap_devs.mcp.registry import Registry\n"
        "from sap_devs.mcp.server import build_server\n"
        "from sap_devs.mcp.framework import ToolContext\n"
        "build_server(Registry.default(), ToolContext())\n"
        "print(','.join(m for m in ('sap_devs.http', 'jwt') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == ""


def test_concurrency_limit_per_identity_answers_429() -> None:
    import threading

    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from sap_devs.http.app import ConcurrencyLimit
    from tests.http_helpers import uvicorn_running

    release = threading.Event()
    entered = threading.Semaphore(0)

    async def slow(_request):
        import anyio

        entered.release()
        await anyio.to_thread.run_sync(release.wait, 10)
        return PlainTextResponse("done")

    app = ConcurrencyLimit(Starlette(routes=[Route("/slow", slow)]), limit=2)
    with uvicorn_running(app) as base:
        results: list[int] = []

        def call() -> None:
            results.append(httpx.get(base + "/slow", timeout=20).status_code)

        threads = [threading.Thread(target=call) for _ in range(2)]
        for t in threads:
            t.start()
        assert entered.acquire(timeout=10) and entered.acquire(timeout=10)
        third = httpx.get(base + "/slow", timeout=20)
        assert third.status_code == 429 and third.headers["retry-after"] == "1"
        assert "limit 2" in third.json()["error"]
        release.set()
        for t in threads:
            t.join(20)
        assert results == [200, 200]
        # the slot is given back on the server's thread after the response has gone out: wait for it
        deadline = time.monotonic() + 10
        while app.active and time.monotonic() < deadline:
            time.sleep(0.01)
        assert app.active == {}
        assert httpx.get(base + "/slow", timeout=20).status_code == 200


def test_identity_separates_credentials_and_addresses() -> None:
    from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
    from mcp.server.auth.provider import AccessToken

    from sap_devs.http.app import identity

    def user(client: str, sub: str) -> AuthenticatedUser:
        return AuthenticatedUser(AccessToken(token="", client_id=client, scopes=[], subject=sub, claims={"iss": "i"}))

    a, b = identity({"user": user("key:1", "alice")}), identity({"user": user("key:2", "bob")})
    assert a != b and a == identity({"user": user("key:1", "alice")})
    assert identity({"client": ("10.0.0.1", 5)}) != identity({"client": ("10.0.0.2", 5)})


@pytest.mark.anyio
async def test_real_cli_serves_http_with_an_api_key(tmp_path: Path) -> None:
    """``sap-devs mcp serve --transport http`` as a subprocess: keys from the CLI, the SDK client with one."""
    import os
    import socket
    import time

    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("SAP_DEVS_API_KEYS_FILE", None)
    key = _cli("keys", "create", "alice", env=env).stdout.strip()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", _ENTRY, "mcp", "serve", "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/readyz", timeout=10).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "server did not become ready"
            time.sleep(0.1)
        assert (
            httpx.post(base + "/mcp", json=INIT, headers=MCP_HEADERS, timeout=30).status_code == 401
        )  # the user's keys apply
        async with _client(base + "/mcp", "auto", key) as client:
            assert "search_docs" in {t.name for t in (await client.list_tools()).tools}
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert proc.returncode in (0, -15), err  # uvicorn shuts down gracefully, then re-raises SIGTERM
    assert "Traceback" not in err
    assert "authentication: API keys" in err and key not in err


def test_two_workers_survive_one_being_killed(tmp_path: Path) -> None:
    """--workers 2: with one worker killed mid-run, requests go on (a failed one is retried once)."""
    import os
    import signal
    import socket
    import time

    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("SAP_DEVS_API_KEYS_FILE", None)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", _ENTRY, "mcp", "serve", "--transport", "http", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}

    def call() -> int:
        for attempt in range(2):
            try:
                with httpx.Client(timeout=20) as http:  # a new connection: either worker may take it
                    answer = http.post(base + "/mcp", json=body, headers=headers)
                    assert "get_known_errors" in answer.text
                    return answer.status_code
            except httpx.TransportError:
                if attempt:
                    raise
        raise AssertionError("unreachable")

    try:
        deadline = time.monotonic() + 60

        def worker_pids() -> list[int]:
            kids = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            return [int(p) for p in kids if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()]

        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "workers did not start"
            try:
                if len(worker_pids()) == 2 and httpx.get(base + "/readyz").status_code == 200:
                    break
            except (httpx.TransportError, OSError):
                pass
            time.sleep(0.2)
        workers = worker_pids()
        statuses = [call() for _ in range(10)]
        os.kill(workers[-1], signal.SIGKILL)
        statuses += [call() for _ in range(30)]
        assert statuses == [200] * 40
        while len(set(worker_pids()) - set(workers)) < 1:  # uvicorn starts a replacement
            assert time.monotonic() < deadline + 30, "the killed worker was not replaced"
            time.sleep(0.2)
    finally:
        proc.terminate()
        proc.communicate(timeout=40)


def test_access_log_has_request_id_identity_and_tool_but_no_secret(
    tmp_path: Path, key_file: Path, caplog: pytest.LogCaptureFixture
) -> None:
    key, entry = create_key(key_file, "alice")
    server, ctx = _server(tmp_path)
    call = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "get_known_errors", "arguments": {"query": "secret-looking argument"}},
    }
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
    with (
        sap_devs_http(server, HttpSettings(api_keys=key_file), ctx) as base,
        caplog.at_level("INFO", logger="sap_devs.http.access"),
    ):
        ok = httpx.post(
            base + "/mcp", json=call, headers={**headers, "Authorization": f"Bearer {key}", "X-Request-Id": "req-42"}
        )
        refused = httpx.post(base + "/mcp", json=call, headers={**headers, "X-Request-Id": "bad id;<x>"})

        def logged() -> list[dict]:
            return [json.loads(r.getMessage()) for r in caplog.records if r.name == "sap_devs.http.access"]

        # the access line is written once the response has gone out, on the server's thread: wait for both
        deadline = time.monotonic() + 10
        while len(logged()) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert ok.status_code == 200 and ok.headers["x-request-id"] == "req-42"
    assert refused.status_code == 401 and len(refused.headers["x-request-id"]) == 32
    lines = logged()
    first = next(line for line in lines if line["request_id"] == "req-42")
    assert first["status"] == 200 and first["rpc"] == "tools/call" and first["tool"] == "get_known_errors"
    assert first["auth"] == "api_key" and first["subject"] == "alice" and first["client"] == f"key:{entry.id}"
    second = next(line for line in lines if line["request_id"] == refused.headers["x-request-id"])
    assert second["status"] == 401 and "subject" not in second
    assert key not in caplog.text and "secret-looking" not in caplog.text


def test_metrics_count_requests_per_tool_with_bounded_labels(open_server: str) -> None:
    headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
    for name in ("get_known_errors", "no_such_tool_" + "x" * 40):
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": {"query": "x"}},
        }
        httpx.post(open_server + "/mcp", json=call, headers=headers)
    httpx.post(open_server + "/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "made/up"}, headers=headers)
    text = httpx.get(open_server + "/metrics").text
    assert 'sap_devs_http_requests_total{auth="none",rpc="tools/call",status="200",tool="get_known_errors"}' in text
    assert 'tool="other"' in text and 'rpc="other"' in text and "no_such_tool" not in text and "made/up" not in text
    assert 'sap_devs_http_request_duration_seconds_bucket{auth="none",le="0.005",rpc="tools/call"' in text


def test_metrics_need_a_credential_when_authentication_is_on(tmp_path: Path, key_file: Path) -> None:
    key, _ = create_key(key_file, "prometheus")
    server, ctx = _server(tmp_path)
    with sap_devs_http(server, HttpSettings(api_keys=key_file), ctx) as base:
        assert httpx.get(base + "/metrics").status_code == 401
        scraped = httpx.get(base + "/metrics", headers={"Authorization": f"Bearer {key}"})
        assert scraped.status_code == 200 and "sap_devs_http_requests_total" in scraped.text


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_sse_responses_when_configured(tmp_path: Path, mode: str) -> None:
    server, ctx = _server(tmp_path)
    with sap_devs_http(server, HttpSettings(json_response=False), ctx) as base:
        async with _client(base + "/mcp", mode) as client:
            result = await client.call_tool("get_known_errors", {"query": "SQL error 258"})
            assert not result.is_error
        headers = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
        answer = httpx.post(base + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers)
        assert answer.headers["content-type"].startswith("text/event-stream") and "get_known_errors" in answer.text


def test_shutdown_finishes_the_calls_in_flight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopping the server (SIGTERM sets should_exit) lets a running tool call answer before it ends."""
    import threading

    import anyio
    import uvicorn

    import sap_devs.mcp.server as server_mod
    from sap_devs.http.app import build_app
    from sap_devs.http.run import uvicorn_config

    started = threading.Event()
    real_invoke = server_mod.invoke

    async def slow_invoke(*args, **kwargs):
        started.set()
        await anyio.sleep(1.0)
        return await real_invoke(*args, **kwargs)

    monkeypatch.setattr(server_mod, "invoke", slow_invoke)
    server, ctx = _server(tmp_path)
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    http_server = uvicorn.Server(uvicorn_config(build_app(server, HttpSettings(port=port), ctx=ctx), HttpSettings()))
    thread = threading.Thread(target=http_server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not http_server.started:
        time.sleep(0.01)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "get_known_errors", "arguments": {"query": "SQL error 258"}},
    }
    answers: list[httpx.Response] = []
    caller = threading.Thread(
        target=lambda: answers.append(
            httpx.post(
                f"http://127.0.0.1:{port}/mcp",
                json=call,
                headers={**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"},
                timeout=20,
            )
        )
    )
    caller.start()
    assert started.wait(10)
    http_server.should_exit = True  # what uvicorn's SIGTERM handler does
    caller.join(20)
    thread.join(20)
    sock.close()
    assert answers and answers[0].status_code == 200
    assert json.loads(answers[0].text)["result"]["isError"] is False


def test_no_standalone_stream_so_held_gets_cannot_exhaust_the_limit(tmp_path: Path) -> None:
    server, ctx = _server(tmp_path)
    with sap_devs_http(server, HttpSettings(max_concurrent=2), ctx) as base:
        for _ in range(5):  # a stream held open per GET used to take a slot each, until every POST got 429
            get = httpx.get(base + "/mcp", headers={"accept": "text/event-stream"}, timeout=5)
            assert get.status_code == 405 and get.headers["allow"] == "POST"
        assert httpx.delete(base + "/mcp", timeout=5).status_code == 405
        assert httpx.post(base + "/mcp", json=INIT, headers=MCP_HEADERS).status_code == 200
