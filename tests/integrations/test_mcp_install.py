"""``mcp install / uninstall / status`` against every client's config file, in temporary folders."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import clients, jsonc, state
from sap_devs.integrations.mcp_install import (
    ServerSpec,
    Target,
    install,
    server_spec,
    status,
    target,
    uninstall,
)

ALL = [(c, cfg) for c in clients.CLIENTS for cfg in c.mcp]
IDS = [f"{c.id}-{cfg.scope}" for c, cfg in ALL]


def spec(command: str = "/opt/sap-devs/bin/sap-devs", *extra: str) -> ServerSpec:
    return ServerSpec("sap-devs", command, ("mcp", "serve", *extra))


def parse(t: Target, text: str) -> Any:
    """Each format read by its own parser."""
    if t.config.format == "json":
        return jsonc.loads(text)
    if t.config.format == "toml":
        return tomllib.loads(text)
    return yaml.safe_load(text)


def entries(t: Target, data: Any, name: str = "sap-devs") -> list[Any]:
    if t.config.format == "yaml":
        return [i for i in data.get("mcpServers") or [] if i.get("name") == name]
    node = data
    for key in t.container:
        node = node.get(key, {})
    return [node[name]] if name in node else []


def _json_nested(keys: tuple[str, ...], inner: str) -> str:
    for key in reversed(keys):
        inner = "{" + json.dumps(key) + ": " + inner + "}"
    return inner


def seed(t: Target) -> str:
    """An existing file with another server, comments and (for JSON) trailing commas."""
    if t.config.format == "json":
        comma = "," if t.config.trailing_commas else ""  # Gemini CLI reads comments but not trailing commas
        other = f'{{\n    "other": {{"command": "other-cmd", "args": ["x"]}}{comma} // keep this too\n  }}'
        nested = _json_nested(t.container[1:], other)
        return (
            '{\n  // keep this comment\n  "theme": "dark", /* inline */\n'
            f"  {json.dumps(t.container[0])}: {nested}{comma}\n}}\n"
        )
    if t.config.format == "toml":
        return (
            '# keep this comment\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-cmd"\nargs = ["x"]\n\n'
            '[profiles.work]\nmodel = "gpt-5"  # keep this too\n'
        )
    return (
        "# keep this comment\nname: my config\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: m1\n    provider: ollama\n"
        "mcpServers:\n  - name: other\n    command: other-cmd  # keep this too\n    args: [x]\n# end comment\n"
    )


MALFORMED = {
    "json": ('{\n  "mcpServers": {\n    "x": 1,,\n  }\n}\n', 3),
    "toml": ('a = 1\nb = \n[mcp_servers.x]\ncommand = "y"\n', 2),
    "yaml": ("mcpServers:\n  - name: a\n    args: [x\n", 4),
}


@pytest.fixture(params=ALL, ids=IDS)
def t(request: pytest.FixtureRequest, home: Path, project: Path) -> Target:
    client, config = request.param
    return target(client, config, home, project, "sap-devs")


def test_install_into_missing_file(t: Target, home: Path, project: Path) -> None:
    outcome = install(t, spec())
    assert outcome.status == "installed" and outcome.backup is None
    assert t.path.is_relative_to(project if t.scope == "project" else home)
    data = parse(t, t.path.read_text(encoding="utf-8"))
    [entry] = entries(t, data)
    assert entry["command"] == "/opt/sap-devs/bin/sap-devs" and entry["args"] == ["mcp", "serve"]
    if t.client.id in ("vscode", "continue", "claude-code"):
        assert entry["type"] == "stdio"
    if t.client.id == "continue":
        assert entry["name"] == "sap-devs"


def test_install_keeps_other_servers_and_comments(t: Target) -> None:
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_text(seed(t), encoding="utf-8")
    before = parse(t, seed(t))
    assert install(t, spec()).status == "installed"
    text = t.path.read_text(encoding="utf-8")
    assert "keep this comment" in text and "keep this too" in text
    data = parse(t, text)
    assert len(entries(t, data)) == 1 and entries(t, data, "other") == entries(t, before, "other")
    assert not list(t.path.parent.glob("*.bak")) and not list(t.path.parent.glob("*.sap-devs*"))
    # Uninstall gives back the original file.
    assert uninstall(t, "sap-devs").status == "removed"
    assert t.path.read_text(encoding="utf-8") == seed(t)


def test_repeated_install_is_idempotent_and_keeps_one_entry(t: Target) -> None:
    install(t, spec())
    first = t.path.read_bytes()
    assert install(t, spec()).status == "already installed"
    assert t.path.read_bytes() == first
    assert install(t, spec("/new/place/sap-devs")).status == "updated"
    assert install(t, spec("/new/place/sap-devs", "--profile", "cap-developer")).status == "updated"
    data = parse(t, t.path.read_text(encoding="utf-8"))
    [entry] = entries(t, data)
    assert entry["command"] == "/new/place/sap-devs" and entry["args"][-2:] == ["--profile", "cap-developer"]


def test_malformed_file_is_left_byte_for_byte(t: Target) -> None:
    text, line = MALFORMED[t.config.format]
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_bytes(text.encode("utf-8"))
    with pytest.raises(SapDevsError) as err:
        install(t, spec())
    assert f"{t.path}:{line}" in str(err.value) and "unchanged" in str(err.value)
    assert t.path.read_bytes() == text.encode("utf-8")
    assert not state.state_dir().exists()
    with pytest.raises(SapDevsError):
        uninstall(t, "sap-devs")
    assert t.path.read_bytes() == text.encode("utf-8")
    row = status(t, "sap-devs")
    assert row.state == "malformed" and f"line {line}" in row.detail


def test_dry_run_changes_nothing(t: Target) -> None:
    outcome = install(t, spec(), dry_run=True)
    assert outcome.status == "would install" and not t.path.exists()
    assert "+" in outcome.diff and "sap-devs" in outcome.diff
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_text(seed(t), encoding="utf-8")
    outcome = install(t, spec(), dry_run=True)
    assert outcome.diff.startswith(f"--- {t.path}") and t.path.read_text(encoding="utf-8") == seed(t)
    install(t, spec())
    after = t.path.read_bytes()
    assert uninstall(t, "sap-devs", dry_run=True).status == "would remove"
    assert t.path.read_bytes() == after


def test_status(t: Target, executable: Path) -> None:
    assert status(t, "sap-devs").state == "no file"
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_text(seed(t), encoding="utf-8")
    assert status(t, "sap-devs").state == "not installed"
    install(t, server_spec("sap-devs", []))
    row = status(t, "sap-devs")
    assert row.state == "installed" and row.command == str(executable) and row.command_exists
    executable.unlink()
    assert status(t, "sap-devs").command_exists is False


def test_uninstall_when_absent(t: Target) -> None:
    assert uninstall(t, "sap-devs").status == "not installed"
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_text(seed(t), encoding="utf-8")
    assert uninstall(t, "sap-devs").status == "not installed"
    assert t.path.read_text(encoding="utf-8") == seed(t)


# --- client-specific facts ------------------------------------------------------------------------


def _t(client_id: str, scope: str, home: Path, project: Path) -> Target:
    client = clients.by_id(client_id)
    config = client.mcp_config(scope)  # type: ignore[arg-type]
    assert config is not None
    return target(client, config, home, project, "sap-devs")


def test_claude_code_files(home: Path, project: Path) -> None:
    assert _t("claude-code", "project", home, project).path == project / ".mcp.json"
    user = _t("claude-code", "user", home, project)
    local = _t("claude-code", "local", home, project)
    assert user.path == local.path == home / ".claude.json"
    state = {"numStartups": 12, "projects": {"/elsewhere": {"allowedTools": ["x"]}}, "oauthAccount": {"a": 1}}
    user.path.write_text(json.dumps(state, indent=2), encoding="utf-8")
    install(local, spec())
    install(user, spec())
    data = json.loads(user.path.read_text(encoding="utf-8"))  # still strict JSON
    assert data["numStartups"] == 12 and data["oauthAccount"] == {"a": 1}
    assert data["projects"]["/elsewhere"] == {"allowedTools": ["x"]}
    assert data["projects"][project.resolve().as_posix()]["mcpServers"]["sap-devs"]["command"].endswith("sap-devs")
    assert data["mcpServers"]["sap-devs"]["type"] == "stdio"
    assert not (home / ".claude" / "settings.json").exists()  # the original's mistake
    uninstall(local, "sap-devs")
    data = json.loads(user.path.read_text(encoding="utf-8"))
    assert "sap-devs" in data["mcpServers"] and data["projects"][project.resolve().as_posix()]["mcpServers"] == {}


def test_paths_follow_clients_md(home: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clients.sys, "platform", "linux")
    expected = {
        ("claude-desktop", "user"): home / ".config/Claude/claude_desktop_config.json",
        ("cursor", "user"): home / ".cursor/mcp.json",
        ("cursor", "project"): project / ".cursor/mcp.json",
        ("vscode", "project"): project / ".vscode/mcp.json",
        ("vscode", "user"): home / ".config/Code/User/mcp.json",
        ("windsurf", "user"): home / ".codeium/windsurf/mcp_config.json",
        ("gemini-cli", "user"): home / ".gemini/settings.json",
        ("gemini-cli", "project"): project / ".gemini/settings.json",
        ("codex", "user"): home / ".codex/config.toml",
        ("codex", "project"): project / ".codex/config.toml",
        ("continue", "user"): home / ".continue/config.yaml",
        ("continue", "project"): project / ".continue/mcpServers/sap-devs.yaml",
        ("zed", "user"): home / ".config/zed/settings.json",
        ("zed", "project"): project / ".zed/settings.json",
    }
    for (client_id, scope), path in expected.items():
        assert _t(client_id, scope, home, project).path == path, client_id
    monkeypatch.setattr(clients.sys, "platform", "darwin")
    assert _t("claude-desktop", "user", home, project).path == (
        home / "Library/Application Support/Claude/claude_desktop_config.json"
    )
    monkeypatch.setattr(clients.sys, "platform", "win32")
    assert _t("vscode", "user", home, project).path == home / "AppData/Roaming/Code/User/mcp.json"


def test_vscode_uses_servers_key_and_keeps_jsonc(home: Path, project: Path) -> None:
    t = _t("vscode", "project", home, project)
    t.path.parent.mkdir(parents=True)
    original = (
        '{\n\t// inputs first\n\t"inputs": [{"type": "promptString", "id": "key"}],\n'
        '\t"servers": {\n\t\t"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},\n\t},\n}\n'
    )
    t.path.write_text(original, encoding="utf-8")
    install(t, spec())
    text = t.path.read_text(encoding="utf-8")
    assert "// inputs first" in text and '\t\t"sap-devs": {' in text  # the file's tab indentation is followed
    data = jsonc.loads(text)
    assert data["servers"]["sap-devs"] == {
        "type": "stdio",
        "command": "/opt/sap-devs/bin/sap-devs",
        "args": ["mcp", "serve"],
    }
    assert "mcpServers" not in data and data["inputs"][0]["id"] == "key"


def test_codex_table_and_env(home: Path, project: Path) -> None:
    t = _t("codex", "user", home, project)
    install(t, ServerSpec("cap-mcp", "npx", ("-y", "@cap-js/mcp-server"), {"NODE_ENV": "dev"}))
    text = t.path.read_text(encoding="utf-8")
    assert '[mcp_servers.cap-mcp]\ncommand = "npx"\nargs = ["-y", "@cap-js/mcp-server"]\n' in text
    assert tomllib.loads(text)["mcp_servers"]["cap-mcp"]["env"] == {"NODE_ENV": "dev"}
    assert install(t, ServerSpec("cap-mcp", "npx", ("-y", "@cap-js/mcp-server"), {"NODE_ENV": "dev"})).status == (
        "already installed"
    )
    uninstall(t, "cap-mcp")
    assert not t.path.exists() and not t.path.parent.exists()  # sap-devs created both


def test_codex_inline_table_is_refused(home: Path, project: Path) -> None:
    t = _t("codex", "user", home, project)
    t.path.parent.mkdir(parents=True)
    original = '[mcp_servers]\nsap-devs = { command = "old", args = [] }\n'
    t.path.write_text(original, encoding="utf-8")
    with pytest.raises(SapDevsError, match="inline"):
        install(t, spec())
    assert t.path.read_text(encoding="utf-8") == original


def test_continue_writes_a_yaml_list_never_json(home: Path, project: Path) -> None:
    t = _t("continue", "user", home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_text("name: Local\nversion: 1.0.0\nschema: v1\n", encoding="utf-8")
    install(t, spec())
    text = t.path.read_text(encoding="utf-8")
    assert not text.lstrip().startswith("{")
    data = yaml.safe_load(text)
    assert data["mcpServers"] == [
        {"name": "sap-devs", "type": "stdio", "command": "/opt/sap-devs/bin/sap-devs", "args": ["mcp", "serve"]}
    ]
    assert data["name"] == "Local"


def test_continue_mapping_shape_is_refused(home: Path, project: Path) -> None:
    t = _t("continue", "user", home, project)
    t.path.parent.mkdir(parents=True)
    original = "mcpServers:\n  sap-devs:\n    command: x\n"
    t.path.write_text(original, encoding="utf-8")
    with pytest.raises(SapDevsError, match="must be a list"):
        install(t, spec())
    assert t.path.read_text(encoding="utf-8") == original


def test_continue_project_block_file_is_removed_with_its_last_server(home: Path, project: Path) -> None:
    t = _t("continue", "project", home, project)
    install(t, spec())
    data = yaml.safe_load(t.path.read_text(encoding="utf-8"))
    assert data["name"] == "sap-devs" and data["schema"] == "v1" and len(data["mcpServers"]) == 1
    assert uninstall(t, "sap-devs").status == "removed" and not t.path.exists()


def test_duplicates_collapse_to_one_entry(home: Path, project: Path) -> None:
    t = _t("cursor", "user", home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_text(
        '{"mcpServers": {\n  "sap-devs": {"command": "a"},\n  "x": {},\n  "sap-devs": {"command": "b"}\n}}\n',
        encoding="utf-8",
    )
    install(t, spec())
    text = t.path.read_text(encoding="utf-8")
    assert text.count('"sap-devs"') == 1 and jsonc.loads(text)["mcpServers"]["x"] == {}
    y = _t("continue", "user", home, project)
    y.path.parent.mkdir(parents=True)
    y.path.write_text("mcpServers:\n  - name: sap-devs\n    command: a\n  - name: sap-devs\n    command: b\n")
    install(y, spec())
    assert [i["name"] for i in yaml.safe_load(y.path.read_text(encoding="utf-8"))["mcpServers"]] == ["sap-devs"]


def test_user_keys_in_the_entry_survive_reinstall(home: Path, project: Path) -> None:
    t = _t("cursor", "project", home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_text(
        '{"mcpServers": {"sap-devs": {"command": "/old", "args": [], "env": {"SAP_URL": "https://h"}}}}',
        encoding="utf-8",
    )
    assert install(t, spec()).status == "updated"
    entry = jsonc.loads(t.path.read_text(encoding="utf-8"))["mcpServers"]["sap-devs"]
    assert entry == {"command": "/opt/sap-devs/bin/sap-devs", "args": ["mcp", "serve"], "env": {"SAP_URL": "https://h"}}


def test_crlf_and_bom_are_kept(home: Path, project: Path) -> None:
    t = _t("gemini-cli", "project", home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_bytes('\ufeff{\r\n  "theme": "x"\r\n}\r\n'.encode())
    install(t, spec())
    raw = t.path.read_bytes()
    assert raw.startswith("\ufeff".encode()) and b"\n" not in raw.replace(b"\r\n", b"")
    assert jsonc.loads(raw.decode("utf-8"))["mcpServers"]["sap-devs"]["args"] == ["mcp", "serve"]


def test_backup_keeps_file_mode(home: Path, project: Path) -> None:
    t = _t("claude-code", "user", home, project)
    t.path.write_text('{"secret": "s"}', encoding="utf-8")
    t.path.chmod(0o600)
    outcome = install(t, spec())
    assert outcome.backup is not None and outcome.backup.read_text(encoding="utf-8") == '{"secret": "s"}'
    assert outcome.backup.stat().st_mode & 0o777 == 0o600 and t.path.stat().st_mode & 0o777 == 0o600


def test_not_utf8_is_refused(home: Path, project: Path) -> None:
    t = _t("windsurf", "user", home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_bytes(b'{\n "a": "\xff"\n}')
    with pytest.raises(SapDevsError, match=":2: not UTF-8"):
        install(t, spec())


def test_server_spec(monkeypatch: pytest.MonkeyPatch, executable: Path) -> None:
    s = server_spec("sap-devs", [], "cap-developer")
    assert s.command == str(executable) and s.args == ("mcp", "serve", "--profile", "cap-developer")
    monkeypatch.delenv("SAP_DEVS_EXECUTABLE")
    monkeypatch.setattr("sys.argv", ["/nowhere/python-module"])
    s = server_spec("sap-devs", [])
    assert s.command == str(Path(sys.executable).absolute()) and s.args[:3] == ("-m", "sap_devs", "mcp")
    from sap_devs.knowledge.base import KnowledgeBase

    servers = [server for _, server in KnowledgeBase.load().items("mcp_servers")]
    cap = server_spec("cap-mcp", servers)
    assert cap.command == "npx" and cap.args == ("-y", "@cap-js/mcp-server")
    with pytest.raises(SapDevsError, match="Unknown MCP server"):
        server_spec("nope", servers)
    with pytest.raises(SapDevsError, match="--profile"):
        server_spec("cap-mcp", servers, "cap-developer")


def test_the_command_is_the_running_executable_not_the_first_on_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An old install earlier on PATH must not shadow the sap-devs the user is running."""
    monkeypatch.delenv("SAP_DEVS_EXECUTABLE", raising=False)
    old = tmp_path / "pipx" / "bin" / "sap-devs"
    running = tmp_path / "venv" / "bin" / "sap-devs"
    for exe in (old, running):
        exe.parent.mkdir(parents=True)
        exe.write_text("#!/bin/sh\n", encoding="utf-8")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{old.parent}{os.pathsep}{running.parent}")
    monkeypatch.chdir(tmp_path / "venv")
    monkeypatch.setattr("sys.argv", ["bin/sap-devs", "mcp", "install"])  # started with a relative path
    assert server_spec("sap-devs", []).command == str(running)
    # A venv's python is a symlink to the system one: the link is kept, or sap-devs would not be importable.
    link = tmp_path / "venv" / "bin" / "python"
    link.symlink_to(sys.executable)
    monkeypatch.setattr("sys.executable", str(link))
    monkeypatch.setattr("sys.argv", ["-c"])
    assert server_spec("sap-devs", []).command == str(link)


def test_gemini_rejects_trailing_commas_so_sap_devs_names_them(home: Path, project: Path) -> None:
    """Gemini CLI reads comments in settings.json but fails on a trailing comma: such a file is malformed
    for it, and left as it is."""
    t = _t("gemini-cli", "user", home, project)
    t.path.parent.mkdir(parents=True)
    broken = '{\n  // mine\n  "mcpServers": {\n    "other": {"command": "x"},\n  }\n}\n'
    t.path.write_text(broken, encoding="utf-8")
    with pytest.raises(SapDevsError, match=r"settings.json:4: malformed file \(trailing comma"):
        install(t, spec())
    assert t.path.read_text(encoding="utf-8") == broken
    row = status(t, "sap-devs")
    assert row.state == "malformed" and "trailing comma" in row.detail
    t.path.write_text(broken.replace("},\n", "}\n"), encoding="utf-8")  # comments alone are fine
    assert install(t, spec()).status == "installed"
    assert jsonc.trailing_commas(t.path.read_text(encoding="utf-8")) == []
    # Cursor (and VS Code, Zed) read JSONC: the same file is fine there.
    c = _t("cursor", "user", home, project)
    c.path.parent.mkdir(parents=True)
    c.path.write_text(broken, encoding="utf-8")
    assert install(c, spec()).status == "installed"


def test_detection(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert clients.select(None, home) == ([], True)
    (home / ".cursor").mkdir()
    monkeypatch.setattr(clients, "which", lambda name: "/usr/bin/codex" if name == "codex" else None)
    chosen, detected = clients.select(None, home)
    assert [c.id for c in chosen] == ["cursor", "codex"] and detected
    chosen, detected = clients.select(["zed", "copilot,zed"], home)
    assert [c.id for c in chosen] == ["zed", "vscode"] and not detected
    with pytest.raises(SapDevsError, match="Unknown client"):
        clients.select(["emacs"], home)


def test_continue_user_config_is_complete_for_the_client(home: Path, project: Path) -> None:
    """`cn` refuses a config.yaml without name and version ("name: Required, version: Required")."""
    t = _t("continue", "user", home, project)
    install(t, spec())
    data = yaml.safe_load(t.path.read_text(encoding="utf-8"))
    assert (data["name"], data["version"], data["schema"]) == ("Local Config", "1.0.0", "v1")
    assert [i["name"] for i in data["mcpServers"]] == ["sap-devs"]
    # A file an older sap-devs wrote with mcpServers alone gets the missing keys; comments stay.
    t.path.write_text("# mine\nmcpServers:\n  - name: other\n    command: x\n", encoding="utf-8")
    install(t, spec())
    text = t.path.read_text(encoding="utf-8")
    assert text.startswith("# mine\nname: Local Config\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: other\n")
    # Keys the user set are never replaced.
    t.path.write_text("name: Mine\nversion: 2.0.0\nschema: v1\n", encoding="utf-8")
    install(t, spec())
    assert yaml.safe_load(t.path.read_text(encoding="utf-8"))["name"] == "Mine"
    # The user file is not removed with its last server (only Continue block files are).
    assert uninstall(t, "sap-devs").status == "removed" and t.path.exists()
