"""CLAUDE_CONFIG_DIR and CODEX_HOME: the clients then keep their user files there, and so does sap-devs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sap_devs.integrations import clients
from sap_devs.integrations.claude_approval import approval, trust_key
from tests.integrations.test_cli import run


def test_user_scope_files_follow_the_clients_folders(env: dict[str, str], home: Path, project: Path) -> None:
    claude, codex = home / "claude-config", home / "codex-home"
    env.update(CLAUDE_CONFIG_DIR=str(claude), CODEX_HOME=str(codex))
    proc = run(env, project, "mcp", "install", "-c", "claude-code", "-c", "codex", "--scope", "user")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sap-devs" in json.loads((claude / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]
    assert "[mcp_servers.sap-devs]" in (codex / "config.toml").read_text(encoding="utf-8")
    proc = run(env, project, "inject", "-c", "claude-code", "-c", "codex", "--scope", "user")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "<!-- sap-devs:start -->" in (claude / "CLAUDE.md").read_text(encoding="utf-8")
    assert "<!-- sap-devs:start -->" in (codex / "AGENTS.md").read_text(encoding="utf-8")
    assert not {".claude", ".claude.json", ".codex"} & {p.name for p in home.iterdir()}


def test_approval_is_read_from_the_claude_config_dir(
    home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = home / "claude-config"
    folder.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    (folder / ".claude.json").write_text(
        json.dumps({"projects": {trust_key(project): {"hasTrustDialogAccepted": True}}}), encoding="utf-8"
    )
    (folder / "settings.json").write_text(json.dumps({"enabledMcpjsonServers": ["sap-devs"]}), encoding="utf-8")
    found = approval(project, home, "sap-devs")
    assert found.state == "approved" and found.enabled_in == folder / "settings.json"


def test_a_client_folder_outside_a_redirected_home_is_not_used(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SAP_DEVS_HOME (the tests' home) keeps a developer's own CLAUDE_CONFIG_DIR out of reach."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "real-claude"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "real-codex"))
    assert clients.claude_json(home) == home / ".claude.json"
    assert clients.codex_dir(home) == home / ".codex"
    monkeypatch.delenv("SAP_DEVS_HOME")
    assert clients.claude_json(home) == tmp_path / "real-claude" / ".claude.json"


def test_claude_config_dir_naming_the_default_folder_still_moves_the_state_file(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code 2.1.197 with CLAUDE_CONFIG_DIR=~/.claude writes ~/.claude/.claude.json, not ~/.claude.json."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    assert clients.claude_json(home) == home / ".claude" / ".claude.json"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    assert clients.claude_json(home) == home / ".claude.json"
