"""Connections that never finish their request: closed in time, never crowding out a caller with a key."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sap_devs.http.app import HttpSettings
from sap_devs.http.keys import create_key
from sap_devs.http.run import LOCAL_ONLY_TOOLS
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="descriptor limits are POSIX")
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
MODERN = "io.modelcontextprotocol/"
MODERN_LIST = {
    **LIST,
    "params": {
        "_meta": {
            f"{MODERN}protocolVersion": "2026-07-28",
            f"{MODERN}clientCapabilities": {},
            f"{MODERN}clientInfo": {"name": "t", "version": "1"},
        }
    },
}


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` (without answering) within ``seconds``."""
    sock.settimeout(seconds)
    try:
        return sock.recv(65536) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def _list(base: str, key: str) -> httpx.Response:
    headers = {
        **MCP_HEADERS,
        "Authorization": f"Bearer {key}",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/list",
    }
    return httpx.post(base + "/mcp", json=MODERN_LIST, headers=headers, timeout=20)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    home = tmp_path_factory.mktemp("conn")
    key_file = home / "api-keys.json"
    key, _ = create_key(key_file, "alice")
    registry = Registry([t for t in Registry.default() if t.name not in LOCAL_ONLY_TOOLS])
    ctx = ToolContext(cwd=home, layers=[bundled_layer()])
    settings = HttpSettings(api_keys=key_file, max_concurrent=2)
    settings.header_timeout = settings.body_timeout = 1.0
    with sap_devs_http(build_server(registry, ctx, mode="full"), settings, ctx) as base:
        yield base, key


def test_headers_that_never_end_are_closed_after_the_header_timeout(served: tuple[str, str]) -> None:
    base, _ = served
    port = int(base.rsplit(":", 1)[1])
    silent = _connect(port)  # connects and sends nothing
    trickle = _connect(port)
    trickle.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    closed_while_trickling = False
    for _ in range(3):  # a byte now and then does not restart the clock
        time.sleep(0.25)
        try:
            trickle.sendall(b"X")
        except (BrokenPipeError, ConnectionResetError):
            # On a loaded machine the three sleeps can outlast the 1 s timeout: closed in time, as asked.
            closed_while_trickling = True
            break
    assert closed_while_trickling or _closed_within(trickle, 10), "a request whose headers never end is never closed"
    assert _closed_within(silent, 10)
    assert time.monotonic() - started < 9  # the timeout is 1 s; the rest is a loaded machine


def test_a_body_that_never_arrives_is_closed_and_holds_no_concurrency_slot(served: tuple[str, str]) -> None:
    base, key = served
    port = int(base.rsplit(":", 1)[1])
    stalled = []
    for _ in range(4):  # twice the identity's limit of 2: headers with a valid key, then no body
        sock = _connect(port)
        sock.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
            + f"Authorization: Bearer {key}\r\nContent-Length: 500\r\n\r\n".encode()
        )
        stalled.append(sock)
    time.sleep(0.3)
    answer = _list(base, key)
    assert answer.status_code == 200, (
        f"{answer.status_code} {answer.text[:300]}: requests still arriving held the slots"
    )
    assert "tools" in answer.json()["result"]
    for sock in stalled:
        assert _closed_within(sock, 5), "a body that never arrives is never closed"


def test_the_access_log_and_the_slots_survive_clients_that_leave_mid_body(served: tuple[str, str]) -> None:
    base, key = served
    port = int(base.rsplit(":", 1)[1])
    for _ in range(5):
        sock = _connect(port)
        sock.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Authorization: Bearer {key}\r\nContent-Length: 500\r\n\r\n{{".encode()
        )
        sock.close()
    assert _list(base, key).status_code == 200


def test_malformed_requests_are_one_warning_per_interval(
    served: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    base, key = served
    port = int(base.rsplit(":", 1)[1])
    with caplog.at_level("WARNING", logger="uvicorn.error"):
        for _ in range(40):
            sock = _connect(port)
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            _closed_within(sock, 5)  # answered 400 and closed
            sock.close()
    warned = [r for r in caplog.records if "Invalid HTTP request" in r.getMessage()]
    assert len(warned) <= 1, f"{len(warned)} warnings for 40 bad requests"
    assert _list(base, key).status_code == 200


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_flood_of_half_sent_requests_under_a_low_descriptor_limit(tmp_path: Path) -> None:
    """The server process runs with at most 256 open files; 400 connections that never finish
    their headers must neither lock out a caller with a key nor flood stderr."""
    import resource

    key_file = tmp_path / "api-keys.json"
    key, _ = create_key(key_file, "alice")
    port = _free_port()
    env = {
        **os.environ,
        "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg"),
        "SAP_DEVS_CACHE_DIR": str(tmp_path / "cache"),
        "SAP_DEVS_DATA_DIR": str(tmp_path / "data"),
        "SAP_DEVS_ACCESS_LOG": "0",
    }

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    err = (tmp_path / "stderr").open("wb")
    serve = ["mcp", "serve", "--transport", "http", "--port", str(port), "--api-keys", str(key_file)]
    server = subprocess.Popen(
        [sys.executable, "-m", "sap_devs.cli.entry", *serve],
        stdout=subprocess.DEVNULL,
        stderr=err,
        env=env,
        cwd=tmp_path,
        preexec_fn=low_limit,
    )
    flood: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        before = (tmp_path / "stderr").stat().st_size
        for _ in range(400):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=2)
                sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                flood.append(sock)
            except OSError:
                pass  # refused or reset: the server closed an old one to make room
        started = time.monotonic()
        answer = _list(f"http://127.0.0.1:{port}", key)
        assert answer.status_code == 200 and "tools" in answer.json()["result"]
        assert time.monotonic() - started < 10
        time.sleep(0.5)
        grown = (tmp_path / "stderr").stat().st_size - before
        text = (tmp_path / "stderr").read_text(errors="replace")
        assert "Traceback" not in text and "Too many open files" not in text, text[-2000:]
        assert grown < 2000, f"stderr grew by {grown} bytes: {text[-1000:]}"
        assert text.count("HTTP connections closed") <= 1  # one line per interval, not per connection
    finally:
        for sock in flood:
            sock.close()
        server.terminate()
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            server.kill()
        err.close()


def test_connection_limits_stay_below_the_descriptor_limit() -> None:
    import resource

    from sap_devs.http.connections import ConnectionLimits

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    limits = ConnectionLimits.for_process(10**9)
    assert limits.max_connections + limits.backlog() < soft
    assert limits.max_per_peer <= limits.max_connections
    asked = ConnectionLimits.for_process(50, 10)
    assert (asked.max_connections, asked.max_per_peer) == (50, 10)
    json.dumps(limits.__dict__)  # plain numbers, as the banner and the docs name them
