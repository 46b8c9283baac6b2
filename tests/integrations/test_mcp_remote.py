"""``mcp install --url``: a team's server in every client's remote format, keys only as environment references."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import clients, jsonc
from sap_devs.integrations.mcp_install import ServerSpec, install, status, target, uninstall
from sap_devs.integrations.remote_entry import check_url, parse_headers

URL = "https://sap-devs.example.com/mcp"
KEY = "sdk_live_4f9a1c0e7b2d"
BASIC = "X-SAP-Authorization: ${SAP_DEVS_SAP_LOGON}"


def remote(*headers: str, key_env: str | None = "SAP_DEVS_KEY") -> ServerSpec:
    parsed = parse_headers(list(headers), key_env)
    return ServerSpec("sap-devs", "", (), type="http", url=check_url(URL, parsed), headers=parsed)


def read(path: Path) -> object:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return tomllib.loads(text)
    if path.suffix == ".yaml":
        return yaml.safe_load(text)
    return jsonc.loads(text)


# What each client's documentation and own `mcp add` write for a Streamable HTTP server with a bearer
# token from the environment (Claude Code, Gemini CLI and Codex checked against their real CLIs).
EXPECTED = {
    "claude-code": {
        "type": "http",
        "url": URL,
        "headers": {"Authorization": "Bearer ${SAP_DEVS_KEY}", "X-SAP-Authorization": "${SAP_DEVS_SAP_LOGON}"},
    },
    "cursor": {
        "url": URL,
        "headers": {
            "Authorization": "Bearer ${env:SAP_DEVS_KEY}",
            "X-SAP-Authorization": "${env:SAP_DEVS_SAP_LOGON}",
        },
    },
    "vscode": {
        "type": "http",
        "url": URL,
        "headers": {
            "Authorization": "Bearer ${env:SAP_DEVS_KEY}",
            "X-SAP-Authorization": "${env:SAP_DEVS_SAP_LOGON}",
        },
    },
    "windsurf": {
        "serverUrl": URL,
        "headers": {
            "Authorization": "Bearer ${env:SAP_DEVS_KEY}",
            "X-SAP-Authorization": "${env:SAP_DEVS_SAP_LOGON}",
        },
    },
    "gemini-cli": {
        "type": "http",
        "url": URL,
        "headers": {"Authorization": "Bearer ${SAP_DEVS_KEY}", "X-SAP-Authorization": "${SAP_DEVS_SAP_LOGON}"},
    },
    "codex": {
        "url": URL,
        "bearer_token_env_var": "SAP_DEVS_KEY",
        "env_http_headers": {"X-SAP-Authorization": "SAP_DEVS_SAP_LOGON"},
    },
    "continue": {
        "name": "sap-devs",
        "type": "streamable-http",
        "url": URL,
        "requestOptions": {
            "headers": {
                "Authorization": "Bearer ${{ secrets.SAP_DEVS_KEY }}",
                "X-SAP-Authorization": "${{ secrets.SAP_DEVS_SAP_LOGON }}",
            }
        },
    },
}


@pytest.mark.parametrize("client_id", sorted(EXPECTED))
def test_each_client_gets_its_remote_format_and_no_secret(home: Path, project: Path, client_id: str) -> None:
    client = clients.by_id(client_id)
    for config in client.mcp:
        t = target(client, config, home, project, "sap-devs")
        assert install(t, remote(BASIC)).status == "installed"
        data = read(t.path)
        if t.config.format == "yaml":
            [entry] = [i for i in data["mcpServers"] if i["name"] == "sap-devs"]
        else:
            entry = data
            for key in (*t.container, "sap-devs"):
                entry = entry[key]
        assert entry == EXPECTED[client_id]
        assert install(t, remote(BASIC)).status == "already installed"
        row = status(t, "sap-devs")
        assert row.state == "installed" and row.url == URL
        assert uninstall(t, "sap-devs").status == "removed"


def test_switching_between_command_and_url_leaves_nothing_of_the_other(home: Path, project: Path) -> None:
    client = clients.by_id("cursor")
    t = target(client, client.mcp[0], home, project, "sap-devs")
    install(t, ServerSpec("sap-devs", "/opt/sap-devs", ("mcp", "serve"), env={"SAP_URL": "https://h:44300"}))
    install(t, remote())
    entry = read(t.path)["mcpServers"]["sap-devs"]
    assert entry == {"url": URL, "headers": {"Authorization": "Bearer ${env:SAP_DEVS_KEY}"}}
    install(t, remote(key_env=None))  # an old key header does not linger either
    assert read(t.path)["mcpServers"]["sap-devs"] == {"url": URL}
    install(t, ServerSpec("sap-devs", "/opt/sap-devs", ("mcp", "serve")))
    assert read(t.path)["mcpServers"]["sap-devs"] == {"command": "/opt/sap-devs", "args": ["mcp", "serve"]}


def test_secrets_in_plain_text_and_impossible_formats_are_refused(home: Path, project: Path) -> None:
    for header in (f"Authorization: Bearer {KEY}", f"X-API-Key: {KEY}", f"X-SAP-Authorization: Basic {KEY}"):
        with pytest.raises(SapDevsError, match="would be written into the client's file") as refused:
            parse_headers([header], None)
        assert KEY not in str(refused.value) and KEY not in (refused.value.hint or "")
    assert parse_headers(["X-Team: abap"], None) == (("X-Team", "abap"),)  # not a credential: written as is
    with pytest.raises(SapDevsError, match="'Name: value'"):
        parse_headers(["no colon here"], None)
    with pytest.raises(SapDevsError, match="leave out --header Authorization"):
        parse_headers(["Authorization: Bearer ${X}"], "Y")
    with pytest.raises(SapDevsError, match="plain http"):
        check_url("http://sap-devs.example.com/mcp", parse_headers([], "K"))
    assert check_url("http://127.0.0.1:8080/mcp", parse_headers([], "K"))
    for client_id, message in (
        ("zed", "Zed cannot read a header from an environment variable"),
        ("claude-desktop", "Settings > Connectors"),
    ):
        client = clients.by_id(client_id)
        t = target(client, client.mcp[0], home, project, "sap-devs")
        with pytest.raises(SapDevsError, match=message):
            install(t, remote())
        assert not t.path.exists()
    codex = clients.by_id("codex")
    t = target(codex, codex.mcp[0], home, project, "sap-devs")
    with pytest.raises(SapDevsError, match="only as a whole value"):
        install(t, remote("X-SAP-Authorization: Basic ${SAP_BASIC}"))
    zed = clients.by_id("zed")  # without credentials Zed's remote format works
    t = target(zed, zed.mcp[0], home, project, "sap-devs")
    install(t, remote(key_env=None))
    assert read(t.path)["context_servers"]["sap-devs"] == {"url": URL}


def test_cli_install_url_with_key_env(env: dict[str, str], project: Path, home: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sap_devs", "mcp", *args],
            cwd=project,
            env={**env, "SAP_DEVS_KEY": KEY},
            capture_output=True,
            text=True,
            timeout=120,
        )

    done = run("install", "-c", "claude-code", "-c", "zed", "--url", URL, "--key-env", "SAP_DEVS_KEY")
    assert done.returncode == 1  # Zed refused, Claude Code written
    assert "Claude Code (user): installed" in done.stdout and "Zed cannot read a header" in done.stderr
    assert "The clients read SAP_DEVS_KEY from their environment when they connect (set here)" in done.stdout
    written = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    assert written["mcpServers"]["sap-devs"]["headers"] == {"Authorization": "Bearer ${SAP_DEVS_KEY}"}
    assert KEY not in (home / ".claude.json").read_text(encoding="utf-8")
    listed = run("status", "-c", "claude-code")
    assert f"installed (remote server {URL})" in listed.stdout and listed.returncode == 0
    refused = run("install", "-c", "cursor", "--url", URL, "--header", f"Authorization: Bearer {KEY}")
    assert refused.returncode != 0 and "plain text" in refused.stderr + refused.stdout
    assert KEY not in refused.stderr + refused.stdout and not (home / ".cursor" / "mcp.json").exists()
    mixed = run("install", "-c", "cursor", "--url", URL, "--profile", "abap")
    assert mixed.returncode != 0 and "configured on its server" in mixed.stderr + mixed.stdout
