"""Install then uninstall leaves the files as they were (issue 13, defects 6 and 9): byte for byte when
the file still reads as sap-devs left it, no backups or stubs in the project, created folders gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.integrations import clients, inject, jsonc, state
from sap_devs.integrations.mcp_install import ServerSpec, Target, install, target, uninstall

SPEC = ServerSpec("sap-devs", "/opt/sap-devs/bin/sap-devs", ("mcp", "serve"))


def _t(client_id: str, scope: str, home: Path, project: Path) -> Target:
    client = clients.by_id(client_id)
    config = client.mcp_config(scope)  # type: ignore[arg-type]
    assert config is not None
    return target(client, config, home, project, "sap-devs")


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def test_a_project_round_trip_leaves_no_debris(home: Path, project: Path) -> None:
    (project / "CLAUDE.md").write_text("# Team notes\n\nUse tabs.\n", encoding="utf-8")
    (project / ".vscode").mkdir()
    (project / ".vscode" / "settings.json").write_text("{}\n", encoding="utf-8")
    before = _snapshot(project)
    load = inject.loader()
    ids = ("claude-code", "vscode", "gemini-cli", "codex", "continue", "cursor")
    for client_id in ids:
        install(_t(client_id, "project", home, project), SPEC)
    found, _ = inject.targets([clients.by_id(c) for c in ids], "project", home, project)
    for t in found:
        inject.inject(t, load, None, "cap-developer")
    assert not [p for p in project.rglob("*") if p.name.endswith(".bak") or ".sap-devs" in p.name]
    for client_id in ids:
        uninstall(_t(client_id, "project", home, project), "sap-devs")
    for t in found:
        inject.uninstall(t)
    assert _snapshot(project) == before  # no stub files, no empty folders, no backups
    assert list((state.state_dir() / "backups").iterdir())  # the backups are in sap-devs' state folder


@pytest.mark.parametrize(
    ("client_id", "scope", "original"),
    [
        ("claude-code", "project", '{"mcpServers": {"other": {"command": "x"}}}'),  # single line, no newline
        ("claude-code", "user", '{"numStartups": 3, "mcpServers": {}}\n'),
        ("codex", "user", 'model = "o3"\n\n\n[mcp_servers.other]\ncommand = "x"\n\n'),
        (
            "continue",
            "user",
            "# mine\nname: Mine\nversion: 1.0.0\nschema: v1\nmcpServers: [{name: other, command: x}]\n",
        ),
        ("vscode", "project", '{\n\t// comment\n\t"servers": {},\n}\n'),
    ],
)
def test_uninstall_is_byte_exact(home: Path, project: Path, client_id: str, scope: str, original: str) -> None:
    t = _t(client_id, scope, home, project)
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_text(original, encoding="utf-8")
    install(t, SPEC)
    install(t, ServerSpec("sap-devs", "/elsewhere/sap-devs", ("mcp", "serve")))  # an update keeps the original
    outcome = uninstall(t, "sap-devs")
    assert outcome.status == "removed" and outcome.message == "restored byte for byte"
    assert t.path.read_text(encoding="utf-8") == original


def test_a_file_changed_since_is_edited_and_our_empty_container_goes(home: Path, project: Path) -> None:
    """Claude Code rewrites ~/.claude.json all the time: the entry is removed by an edit, and the
    mcpServers object sap-devs added goes with it once empty."""
    t = _t("claude-code", "user", home, project)
    t.path.write_text('{"numStartups": 3}\n', encoding="utf-8")
    install(t, SPEC)
    t.path.write_text(t.path.read_text(encoding="utf-8").replace('"numStartups": 3', '"numStartups": 4'))
    assert uninstall(t, "sap-devs").status == "removed"
    assert jsonc.loads(t.path.read_text(encoding="utf-8")) == {"numStartups": 4}
    # An entry the user had before sap-devs is removed, not "restored".
    t.path.write_text('{"mcpServers": {"sap-devs": {"command": "old"}}}\n', encoding="utf-8")
    install(t, SPEC)
    uninstall(t, "sap-devs")
    assert jsonc.loads(t.path.read_text(encoding="utf-8")) == {"mcpServers": {}}


def test_two_scopes_in_one_file_come_off_one_at_a_time(home: Path, project: Path) -> None:
    user = _t("claude-code", "user", home, project)
    local = _t("claude-code", "local", home, project)
    original = '{"numStartups": 3}\n'
    user.path.write_text(original, encoding="utf-8")
    install(user, SPEC)
    install(local, SPEC)
    uninstall(user, "sap-devs")
    data = jsonc.loads(user.path.read_text(encoding="utf-8"))
    assert "mcpServers" not in data and data["projects"][next(iter(data["projects"]))]["mcpServers"]["sap-devs"]
    uninstall(local, "sap-devs")
    assert user.path.read_text(encoding="utf-8") == original


def test_backups_are_private_and_few(home: Path, project: Path) -> None:
    t = _t("cursor", "user", home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_text('{"secret": "s"}', encoding="utf-8")
    for n in range(8):
        install(t, ServerSpec("sap-devs", f"/v{n}/sap-devs", ("mcp", "serve")))
    folder = next((state.state_dir() / "backups").iterdir())
    kept = [p for p in folder.iterdir() if p.name != "PATH"]
    assert len(kept) == state.KEEP_BACKUPS and all(p.stat().st_mode & 0o777 == 0o600 for p in kept)
    assert (folder / "PATH").read_text(encoding="utf-8").strip() == str(t.path)
    assert not list(t.path.parent.glob("*.bak"))


def test_continue_flow_style_config_keeps_its_comments_through_install_and_an_edited_uninstall(
    home: Path, project: Path
) -> None:
    """The README promises comments stay: a bracketed mcpServers list is edited in place, not re-serialised."""
    t = _t("continue", "user", home, project)
    t.path.parent.mkdir(parents=True)
    original = (
        "# my Continue setup\nname: Mine  # shown in the picker\nversion: 1.0.0\nschema: v1\n"
        "mcpServers: [\n  # docs server\n  {name: other, command: x},  # keep\n]\n"
    )
    t.path.write_text(original, encoding="utf-8")
    installed = install(t, SPEC)
    assert installed.status == "installed" and installed.message == ""  # no "comments could not be kept"
    text = t.path.read_text(encoding="utf-8")
    assert text.startswith(original.split("]")[0]) and "# keep" in text and "# shown in the picker" in text
    # The user changes the file afterwards: uninstall edits it instead of restoring the old content.
    t.path.write_text(text.replace("version: 1.0.0", "version: 1.0.1"), encoding="utf-8")
    removed = uninstall(t, "sap-devs")
    assert removed.status == "removed" and removed.message == ""
    assert t.path.read_text(encoding="utf-8") == original.replace("version: 1.0.0", "version: 1.0.1")
