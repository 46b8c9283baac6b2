"""`mcp status` and `mcp install` say what Claude Code does with a project's .mcp.json server: approved,
rejected or pending, read from the files Claude Code keeps (issue 13, defect 8). The rules are the
ones measured with the real Claude Code; test_real_clients.py checks them against `claude mcp get`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sap_devs.integrations.claude_approval import MAX_BYTES, approval, trust_key
from tests.integrations.test_cli import run


def _trust(home: Path, folder: Path, **more: object) -> None:
    config = home / ".claude.json"
    data = json.loads(config.read_text(encoding="utf-8")) if config.exists() else {}
    data.setdefault("projects", {})[folder.resolve().as_posix()] = {"hasTrustDialogAccepted": True, **more}
    config.write_text(json.dumps(data), encoding="utf-8")


def _settings(folder: Path, name: str, data: object) -> Path:
    path = folder / ".claude" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_trust_and_approval_are_both_needed(home: Path, project: Path) -> None:
    assert approval(project, home, "sap-devs").state == "pending"
    _settings(project, "settings.local.json", {"enabledMcpjsonServers": ["sap-devs"]})
    found = approval(project, home, "sap-devs")
    assert found.state == "pending" and "is not trusted yet" in found.evidence
    _trust(home, project)
    found = approval(project, home, "sap-devs")
    assert found.state == "approved" and "enabledMcpjsonServers" in found.evidence
    assert approval(project, home, "other-server").state == "pending"


def test_trust_alone_stays_pending(home: Path, project: Path) -> None:
    _trust(home, project)
    found = approval(project, home, "sap-devs")
    assert found.state == "pending" and found.evidence == "sap-devs is not approved yet"


def test_a_rejection_anywhere_wins(home: Path, project: Path) -> None:
    _trust(home, project)
    _settings(project, "settings.local.json", {"enabledMcpjsonServers": ["sap-devs"]})
    user = _settings(home, "settings.json", {"disabledMcpjsonServers": ["sap-devs"]})
    found = approval(project, home, "sap-devs")
    assert found.state == "rejected" and str(user) in found.evidence


def test_a_rejection_needs_no_trust(home: Path, project: Path) -> None:
    _settings(project, "settings.local.json", {"disabledMcpjsonServers": ["sap-devs"]})
    assert approval(project, home, "sap-devs").state == "rejected"


def test_approval_kept_in_claude_json_before_claude_moves_it(home: Path, project: Path) -> None:
    _trust(home, project, enableAllProjectMcpServers=True)
    found = approval(project, home, "sap-devs")
    assert found.state == "approved" and "enableAllProjectMcpServers" in found.evidence


def test_the_most_local_enable_all_wins(home: Path, project: Path) -> None:
    _trust(home, project)
    _settings(home, "settings.json", {"enableAllProjectMcpServers": True})
    assert approval(project, home, "sap-devs").state == "approved"
    _settings(project, "settings.local.json", {"enableAllProjectMcpServers": False})
    assert approval(project, home, "sap-devs").state == "pending"
    _settings(project, "settings.json", {"enabledMcpjsonServers": ["sap-devs"]})  # a listing is separate
    assert approval(project, home, "sap-devs").state == "approved"


def test_in_a_git_repository_the_root_is_trusted(home: Path, project: Path) -> None:
    (project / ".git").mkdir()
    app = project / "app"
    app.mkdir()
    _settings(app, "settings.local.json", {"enabledMcpjsonServers": ["sap-devs"]})
    _trust(home, app)  # Claude Code keeps trust under the git root: this entry does not count
    assert approval(app, home, "sap-devs").state == "pending"
    assert trust_key(app) == project.resolve().as_posix()
    _trust(home, project)
    assert approval(app, home, "sap-devs").state == "approved"


def test_a_trusted_parent_folder_does_not_count(home: Path, project: Path) -> None:
    _trust(home, project.parent)
    _settings(project, "settings.local.json", {"enabledMcpjsonServers": ["sap-devs"]})
    assert approval(project, home, "sap-devs").state == "pending"


@pytest.mark.parametrize(
    "content, problem",
    [
        ('{"enabledMcpjsonServers": ["sap-devs"],', "malformed JSON at line 1"),
        ('["sap-devs"]', "not a JSON object"),
        (b"\xff\xfe{}", "not UTF-8 text"),
        ('{"enabledMcpjsonServers": "sap-devs"}', None),  # the wrong type is ignored, as Claude ignores it
    ],
)
def test_unusable_settings_are_named_and_ignored(
    home: Path, project: Path, content: str | bytes, problem: str | None
) -> None:
    _trust(home, project)
    path = project / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    found = approval(project, home, "sap-devs")
    assert found.state == "pending"
    if problem:
        assert len(found.unreadable) == 1 and found.unreadable[0].startswith(f"{path}: {problem}")
    else:
        assert found.unreadable == []


def test_an_oversized_claude_json_is_not_read(home: Path, project: Path) -> None:
    with (home / ".claude.json").open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    found = approval(project, home, "sap-devs")
    assert found.state == "pending" and "not read" in found.unreadable[0]


def test_status_and_install_follow_the_approval(env: dict[str, str], home: Path, project: Path) -> None:
    proc = run(env, project, "mcp", "install", "-c", "claude-code", "--scope", "project")
    assert "Next, Claude Code (project): Claude Code asks before it starts servers" in proc.stdout
    status = run(env, project, "mcp", "status", "-c", "claude-code").stdout
    assert "Claude Code: pending approval (the folder" in status and "next: Claude Code asks" in status

    _trust(home, project)
    local = _settings(project, "settings.local.json", {"disabledMcpjsonServers": ["sap-devs"]})
    proc = run(env, project, "mcp", "status", "-c", "claude-code")
    assert proc.returncode == 0  # a rejection is the user's choice, not a broken setup
    assert f"Claude Code: rejected (sap-devs is in disabledMcpjsonServers in {local})" in proc.stdout
    assert (
        f"next: Claude Code will not start sap-devs, it was rejected: remove it from disabledMcpjsonServers in {local}"
        in proc.stdout
    )

    _settings(project, "settings.local.json", {"enabledMcpjsonServers": ["sap-devs"]})
    status = run(env, project, "mcp", "status", "-c", "claude-code").stdout
    assert "Claude Code: approved (folder trusted" in status and "next:" not in status
    proc = run(env, project, "mcp", "install", "-c", "claude-code", "--scope", "project")
    assert "Next, Claude Code (project): restart Claude Code" in proc.stdout

    _settings(project, "settings.local.json", "{oops")
    proc = run(env, project, "mcp", "status", "-c", "claude-code")
    assert proc.returncode == 0 and "Claude Code: pending approval" in proc.stdout
    assert (
        f"warning: {local}: malformed JSON at line 1" in proc.stdout and "Claude Code ignores this file" in proc.stdout
    )


def test_local_scope_in_a_git_subfolder_goes_under_the_git_root(env: dict[str, str], home: Path, project: Path) -> None:
    """Claude Code keeps a project's local servers, like its trust, under the git root."""
    (project / ".git").mkdir()
    app = project / "app"
    app.mkdir()
    assert run(env, app, "mcp", "install", "-c", "claude-code", "--scope", "local").returncode == 0
    projects = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["projects"]
    assert (
        list(projects) == [project.resolve().as_posix()]
        and "sap-devs" in projects[project.resolve().as_posix()]["mcpServers"]
    )
    status = run(env, app, "mcp", "status", "-c", "claude-code").stdout.splitlines()
    [local] = [line for line in status if line.split()[:2] == ["claude-code", "local"]]
    assert local.split()[2] == "installed,", local
