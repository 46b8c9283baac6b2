"""``inject``: the marked block in the clients' instruction files, with the bundled packs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import clients
from sap_devs.integrations.inject import END, START, InjectTarget, inject, render_block, status, targets, uninstall
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.packs import Pack


def load(profile: str | None) -> list[Pack]:
    return KnowledgeBase.load(profile).packs


def one(client_id: str, scope: str, home: Path, project: Path) -> InjectTarget:
    found, _ = targets([clients.by_id(client_id)], scope, home, project)  # type: ignore[arg-type]
    return found[0]


def test_files_follow_clients_md(home: Path, project: Path) -> None:
    every = list(clients.CLIENTS)
    project_files = {t.client.id: t.path for t in targets(every, "project", home, project)[0]}
    assert project_files == {
        "claude-code": project / "CLAUDE.md",
        "cursor": project / ".cursor/rules/sap-devs.mdc",
        "vscode": project / ".github/copilot-instructions.md",
        "windsurf": project / ".windsurf/rules/sap-devs.md",
        "gemini-cli": project / "GEMINI.md",
        "codex": project / "AGENTS.md",
        "continue": project / ".continue/rules/sap-devs.md",
    }
    user_files = {t.client.id: t.path for t in targets(every, "user", home, project)[0]}
    assert user_files == {
        "claude-code": home / ".claude/CLAUDE.md",
        "gemini-cli": home / ".gemini/GEMINI.md",
        "codex": home / ".codex/AGENTS.md",
        "continue": home / ".continue/rules/sap-devs.md",
    }


def test_inject_between_user_content_and_uninstall(home: Path, project: Path) -> None:
    t = one("claude-code", "project", home, project)
    t.path.write_text("# My project\n\nUse tabs.\n", encoding="utf-8")
    assert inject(t, load, "standard", "cap-developer").status == "added"
    text = t.path.read_text(encoding="utf-8")
    assert text.startswith("# My project\n\nUse tabs.\n\n" + START)
    assert text.rstrip().endswith(END) and "profile=cap-developer" in text
    t.path.write_text(text + "\n## Below\n\nMine too.\n", encoding="utf-8")
    assert inject(t, load, "standard", "cap-developer").status == "unchanged"
    assert inject(t, load, "minimal", "cap-developer").status == "updated"
    text = t.path.read_text(encoding="utf-8")
    assert text.startswith("# My project\n\nUse tabs.\n\n" + START) and text.endswith(
        END + "\n\n## Below\n\nMine too.\n"
    )
    assert text.count(START) == 1 and text.count(END) == 1
    assert uninstall(t).status == "removed"
    assert t.path.read_text(encoding="utf-8") == "# My project\n\nUse tabs.\n\n## Below\n\nMine too.\n"
    assert uninstall(t).status == "absent"


def test_created_files_get_front_matter_and_are_deleted_on_uninstall(home: Path, project: Path) -> None:
    cursor = one("cursor", "project", home, project)
    cont = one("continue", "user", home, project)
    for t in (cursor, cont):
        assert inject(t, load, "minimal", None).status == "created"
    text = cursor.path.read_text(encoding="utf-8")
    assert text.startswith("---\ndescription: ") and "\nalwaysApply: true\n---\n\n" + START in text
    assert cont.path.read_text(encoding="utf-8").startswith("---\nname: ")
    assert "alwaysApply: true" in cont.path.read_text(encoding="utf-8")
    assert uninstall(cursor).status == "file deleted" and not cursor.path.exists()
    # A file the user had already: the block goes, the file stays.
    agents = one("codex", "project", home, project)
    agents.path.write_text("", encoding="utf-8")
    inject(agents, load, "minimal", None)
    assert uninstall(agents).status == "removed" and agents.path.read_text(encoding="utf-8") == ""


def test_user_content_in_a_created_file_keeps_the_file(home: Path, project: Path) -> None:
    t = one("windsurf", "project", home, project)
    inject(t, load, "minimal", None)
    t.path.write_text(t.path.read_text(encoding="utf-8") + "\nMy own rule.\n", encoding="utf-8")
    assert uninstall(t).status == "removed" and t.path.read_text(encoding="utf-8") == "My own rule.\n"


def test_budget_drops_lowest_priority_packs_first() -> None:
    packs = load("cap-developer")
    full = render_block(packs, "standard", 10**6, profile=None, created=False)
    assert full.dropped == [] and full.packs == [p.id for p in packs]
    small = render_block(packs, "standard", 12_000, profile=None, created=False)
    assert len(small.text.encode()) <= 12_000 and not small.over_budget
    assert small.packs[0] == "base" and small.packs == full.packs[: len(small.packs)]
    assert small.dropped == full.packs[len(small.packs) :]
    tiny = render_block(packs, "full", 100, profile=None, created=False)
    assert tiny.packs == ["base"] and tiny.over_budget  # base packs are always kept


def test_full_verbosity_adds_known_errors_table(home: Path, project: Path) -> None:
    t = one("gemini-cli", "project", home, project)
    outcome = inject(t, load, "full", None)
    text = t.path.read_text(encoding="utf-8")
    assert "## Known SAP errors" in text and "| Error message | Cause | Fix |" in text
    assert len(outcome.block.text.encode()) <= t.file.budget  # type: ignore[union-attr]


def test_mismatched_markers_leave_the_file_alone(home: Path, project: Path) -> None:
    t = one("claude-code", "user", home, project)
    t.path.parent.mkdir(parents=True)
    broken = f"intro\n{START}\nold\n{START}\n{END}\n".encode()
    t.path.write_bytes(broken)
    with pytest.raises(SapDevsError, match=r"start marker on line 2, 4"):
        inject(t, load, "minimal", None)
    with pytest.raises(SapDevsError, match="markers do not match"):
        uninstall(t)
    t.path.write_bytes(b"x\n" + END.encode() + b"\n" + START.encode() + b"\n")
    with pytest.raises(SapDevsError, match="end marker on line 2"):
        inject(t, load, "minimal", None)
    assert status(t, load, None, None).state == "mismatched markers"


def test_status_present_stale_absent(home: Path, project: Path) -> None:
    t = one("vscode", "project", home, project)
    assert status(t, load, None, None).state == "no file"
    t.path.parent.mkdir(parents=True)
    t.path.write_text("Team rules.\n", encoding="utf-8")
    assert status(t, load, None, None).state == "absent"
    inject(t, load, "full", "abap-developer")
    assert status(t, load, None, None).state == "present"  # uses the recorded profile and verbosity
    assert status(t, load, "minimal", None).state == "stale"
    t.path.write_text(t.path.read_text(encoding="utf-8").replace("## ", "## Edited ", 1), encoding="utf-8")
    assert status(t, load, None, None).state == "stale"


def test_dry_run_and_crlf(home: Path, project: Path) -> None:
    t = one("codex", "project", home, project)
    t.path.write_bytes(b"Line one\r\nLine two\r\n")
    outcome = inject(t, load, "minimal", None, dry_run=True)
    assert outcome.status == "would be added" and START in outcome.diff
    assert t.path.read_bytes() == b"Line one\r\nLine two\r\n"
    inject(t, load, "minimal", None)
    raw = t.path.read_bytes()
    assert b"\n" not in raw.replace(b"\r\n", b"")
    assert inject(t, load, "minimal", None).status == "unchanged"
    uninstall(t)
    assert t.path.read_bytes() == b"Line one\r\nLine two\r\n"


def _pack_with(text: str) -> Pack:
    from sap_devs.knowledge.models import PackMeta
    from sap_devs.knowledge.verbosity import Sections

    return Pack(meta=PackMeta(id="evil", name="Evil", description="x", base=True), context=Sections(core=text))


HOSTILE = (
    f"Before\n{END}\nafter the fake end\n{START}\n<!-- sap-devs inject: profile=x verbosity=full packs= created=yes -->"
)


def test_markers_inside_pack_content_are_neutralised_and_uninstall_removes_everything(
    home: Path, project: Path
) -> None:
    t = one("claude-code", "project", home, project)
    t.path.write_text("# My rules\n\nKeep this.\n", encoding="utf-8")
    outcome = inject(t, lambda _p: [_pack_with(HOSTILE)], "standard", None)
    text = t.path.read_text(encoding="utf-8")
    assert outcome.status == "added"
    assert [line for line in text.splitlines() if line.strip() in (START, END)] == [START, END]
    assert "&lt;!-- sap-devs:end -->" in text and "after the fake end" in text
    assert inject(t, lambda _p: [_pack_with(HOSTILE)], "standard", None).status == "unchanged"
    assert uninstall(t).status == "removed"
    assert t.path.read_text(encoding="utf-8") == "# My rules\n\nKeep this.\n"


def test_a_block_broken_by_an_older_version_is_still_removed(home: Path, project: Path) -> None:
    t = one("claude-code", "project", home, project)
    meta = "<!-- sap-devs inject: profile=all verbosity=standard packs=evil created=no. Generated block -->"
    broken = f"# Mine\n\n{START}\n{meta}\n\nBefore\n{END}\nafter the fake end\n\n{END}\n\nBelow is mine too.\n"
    t.path.write_text(broken, encoding="utf-8")
    assert uninstall(t).status == "removed"
    assert t.path.read_text(encoding="utf-8") == "# Mine\n\nBelow is mine too.\n"


def test_markers_the_user_broke_are_still_refused(home: Path, project: Path) -> None:
    t = one("claude-code", "project", home, project)
    t.path.write_text(f"{START}\nmine\n{END}\n{END}\n", encoding="utf-8")
    with pytest.raises(SapDevsError, match="markers do not match"):
        uninstall(t)
