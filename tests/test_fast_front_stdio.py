"""``sap-devs mcp serve`` over stdio with the fast front gives a client the same replies as the SDK
server alone (``SAP_DEVS_FAST_FRONT=0``), including after the SDK takes over mid-session."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sap_devs.mcp import front_plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="select() on pipes is POSIX only")
MODERN = "io.modelcontextprotocol/"
SERVE = [sys.executable, "-m", "sap_devs.cli.entry", "mcp", "serve"]  # also proves the module's main guard


def envelope(**extra: Any) -> dict[str, Any]:
    meta = {f"{MODERN}protocolVersion": "2026-07-28", f"{MODERN}clientCapabilities": {}}
    return {"_meta": {**meta, f"{MODERN}clientInfo": {"name": "t", "version": "1"}}, **extra}


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
SESSIONS: dict[str, list[dict[str, Any]]] = {
    "handshake era": [
        INIT,
        INITIALIZED,
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_packs", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
    ],
    "2026-07-28 era": [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": envelope()},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": envelope()},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": envelope(name="list_packs", arguments={})},
        {"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": INIT["params"]},
        {"jsonrpc": "2.0", "id": 5, "method": "ping", "params": envelope()},
    ],
    "the SDK takes over at a message the front leaves": [
        INIT,
        INITIALIZED,
        {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
        {**INIT, "id": 4},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": envelope()},
    ],
    "requests before the handshake": [
        {"jsonrpc": "2.0", "id": 0, "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {**INIT, "id": 2},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
    ],
}


def run_session(home: Path, messages: list[dict[str, Any]], *args: str, front: bool = True) -> tuple[dict, str]:
    """Every reply by id once all requests have one; then stdin closes. Also the server's stderr."""
    env = dict(os.environ)
    env.update(
        SAP_DEVS_CONFIG_DIR=str(home / "config"),
        SAP_DEVS_CACHE_DIR=str(home / "cache"),
        SAP_DEVS_DATA_DIR=str(home / "data"),
        SAP_DEVS_FAST_FRONT="1" if front else "0",
    )
    for name in ("SAP_URL", "SAP_DEVS_SYSTEM", "SAP_DEVS_PROFILE", "SAP_DEVS_TOOLS"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [*SERVE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=home
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    proc.stdin.flush()
    expected = {m["id"] for m in messages if "id" in m}
    replies: dict[Any, dict] = {}
    try:
        while set(replies) != expected:
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, f"no reply within 60 s; replies so far: {sorted(map(str, replies))}"
            line = proc.stdout.readline()
            assert line, f"the server exited early: {proc.stderr.read().decode()}"
            reply = json.loads(line)
            assert reply.get("id") in expected and reply["id"] not in replies, f"unexpected reply {line[:200]!r}"
            replies[reply["id"]] = reply
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.stdout.read() == b"", "nothing after the last reply"
    return replies, proc.stderr.read().decode()


@pytest.fixture(autouse=True)
def front_applies() -> None:
    assert front_plan.load_data() is not None, "front.json does not fit this checkout: run `sap-devs tools docs`"


@pytest.mark.parametrize("session", list(SESSIONS))
def test_a_client_gets_the_same_replies_with_and_without_the_front(tmp_path: Path, session: str) -> None:
    with_front, log = run_session(tmp_path, SESSIONS[session])
    without, _ = run_session(tmp_path, SESSIONS[session], front=False)
    assert with_front == without
    assert "differently from the SDK" not in log and "differs from the server's" not in log, log


@pytest.mark.parametrize("args", [["--tools", "progressive"], ["--pin", "get_tip", "--tools", "progressive"]])
def test_modes_from_the_command_line(tmp_path: Path, args: list[str]) -> None:
    messages = SESSIONS["handshake era"][:3]
    with_front, _ = run_session(tmp_path, messages, *args)
    without, _ = run_session(tmp_path, messages, *args, front=False)
    assert with_front == without
    names = [t["name"] for t in with_front[2]["result"]["tools"]]
    assert "search_tools" in names and ("get_tip" in names) == ("get_tip" in args)


def test_a_client_that_leaves_after_the_tool_list_gets_it_and_the_server_exits(tmp_path: Path) -> None:
    env = dict(os.environ, SAP_DEVS_DATA_DIR=str(tmp_path / "data"), SAP_DEVS_CACHE_DIR=str(tmp_path / "cache"))
    messages = SESSIONS["handshake era"][:3]
    proc = subprocess.run(
        SERVE,
        input=b"".join(json.dumps(m).encode() + b"\n" for m in messages),
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0, proc.stderr.decode()
    assert [r["id"] for r in replies] == [1, 2] and all("result" in r for r in replies)


def _replies_to(home: Path, data: bytes, expected: set[Any], *, front: bool) -> dict[Any, dict]:
    """The replies to ``data`` sent as it is, stdin kept open until every expected id has one."""
    env = dict(os.environ, SAP_DEVS_DATA_DIR=str(home / "data"), SAP_DEVS_CACHE_DIR=str(home / "cache"))
    env["SAP_DEVS_FAST_FRONT"] = "1" if front else "0"
    proc = subprocess.Popen(  # unbuffered: select() must see every line that is not read yet
        SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=home, bufsize=0
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(data)
    proc.stdin.flush()
    replies: dict[Any, dict] = {}
    try:
        while set(replies) != expected:
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            if not ready:
                break  # what came is what the client gets
            line = proc.stdout.readline()
            if not line:
                break
            reply = json.loads(line)
            replies[reply.get("id")] = reply
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return replies


@pytest.mark.parametrize("between", [b"\r", b"\r\r", b"\n\r"])
def test_a_lone_cr_between_two_messages_answers_both(tmp_path: Path, between: bytes) -> None:
    """The SDK's reader takes a lone CR for a line end (universal newlines); the front does too."""
    data = json.dumps(INIT).encode() + between + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}).encode()
    with_front = _replies_to(tmp_path, data + b"\n", {1, 2}, front=True)
    assert set(with_front) == {1, 2}, with_front
    assert "result" in with_front[1] and with_front[2]["result"] == {}
    assert with_front == _replies_to(tmp_path, data + b"\n", {1, 2}, front=False)
