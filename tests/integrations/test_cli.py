"""``sap-devs mcp install / uninstall / status`` and ``sap-devs inject`` as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sap_devs.integrations import jsonc


def run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sap_devs", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_install_status_uninstall(env: dict[str, str], home: Path, project: Path, executable: Path) -> None:
    config = home / ".cursor" / "mcp.json"
    proc = run(env, project, "mcp", "install", "--client", "cursor", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "would install" in proc.stdout and "+++ " + str(config) in proc.stdout and not config.exists()

    proc = run(env, project, "mcp", "install", "--client", "cursor", "--profile", "cap-developer")
    assert proc.returncode == 0, proc.stderr
    assert "Cursor (user): installed" in proc.stdout
    entry = json.loads(config.read_text(encoding="utf-8"))["mcpServers"]["sap-devs"]
    assert entry == {"command": str(executable), "args": ["mcp", "serve", "--profile", "cap-developer"]}

    proc = run(env, project, "mcp", "install", "--client", "cursor", "--profile", "cap-developer")
    assert "already installed" in proc.stdout

    proc = run(env, project, "mcp", "status", "--client", "cursor")
    assert proc.returncode == 0, proc.stderr
    assert f"cursor          user     installed, command exists: {executable}" in proc.stdout
    assert "project  no file" in proc.stdout

    proc = run(env, project, "mcp", "uninstall", "--client", "cursor")
    assert proc.returncode == 0 and "removed" in proc.stdout
    assert not config.exists() and not config.parent.exists()  # sap-devs created both


def test_project_scope_and_other_servers(env: dict[str, str], project: Path) -> None:
    proc = run(env, project, "mcp", "install", "ui5-mcp", "-c", "vscode", "-c", "claude-code", "--scope", "project")
    assert proc.returncode == 0, proc.stderr
    vscode = jsonc.loads((project / ".vscode" / "mcp.json").read_text(encoding="utf-8"))
    assert vscode["servers"]["ui5-mcp"] == {"type": "stdio", "command": "npx", "args": ["-y", "@ui5/mcp-server"]}
    claude = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))
    assert claude["mcpServers"]["ui5-mcp"]["command"] == "npx"


def test_malformed_file_exit_code_and_message(env: dict[str, str], home: Path, project: Path) -> None:
    config = home / ".gemini" / "settings.json"
    config.parent.mkdir(parents=True)
    config.write_text('{\n  "theme": "x",\n  oops\n}\n', encoding="utf-8")
    proc = run(env, project, "mcp", "install")  # ~/.gemini makes Gemini CLI a detected client
    assert proc.returncode == 1
    assert f"{config}:3: malformed file" in proc.stderr and "Traceback" not in proc.stderr
    assert config.read_text(encoding="utf-8") == '{\n  "theme": "x",\n  oops\n}\n'
    proc = run(env, project, "mcp", "status", "-c", "gemini-cli")
    assert proc.returncode == 1 and "malformed (line 3" in proc.stdout


def test_nothing_detected_and_bad_options(env: dict[str, str], project: Path) -> None:
    proc = run(env, project, "mcp", "install")
    assert proc.returncode == 1 and "No AI client found" in proc.stderr
    proc = run(env, project, "mcp", "install", "--client", "emacs")
    assert proc.returncode == 2 and "Unknown client 'emacs'" in proc.stderr
    proc = run(env, project, "mcp", "install", "--client", "zed", "--scope", "global")
    assert proc.returncode == 2 and "Unknown scope" in proc.stderr
    proc = run(env, project, "mcp", "install", "--client", "zed", "--profile", "nope")
    assert proc.returncode == 2 and "Unknown profile 'nope'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_inject_cli(env: dict[str, str], project: Path) -> None:
    claude_md = project / "CLAUDE.md"
    claude_md.write_text("# Notes\n", encoding="utf-8")
    proc = run(env, project, "inject", "--client", "claude-code", "--client", "cursor", "--verbosity", "minimal")
    assert proc.returncode == 0, proc.stderr
    assert "added (packs: base" in proc.stdout and "created (packs: base" in proc.stdout
    proc = run(env, project, "inject", "-c", "claude-code", "-c", "cursor", "--status")
    assert proc.stdout.count(": present") == 2, proc.stdout
    proc = run(env, project, "inject", "-c", "claude-code", "-c", "cursor", "--uninstall")
    assert proc.returncode == 0, proc.stderr
    assert claude_md.read_text(encoding="utf-8") == "# Notes\n"
    assert not (project / ".cursor" / "rules" / "sap-devs.mdc").exists()
    proc = run(env, project, "inject", "-c", "windsurf", "--scope", "user")
    assert proc.returncode == 1 and "user-scope instruction file" in proc.stderr


def test_install_for_a_named_abap_system(env: dict[str, str], home: Path, project: Path, tmp_path: Path) -> None:
    systems = tmp_path / "config" / "systems.yaml"
    systems.parent.mkdir(parents=True, exist_ok=True)
    systems.write_text(
        "systems:\n  dev:\n    url: https://dev.example.com:44300\n    user: DEVELOPER\n    password_env: SAP_DEV_PASSWORD\n"
    )
    unknown = run(env, project, "mcp", "install", "-c", "cursor", "--system", "prod")
    assert (
        unknown.returncode != 0
        and "No system named 'prod'" in unknown.stderr
        and "Known systems: dev" in unknown.stderr
    )
    assert not (home / ".cursor" / "mcp.json").exists()
    done = run(env, project, "mcp", "install", "-c", "cursor", "--system", "dev")
    assert done.returncode == 0, done.stderr
    entry = jsonc.loads((home / ".cursor" / "mcp.json").read_text())["mcpServers"]["sap-devs"]
    assert entry["args"][-2:] == ["--system", "dev"]
    assert "env" not in entry, "no credentials are written into the client's file"
