"""The real AI client CLIs reach a team's sap-devs over HTTP as ``mcp install --url`` configured them.

A sap-devs HTTP server with an API key runs on 127.0.0.1; each client reads the key from the
environment variable the install named (the file holds only the reference) and its own health
check shows the server connected, or refused when the variable holds a wrong key. The clients
come from the same cache as tests/integrations/test_real_clients.py (skipped loudly without them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sap_devs.http.app import HttpSettings
from sap_devs.http.keys import create_key
from sap_devs.http.run import LOCAL_ONLY_TOOLS
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http
from tests.integrations.test_real_clients import World, client_bin  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def team_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("team")
    keys = folder / "api-keys.json"
    key, _ = create_key(keys, "team")
    registry = Registry([t for t in Registry.default() if t.name not in LOCAL_ONLY_TOOLS])
    ctx = ToolContext(cwd=folder, layers=[bundled_layer()])
    with sap_devs_http(build_server(registry, ctx), HttpSettings(api_keys=keys), ctx) as base:
        yield base + "/mcp", key


@pytest.fixture
def world(tmp_path: Path, client_bin: Path) -> World:  # noqa: F811
    return World(tmp_path, client_bin)


def test_claude_code_connects_with_the_key_from_the_environment(world: World, team_server: tuple[str, str]) -> None:
    url, key = team_server
    world.sap_devs("mcp", "install", "-c", "claude-code", "--url", url, "--key-env", "SAP_DEVS_KEY")
    assert key not in (world.home / ".claude.json").read_text(encoding="utf-8")
    world.env["SAP_DEVS_KEY"] = key
    listed = world.client("claude", "mcp", "list", until="Connected")
    assert "sap-devs:" in listed and url in listed and "Connected" in listed, listed
    world.env["SAP_DEVS_KEY"] = "sdk_wrong_key_for_the_test"
    refused = world.client("claude", "mcp", "list")
    assert "sap-devs:" in refused and "Connected" not in refused, refused


def test_gemini_cli_connects_with_the_key_from_the_environment(world: World, team_server: tuple[str, str]) -> None:
    url, key = team_server
    world.sap_devs("mcp", "install", "-c", "gemini-cli", "--url", url, "--key-env", "SAP_DEVS_KEY")
    settings = world.home / ".gemini" / "settings.json"
    assert key not in settings.read_text(encoding="utf-8")
    trusted = world.home / ".gemini" / "trustedFolders.json"
    trusted.write_text(json.dumps({str(world.project): "TRUST_FOLDER"}), encoding="utf-8")
    world.env["SAP_DEVS_KEY"] = key
    listed = world.client("gemini", "mcp", "list", until="Connected")
    assert "sap-devs" in listed and "Connected" in listed, listed
    world.env["SAP_DEVS_KEY"] = "sdk_wrong_key_for_the_test"
    refused = world.client("gemini", "mcp", "list")
    assert "sap-devs" in refused and "Connected" not in refused, refused


def test_codex_reads_the_remote_entry(world: World, team_server: tuple[str, str]) -> None:
    url, _ = team_server
    world.sap_devs("mcp", "install", "-c", "codex", "--url", url, "--key-env", "SAP_DEVS_KEY")
    shown = world.client("codex", "mcp", "get", "sap-devs")
    assert url in shown and "SAP_DEVS_KEY" in shown, shown
    listed = world.client("codex", "mcp", "list")
    row = next((line for line in listed.splitlines() if line.startswith("sap-devs")), "")
    assert url in row and "enabled" in row, listed


def test_continue_accepts_the_remote_entry(world: World, team_server: tuple[str, str]) -> None:
    url, _ = team_server
    world.sap_devs("mcp", "install", "-c", "continue", "--url", url, "--key-env", "SAP_DEVS_KEY")
    drop = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY")
    out = world.client("cn", "-p", "hi", until="model", drop=drop)
    assert "Failed to parse config" not in out and "No model specified" in out, out
