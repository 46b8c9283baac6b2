"""Several scopes, conflicting entries and the step left in the client (issue 13, defects 7 and 8)."""

from __future__ import annotations

from pathlib import Path

from tests.integrations.test_cli import run


def test_install_names_the_client_step_and_warns_about_scopes(env: dict[str, str], home: Path, project: Path) -> None:
    proc = run(env, project, "mcp", "install", "-c", "claude-code", "--scope", "project")
    assert proc.returncode == 0, proc.stderr
    assert "Next, Claude Code (project): Claude Code asks before it starts servers" in proc.stdout
    assert "Warning" not in proc.stderr
    proc = run(env, project, "mcp", "install", "-c", "claude-code", "--profile", "cap-developer")
    assert proc.returncode == 0, proc.stderr
    assert "Next, Claude Code (user): restart Claude Code" in proc.stdout
    assert "has this server in 2 scopes" in proc.stderr and "the entries conflict" in proc.stderr

    proc = run(env, project, "mcp", "status", "-c", "claude-code")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "mcp serve --profile cap-developer (profile cap-developer)" in proc.stdout
    assert "next: Claude Code asks before it starts servers" in proc.stdout
    assert "Warning: Claude Code has this server in 2 scopes" in proc.stdout


def test_status_exits_non_zero_when_the_command_is_gone(
    env: dict[str, str], home: Path, project: Path, executable: Path
) -> None:
    assert run(env, project, "mcp", "install", "-c", "cursor").returncode == 0
    executable.unlink()
    proc = run(env, project, "mcp", "status", "-c", "cursor")
    assert proc.returncode == 1 and "command MISSING" in proc.stdout


def test_inject_warns_when_both_scopes_hold_a_block(env: dict[str, str], project: Path) -> None:
    assert run(env, project, "inject", "-c", "gemini-cli", "--scope", "user").returncode == 0
    proc = run(env, project, "inject", "-c", "gemini-cli")
    assert proc.returncode == 0, proc.stderr
    assert "Gemini CLI also reads the sap-devs block in" in proc.stderr and "it loads both" in proc.stderr
    proc = run(env, project, "inject", "-c", "gemini-cli", "--status")
    assert "Warning: Gemini CLI also reads" in proc.stdout


def test_inject_picks_the_profile_from_the_project(env: dict[str, str], project: Path) -> None:
    (project / "package.json").write_text('{"dependencies": {"@sap/cds": "^9"}}', encoding="utf-8")
    proc = run(env, project, "inject", "-c", "claude-code")
    assert proc.returncode == 0, proc.stderr
    assert "Profile cap-developer, from the project (CAP (Node.js))" in proc.stdout
    text = (project / "CLAUDE.md").read_text(encoding="utf-8")
    assert "profile=cap-developer verbosity=default" in text and len(text) / 4 <= 3_000


def test_inject_warns_when_codex_reads_an_override_instead(env: dict[str, str], project: Path) -> None:
    (project / "AGENTS.override.md").write_text("Temporary rules.\n", encoding="utf-8")
    proc = run(env, project, "inject", "-c", "codex")
    assert proc.returncode == 0, proc.stderr
    assert f"Warning: Codex reads {project / 'AGENTS.override.md'} instead of {project / 'AGENTS.md'}" in proc.stderr
    proc = run(env, project, "inject", "-c", "codex", "--status")
    assert "Warning: Codex reads" in proc.stdout
