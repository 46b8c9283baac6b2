"""The HTTP server against hostile input: key files others can write, key names that read as ids,
Host headers, bodies nested very deep (issue 25, items 9, 11, 12 and 16)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.http import app as app_mod
from sap_devs.http import keys as keys_mod
from sap_devs.http.app import HttpSettings
from sap_devs.http.keys import KeyStore, create_key, revoke_key
from sap_devs.http.run import LOCAL_ONLY_TOOLS
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http

MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
LEGACY = {**MCP_HEADERS, "mcp-protocol-version": "2025-06-18"}
posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes and owners are POSIX")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("hardening")
    registry = Registry([t for t in Registry.default() if t.name not in LOCAL_ONLY_TOOLS])
    ctx = ToolContext(cwd=home, layers=[bundled_layer()])
    with sap_devs_http(build_server(registry, ctx, mode="full"), HttpSettings(), ctx) as base:
        yield base


# -- 9: the API key file -------------------------------------------------------------------------


@posix_only
def test_a_world_writable_key_file_is_refused(tmp_path: Path) -> None:
    key_file = tmp_path / "keys" / "api-keys.json"
    create_key(key_file, "alice")
    key_file.chmod(0o666)
    with pytest.raises(SapDevsError, match="anyone on this machine can write it") as refused:
        KeyStore(key_file)
    assert "chmod 600" in str(refused.value)
    check_file_safety = keys_mod.check_file_safety
    key_file.chmod(0o620)
    assert any("writable by its group" in w for w in check_file_safety(key_file))
    if os.getuid() == 0:  # only root can hand a file to another user
        os.chown(key_file, 12345, -1)
        assert any("belongs to another user (uid 12345)" in w for w in check_file_safety(key_file))
        os.chown(key_file, 0, -1)
    key_file.chmod(0o600)
    key_file.parent.chmod(0o777)  # anyone could swap the file for their own
    try:
        with pytest.raises(SapDevsError, match="can replace it"):
            check_file_safety(key_file)
        key_file.parent.chmod(0o1777)  # sticky, like /tmp: only the owner can replace it
        assert check_file_safety(key_file) == []
    finally:
        key_file.parent.chmod(0o700)


@posix_only
def test_the_cli_will_not_serve_with_a_world_writable_key_file(tmp_path: Path) -> None:
    key_file = tmp_path / "api-keys.json"
    create_key(key_file, "alice")
    key_file.chmod(0o666)
    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}
    serve = ["mcp", "serve", "--transport", "http", "--port", "1", "--api-keys", str(key_file)]
    out = subprocess.run(
        [sys.executable, "-m", "sap_devs.cli.entry", *serve],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert out.returncode == 2, out.stderr
    assert "anyone on this machine can write it" in out.stderr and "Traceback" not in out.stderr


@posix_only
def test_a_running_server_keeps_its_keys_when_the_file_turns_world_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keys_mod, "RELOAD_INTERVAL", 0.0)
    key_file = tmp_path / "api-keys.json"
    key, _ = create_key(key_file, "alice")
    store = KeyStore(key_file)
    intruder, _ = create_key(tmp_path / "elsewhere.json", "intruder")
    data = json.loads(key_file.read_text())
    data["keys"] += json.loads((tmp_path / "elsewhere.json").read_text())["keys"]
    key_file.chmod(0o666)
    key_file.write_text(json.dumps(data))  # written by someone else through the open mode
    assert store.verify(key) is not None and store.verify(intruder) is None


def test_revoke_never_confuses_a_name_with_another_keys_id(tmp_path: Path) -> None:
    key_file = tmp_path / "api-keys.json"
    _, alice = create_key(key_file, "alice")
    with pytest.raises(SapDevsError, match="8 hex digits"):
        create_key(key_file, alice.id)  # a name that is another key's id
    with pytest.raises(SapDevsError, match="8 hex digits"):
        create_key(key_file, "deadbeef")
    # a file written before such names were refused: one key is named like the other's id
    _, bob = create_key(key_file, "bob")
    data = json.loads(key_file.read_text())
    for entry in data["keys"]:
        if entry["name"] == "bob":
            entry["name"] = alice.id
    key_file.write_text(json.dumps(data))
    with pytest.raises(SapDevsError, match="nothing revoked") as ambiguous:
        revoke_key(key_file, alice.id)
    assert "--id" in str(ambiguous.value) and "--name" in str(ambiguous.value)
    assert len(keys_mod.read_entries(key_file)) == 2
    assert revoke_key(key_file, alice.id, by="name").id == bob.id
    assert [e.id for e in keys_mod.read_entries(key_file)] == [alice.id]
    with pytest.raises(SapDevsError, match="No API key named"):
        revoke_key(key_file, alice.id, by="name")
    assert revoke_key(key_file, alice.id, by="id").name == "alice"


def test_keys_cli_revoke_says_what_matched(tmp_path: Path) -> None:
    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "sap_devs.cli.entry", "keys", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)

    assert cli("create", "ci-bot").returncode == 0
    created = cli("create", "other")
    key_id = created.stdout.strip().split("_")[1]
    by_id = cli("revoke", key_id)
    assert by_id.returncode == 0 and f"(id {key_id}), matched by its id" in by_id.stderr
    by_name = cli("revoke", "--name", "ci-bot")
    assert by_name.returncode == 0 and "matched by its name" in by_name.stderr


# -- 11 and 16: the Host check ---------------------------------------------------------------------


def test_a_wildcard_bind_without_public_url_accepts_only_this_machine() -> None:
    settings = HttpSettings(host="0.0.0.0", port=8080, api_keys=Path("keys.json"))
    patterns = settings.host_patterns()
    assert patterns, "no Host check at all"
    _matches = app_mod._matches
    assert _matches("127.0.0.1:8080", patterns) and _matches("localhost:8080", patterns)
    for own in app_mod.own_addresses("0.0.0.0"):
        assert _matches(f"{own}:8080", patterns), own
    for rebound in ("evil.example", "evil.example:8080", "attacker.example.com:80"):
        assert not _matches(rebound, patterns), rebound
    note = settings.host_check_note()
    assert note is not None and "--public-url" in note
    public = HttpSettings(host="0.0.0.0", api_keys=Path("k"), public_url="https://mcp.example.com")
    assert public.host_patterns() == ["mcp.example.com"] and public.host_check_note() is None
    assert HttpSettings(host="10.1.2.3", api_keys=Path("k")).host_patterns()[-2:] == ["10.1.2.3", "10.1.2.3:*"]


@pytest.mark.parametrize("host", ["127.0.0.1:\u00b2", "localhost:8\u00b9", "127.0.0.1:\u00b3\u00b2", "127.0.0.1:+80"])
def test_host_ports_are_ascii_digits_only(served: str, host: str) -> None:
    answer = httpx.post(
        served + "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={**LEGACY, "Host": host.encode("latin-1")},  # as the server decodes header bytes
    )
    assert answer.status_code == 421, host


# -- 12: deep bodies --------------------------------------------------------------------------------


def test_a_body_nested_5000_deep_is_answered_logged_and_counted(served: str, caplog: pytest.LogCaptureFixture) -> None:
    body = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":' + "[" * 5000 + "]" * 5000 + "}}"
    with caplog.at_level("INFO", logger="sap_devs.http.access"):
        answer = httpx.post(served + "/mcp", content=body, headers={**LEGACY, "X-Request-Id": "deep-5000"})
        deadline = time.monotonic() + 10
        while "deep-5000" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.02)
    assert answer.status_code < 500, answer.text[:300]
    assert "RecursionError" not in caplog.text
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "sap_devs.http.access"]
    line = next((entry for entry in lines if entry["request_id"] == "deep-5000"), None)
    assert line is not None, "the request is missing from the access log"
    assert line["status"] == answer.status_code
    metrics = httpx.get(served + "/metrics").text
    assert f'status="{answer.status_code}"' in metrics
