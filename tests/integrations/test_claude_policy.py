"""`mcp status` and `mcp install` say when Claude Code refuses sap-devs because of managed policy or
allow/deny lists: such a server silently disappears from `claude mcp list`. The rules are the ones
measured with Claude Code 2.1.197 (managed files in /etc/claude-code, throwaway homes); here the
managed folder is a temporary one named by SAP_DEVS_CLAUDE_MANAGED_DIR, never the machine's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sap_devs.integrations import claude_policy
from sap_devs.integrations.claude_approval import MAX_BYTES
from sap_devs.integrations.claude_policy import Server, check, url_matches
from tests.integrations.test_cli import run

ORG = "blocked by your organisation's Claude Code policy"


@pytest.fixture
def policy(tmp_path: Path, env: dict[str, str]) -> Path:
    folder = tmp_path / "managed"
    folder.mkdir()
    env["SAP_DEVS_CLAUDE_MANAGED_DIR"] = str(folder)
    return folder


def _write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _user_server(home: Path, entry: dict[str, object]) -> None:
    """sap-devs in ~/.claude.json as `mcp install -c claude-code` writes it (user scope)."""
    _write(home / ".claude.json", {"mcpServers": {"sap-devs": entry}})


def _stdio(executable: Path) -> dict[str, object]:
    return {"type": "stdio", "command": str(executable), "args": ["mcp", "serve"]}


def _status(env: dict[str, str], project: Path) -> str:
    proc = run(env, project, "mcp", "status", "-c", "claude-code")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # a policy is not a broken setup
    assert "Traceback" not in proc.stderr
    return proc.stdout


def _verdict(status: str) -> str:
    """The user-scope row's 'Claude Code: ...' and 'next: ...' lines."""
    lines = status.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["claude-code", "user"])
    rest = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        rest.append(line.strip())
    return "\n".join(rest)


@pytest.mark.parametrize(
    "file, content, rule, fix",
    [
        (
            "managed-mcp.json",
            {"mcpServers": {}},
            "exclusive control, only the MCP servers defined in this file load",
            'ask your administrator to add sap-devs to "mcpServers" in FILE',
        ),
        (
            "managed-settings.json",
            {"deniedMcpServers": [{"serverName": "other"}, {"serverName": "sap-devs"}]},
            'deniedMcpServers has {"serverName": "sap-devs"}',
            'ask your administrator to allow sap-devs: remove {"serverName": "sap-devs"} from deniedMcpServers in FILE',
        ),
        (
            "managed-settings.d/20-security.json",
            {"deniedMcpServers": [{"serverCommand": ["EXE", "mcp", "serve"]}]},
            'deniedMcpServers has {"serverCommand": ["EXE", "mcp", "serve"]}',
            'remove {"serverCommand": ["EXE", "mcp", "serve"]} from deniedMcpServers in FILE',
        ),
        (
            "managed-settings.json",
            {"allowManagedMcpServersOnly": True, "allowedMcpServers": [{"serverName": "github"}]},
            "allowedMcpServers does not list sap-devs",
            'ask your administrator to allow sap-devs: add {"serverName": "sap-devs"} to allowedMcpServers in FILE',
        ),
        (
            "managed-settings.json",
            {"allowedMcpServers": [{"serverName": "sap-devs"}, {"serverCommand": ["npx", "-y", "approved"]}]},
            'allowedMcpServers has serverCommand entries and none is exactly ["EXE", "mcp", "serve"]',
            'add {"serverCommand": ["EXE", "mcp", "serve"]} to allowedMcpServers in FILE',
        ),
        (
            "managed-settings.json",
            {"allowedMcpServers": []},
            "allowedMcpServers is empty (or not a list): no MCP server may load",
            'add {"serverName": "sap-devs"} to allowedMcpServers in FILE',
        ),
        (
            "managed-settings.json",
            {"allowedMcpServers": "sap-devs"},  # Claude Code enforces a wrong type as an empty allowlist
            "allowedMcpServers is empty (or not a list): no MCP server may load",
            "to allowedMcpServers in FILE",
        ),
        (
            "managed-settings.json",
            {"strictPluginOnlyCustomization": ["mcp"]},
            "strictPluginOnlyCustomization: only MCP servers from plugins load",
            'take "mcp" out of strictPluginOnlyCustomization in FILE',
        ),
    ],
)
def test_each_managed_rule_blocks_with_its_file_rule_and_fix(
    env: dict[str, str],
    home: Path,
    project: Path,
    executable: Path,
    policy: Path,
    file: str,
    content: object,
    rule: str,
    fix: str,
) -> None:
    _user_server(home, _stdio(executable))
    path = _write(policy / file, json.loads(json.dumps(content).replace("EXE", str(executable))))
    shown = _verdict(_status(env, project))
    rule = rule.replace("EXE", str(executable))
    assert f"Claude Code: {ORG} ({path}: {rule})" in shown, shown
    [step] = [line for line in shown.splitlines() if line.startswith("next: ")]
    assert fix.replace("EXE", str(executable)).replace("FILE", str(path)) in step, step


def test_a_soft_allowlist_names_the_users_own_settings(
    env: dict[str, str], home: Path, project: Path, executable: Path, policy: Path
) -> None:
    """Without allowManagedMcpServersOnly a user's own allowedMcpServers extends the organisation's."""
    _user_server(home, _stdio(executable))
    managed = _write(policy / "managed-settings.json", {"allowedMcpServers": [{"serverName": "github"}]})
    shown = _verdict(_status(env, project))
    own = home / ".claude" / "settings.json"
    assert f"({managed}: allowedMcpServers does not list sap-devs)" in shown
    assert f"(or add it to allowedMcpServers in your {own}, which extends that list)" in shown

    _write(own, {"allowedMcpServers": [{"serverName": "sap-devs"}]})
    assert "blocked" not in _status(env, project)

    _write(managed, {"allowManagedMcpServersOnly": True, "allowedMcpServers": [{"serverName": "github"}]})
    shown = _verdict(_status(env, project))
    assert ORG in shown and "which extends that list" not in shown


def test_the_users_own_lists_block_too(env: dict[str, str], home: Path, project: Path, executable: Path) -> None:
    _user_server(home, _stdio(executable))
    local = _write(project / ".claude" / "settings.local.json", {"deniedMcpServers": [{"serverName": "sap-devs"}]})
    shown = _verdict(_status(env, project))
    assert (
        f'Claude Code: blocked by your Claude Code settings ({local}: deniedMcpServers has {{"serverName": "sap-devs"}})'
        in shown
    )
    assert f'next: remove {{"serverName": "sap-devs"}} from deniedMcpServers in {local}' in shown

    local.unlink()
    own = _write(home / ".claude" / "settings.json", {"allowedMcpServers": [{"serverName": "github"}]})
    shown = _verdict(_status(env, project))
    assert f"blocked by your Claude Code settings ({own}: allowedMcpServers does not list sap-devs)" in shown
    assert f'next: add {{"serverName": "sap-devs"}} to allowedMcpServers in {own}' in shown


def test_a_server_no_rule_matches_is_unaffected(
    env: dict[str, str], home: Path, project: Path, executable: Path, policy: Path
) -> None:
    _user_server(home, _stdio(executable))
    _write(
        policy / "managed-settings.json",
        {
            "deniedMcpServers": [
                {"serverName": "sap-devs-old"},
                {"serverCommand": [str(executable), "mcp"]},  # commands match exactly, every argument
                {"serverUrl": "https://*"},
                {"serverName": "sap-devs", "serverCommand": ["x"]},  # two keys: Claude Code skips the entry
            ],
            "allowedMcpServers": [{"serverName": "sap-devs"}],
        },
    )
    _write(policy / "managed-settings.d" / ".10-hidden.json", {"deniedMcpServers": [{"serverName": "sap-devs"}]})
    _write(policy / "managed-settings.d" / "10-notes.txt", {"deniedMcpServers": [{"serverName": "sap-devs"}]})
    _write(policy / "managed-mcp.json", {"servers": {}})  # no "mcpServers": Claude Code takes no control
    status = _status(env, project)
    assert "blocked" not in status and "next:" not in status
    assert (
        f'warning: {policy / "managed-mcp.json"}: has no "mcpServers" object; Claude Code ignores this file too'
        in status
    )


def test_managed_mcp_json_defining_sap_devs_replaces_the_entry(
    env: dict[str, str], home: Path, project: Path, executable: Path, policy: Path
) -> None:
    _user_server(home, _stdio(executable))
    path = _write(policy / "managed-mcp.json", {"mcpServers": {"sap-devs": {"command": "/opt/sap-devs", "args": []}}})
    shown = _verdict(_status(env, project))
    assert f"({path}: exclusive control, only the MCP servers defined in this file load, and its own sap-devs" in shown
    assert "next: your organisation's sap-devs runs instead" in shown


def test_every_scope_is_checked_and_install_still_writes(
    env: dict[str, str], home: Path, project: Path, policy: Path
) -> None:
    path = _write(policy / "managed-settings.json", {"deniedMcpServers": [{"serverName": "sap-devs"}]})
    for scope in ("user", "local", "project"):
        proc = run(env, project, "mcp", "install", "-c", "claude-code", "--scope", scope)
        assert proc.returncode == 0, proc.stderr
        assert (
            f"Next, Claude Code ({scope}): Claude Code will not start sap-devs, it is {ORG} "
            f'({path}: deniedMcpServers has {{"serverName": "sap-devs"}}): ask your administrator to allow sap-devs'
            in proc.stdout
        )
    assert "sap-devs" in json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    status = _status(env, project)
    assert status.count(f"Claude Code: {ORG} ({path}: ") == 3, status
    assert "pending approval" not in status  # the policy decides before any approval


def test_remote_servers_match_by_url(env: dict[str, str], home: Path, project: Path, policy: Path) -> None:
    _user_server(home, {"type": "http", "url": "https://mcp.example.com/api"})
    settings = policy / "managed-settings.json"
    _write(settings, {"deniedMcpServers": [{"serverUrl": "https://mcp.example.com/other*"}]})
    assert "blocked" not in _status(env, project)
    _write(settings, {"deniedMcpServers": [{"serverUrl": "https://*.EXAMPLE.com"}]})
    assert 'deniedMcpServers has {"serverUrl": "https://*.EXAMPLE.com"}' in _verdict(_status(env, project))
    _write(settings, {"allowedMcpServers": [{"serverUrl": "https://tools.example.com/*"}, {"serverName": "sap-devs"}]})
    shown = _verdict(_status(env, project))
    assert "allowedMcpServers has serverUrl entries and none matches https://mcp.example.com/api" in shown
    assert 'add {"serverUrl": "https://mcp.example.com/api"} to allowedMcpServers' in shown


@pytest.mark.parametrize(
    "content, problem",
    [
        ('{"deniedMcpServers": [{"serverName": "sap-devs"}],', "malformed JSON at line 1"),
        ('[{"serverName": "sap-devs"}]', "not a JSON object"),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
)
def test_unusable_managed_files_are_named_and_ignored(
    env: dict[str, str],
    home: Path,
    project: Path,
    executable: Path,
    policy: Path,
    content: str | bytes,
    problem: str,
) -> None:
    """Claude Code enforces nothing from a managed file it cannot parse, managed-mcp.json included."""
    _user_server(home, _stdio(executable))
    for name in ("managed-settings.json", "managed-mcp.json"):
        path = policy / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    status = _status(env, project)
    assert "blocked" not in status
    for name in ("managed-settings.json", "managed-mcp.json"):
        assert f"warning: {policy / name}: {problem}" in status and "Claude Code ignores this file too" in status


def test_an_oversized_policy_file_is_not_read(
    env: dict[str, str], home: Path, project: Path, executable: Path, policy: Path
) -> None:
    _user_server(home, _stdio(executable))
    with (policy / "managed-settings.json").open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    status = _status(env, project)
    assert f"warning: {policy / 'managed-settings.json'}: larger than" in status and "not read" in status
    assert "blocked" not in status


def test_a_wrongly_typed_list_in_a_users_file_is_ignored(
    env: dict[str, str], home: Path, project: Path, executable: Path
) -> None:
    """Claude Code rejects such a user or project file whole (measured: a string allowlist blocks nothing)."""
    _user_server(home, _stdio(executable))
    path = _write(
        project / ".claude" / "settings.json",
        {"allowedMcpServers": "github", "deniedMcpServers": [{"serverName": "sap-devs"}]},
    )
    status = _status(env, project)
    assert "blocked" not in status and f"warning: {path}: allowedMcpServers is not a list" in status


def test_tests_never_read_the_machines_policy(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.delenv(claude_policy.MANAGED_DIR_VARIABLE, raising=False)
    assert claude_policy.managed_dir() is None  # SAP_DEVS_HOME is set: no /etc/claude-code
    monkeypatch.delenv("SAP_DEVS_HOME")
    monkeypatch.setattr(claude_policy.sys, "platform", "linux")
    assert claude_policy.managed_dir() == Path("/etc/claude-code")
    monkeypatch.setattr(claude_policy.sys, "platform", "darwin")
    assert claude_policy.managed_dir() == Path("/Library/Application Support/ClaudeCode")


def test_variables_in_policy_entries(
    monkeypatch: pytest.MonkeyPatch, home: Path, project: Path, tmp_path: Path
) -> None:
    """Claude Code expands ${VAR} in serverCommand and serverUrl entries from its own environment; sap-devs
    reports a block only when the entry surely matches."""
    monkeypatch.setenv("TOOLS", "/opt/tools")
    server = Server("sap-devs", ("/opt/tools/sap-devs", "mcp", "serve"))
    _write(
        tmp_path / "p" / "managed-settings.json",
        {"deniedMcpServers": [{"serverCommand": ["${TOOLS}/sap-devs", "mcp", "serve"]}]},
    )
    assert check(server, home, project, tmp_path / "p").block is not None
    _write(
        tmp_path / "p" / "managed-settings.json",
        {"deniedMcpServers": [{"serverCommand": ["${UNSET_X}/sap-devs", "mcp", "serve"]}]},
    )
    assert check(server, home, project, tmp_path / "p").block is None
    _write(tmp_path / "p" / "managed-settings.json", {"allowedMcpServers": [{"serverCommand": ["${UNSET_X}/other"]}]})
    assert check(server, home, project, tmp_path / "p").block is None  # might match in Claude Code's environment
    remote = Server("sap-devs", url="https://mcp.example.com/api")
    _write(tmp_path / "p" / "managed-settings.json", {"allowedMcpServers": [{"serverUrl": "https://${UNSET_X}/*"}]})
    assert check(remote, home, project, tmp_path / "p").block is None
    _write(
        tmp_path / "p" / "managed-settings.json",
        {"allowedMcpServers": [{"serverUrl": "https://${TOOLS_HOST:-x.org}/*"}]},
    )
    assert check(remote, home, project, tmp_path / "p").block is None  # a default is no certainty either
    assert os.environ.get("UNSET_X") is None


@pytest.mark.parametrize(
    "url, pattern, expected",
    [
        ("https://mcp.example.com/api", "https://mcp.example.com/*", True),
        ("https://mcp.example.com/api", "https://mcp.example.com", True),  # no path: any path
        ("https://mcp.example.com", "https://mcp.example.com/", True),
        ("https://mcp.example.com/api", "https://mcp.example.com/", False),
        ("https://api.internal.example.com/mcp", "https://*.example.com/*", True),
        ("https://Mcp.Example.com./api", "https://mcp.example.com/*", True),  # host: no case, trailing dot
        ("https://mcp.example.com/API", "https://mcp.example.com/api", False),  # paths keep case
        ("http://localhost:8080/mcp", "http://localhost:*/*", True),
        ("http://localhost:8080/mcp", "http://localhost/*", False),
        ("https://mcp.example.com:443/x", "https://mcp.example.com/*", True),
        ("http://mcp.example.com/x", "*://mcp.example.com/*", True),
        ("http://mcp.example.com/x", "https://mcp.example.com/*", False),
        ("https://evil.com/mcp.example.com", "https://mcp.example.com/*", False),
        ("https://anything.org/", "*", True),
    ],
)
def test_server_url_patterns(url: str, pattern: str, expected: bool) -> None:
    assert url_matches(url, pattern) is expected
