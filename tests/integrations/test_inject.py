"""``inject``: the marked block in the clients' instruction files, with the bundled packs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import clients
from sap_devs.integrations.inject import (
    END,
    START,
    InjectTarget,
    Selection,
    describe,
    hidden,
    inject,
    loader,
    render_block,
    selection,
    status,
    targets,
    uninstall,
)
from sap_devs.knowledge.packs import Pack

load = loader()


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


def test_budget_shrinks_verbosity_then_drops_packs_that_are_not_required() -> None:
    packs = load(None).packs
    full = render_block(packs, "standard", 10**6, profile=None, created=False)
    assert full.dropped == [] and full.shrunk == [] and full.packs == [p.id for p in packs]
    small = render_block(packs, "standard", 12_000, profile=None, created=False)
    assert len(small.text.encode()) <= 12_000 and not small.cut
    assert small.packs[0] == "base" and small.packs == full.packs[: len(small.packs)]
    assert small.dropped == full.packs[len(small.packs) :]
    # every pack went down to minimal before any was left out
    assert {s.split()[0] for s in small.shrunk} == set(full.packs)
    tiny = render_block(packs, "full", 2_000, profile=None, created=False)
    assert tiny.cut and set(tiny.dropped) >= {"cap", "abap"}  # cut, and says so
    assert len(tiny.text.encode()) <= 2_000 and tiny.text.endswith(END) and "Cut here" in tiny.text
    with pytest.raises(SapDevsError, match="No room"):
        render_block(packs, "full", 100, profile=None, created=False)


def test_full_verbosity_adds_known_errors_table(home: Path, project: Path) -> None:
    t = one("gemini-cli", "project", home, project)
    inject(t, load, "full", "cap-developer")
    text = t.path.read_text(encoding="utf-8")
    assert "## Known SAP errors" in text and "| Error message | Cause | Fix |" in text
    assert len(t.path.read_text(encoding="utf-8")) <= t.file.budget  # type: ignore[union-attr]


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
    outcome = inject(t, lambda _p: Selection([_pack_with(HOSTILE)], frozenset({"evil"})), "standard", None)
    text = t.path.read_text(encoding="utf-8")
    assert outcome.status == "added"
    assert [line for line in text.splitlines() if line.strip() in (START, END)] == [START, END]
    assert "&lt;!-- sap-devs:end -->" in text and "after the fake end" in text
    assert (
        inject(t, lambda _p: Selection([_pack_with(HOSTILE)], frozenset({"evil"})), "standard", None).status
        == "unchanged"
    )
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


PROFILES = ["cap-developer", "abap-developer", "btp-developer", "fiori-developer", "integration-developer", None]


def _own(profile: str | None) -> set[str]:
    return set(load(profile).required)


@pytest.mark.parametrize("profile", PROFILES)
def test_the_default_block_is_lean_and_holds_the_profiles_packs(home: Path, project: Path, profile: str | None) -> None:
    """Default (no --verbosity): rules, which tool to call when, the profile's packs at minimal; <= 3,000
    tokens estimated as characters / 4."""
    for client in ("claude-code", "codex", "gemini-cli", "windsurf", "cursor", "vscode", "continue"):
        t = one(client, "project", home, project)
        block = inject(t, load, None, profile).block
        assert block is not None and not block.cut and not block.shrunk
        assert len(block.text) / 4 <= 3_000, (client, profile, len(block.text))
        assert _own(profile) <= set(block.packs)
        assert "## Which sap-devs tool to call when" in block.text and "`get_known_errors`" in block.text
        assert "verbosity=default" in block.text
        assert status(t, load, None, None).state == "present"


def test_the_budget_counts_the_users_text_against_the_clients_limit(home: Path, project: Path) -> None:
    """19 KB of the user's own rules in AGENTS.md: Codex reads 32 KiB of the file, so the whole file
    stays within it, end marker included, and the profile's packs are all there."""
    t = one("codex", "project", home, project)
    mine = "".join(f"- Team rule {n}: keep the naming conventions of module {n} consistent.\n" for n in range(300))
    assert len(mine.encode()) > 19_000
    t.path.write_text(mine, encoding="utf-8")
    block = inject(t, load, "full", "abap-developer").block
    raw = t.path.read_bytes()
    assert len(raw) <= 32_768 and raw.rstrip().endswith(END.encode()) and raw.startswith(mine.encode())
    assert block is not None and not block.cut and {"base", "abap", "btp", "cap"} <= set(block.packs)
    assert block.shrunk and status(t, load, None, None).state == "present"
    # Claude Code: 40,000 characters (not bytes) for CLAUDE.md, text outside the block included.
    c = one("claude-code", "project", home, project)
    c.path.write_text("Ünïcödé rule.\n" * 2_000, encoding="utf-8")
    inject(c, load, "full", None)
    assert len(c.path.read_text(encoding="utf-8")) <= 40_000 < len(c.path.read_bytes())


def test_more_verbosity_never_gives_fewer_packs(home: Path, project: Path) -> None:
    """Windsurf reads 12,000 characters: standard shrinks the packs to minimal before leaving any out."""
    t = one("windsurf", "project", home, project)
    for profile in ("abap-developer", "btp-developer", "fiori-developer"):
        blocks = {v: inject(t, load, v, profile).block for v in ("minimal", "standard", "full")}
        packs = {v: b.packs for v, b in blocks.items() if b is not None}
        sizes = {v: len(b.text) for v, b in blocks.items() if b is not None}
        assert sizes["minimal"] <= sizes["standard"] <= sizes["full"] + 50, (profile, sizes)  # meta line differs
        assert set(packs["minimal"]) <= set(packs["standard"]) == set(packs["full"]), (profile, packs)
        assert _own(profile) <= set(packs["full"])


def test_a_block_that_cannot_fit_is_cut_and_status_says_so(home: Path, project: Path) -> None:
    t = one("codex", "project", home, project)
    mine = "x" * 80 + "\n"
    t.path.write_text(mine * 380, encoding="utf-8")  # 30,780 bytes of the 32,768
    block = inject(t, load, "minimal", "abap-developer").block
    raw = t.path.read_bytes()
    assert block is not None and block.cut and len(raw) <= 32_768 and raw.rstrip().endswith(END.encode())
    row = status(t, load, None, None)
    assert row.state == "cut" and "CUT" in row.detail
    t.path.write_text(mine * 409, encoding="utf-8")  # no room left at all: the file is not touched
    with pytest.raises(SapDevsError, match="No room"):
        inject(t, load, "minimal", "abap-developer")
    assert t.path.read_text(encoding="utf-8") == mine * 409


def test_selection_keeps_base_and_the_profiles_packs() -> None:
    packs = load(None).packs
    sel = selection(packs, ["cap", "btp"])
    assert [p.id for p in sel.packs] == [p.id for p in packs if p.id in ("base", "cap", "btp")]
    assert sel.required == {"base", "cap", "btp"}
    assert selection(packs, None).required == {"base"}


def test_the_profile_is_detected_from_the_project(project: Path) -> None:
    from sap_devs.integrations.inject import detect_profile

    assert detect_profile(project) == (None, [])
    (project / "package.json").write_text('{"dependencies": {"@sap/cds": "^9"}}', encoding="utf-8")
    assert detect_profile(project)[0] == "cap-developer"
    (project / "package.json").unlink()
    (project / "mta.yaml").write_text("ID: x\n", encoding="utf-8")
    assert detect_profile(project)[0] == "btp-developer"


def _team_rules(size: int) -> str:
    rules = "".join(f"- Team rule {n}: keep the naming conventions of module {n} consistent.\n" for n in range(999))
    return rules[:size].rsplit("\n", 1)[0] + "\n"


def test_codex_budget_counts_the_agents_md_files_above_the_project(home: Path, project: Path) -> None:
    """Codex shares its 32 KiB among the AGENTS.md files from the repository root down: 19 KB of team
    rules at the root leave the project's file the rest, and the block still ends with its marker."""
    root = project.parent
    (root / ".git").mkdir()
    (home / ".codex").mkdir()
    (home / ".codex" / "AGENTS.md").write_text("g" * 30_000, encoding="utf-8")  # the global file is not counted
    t = one("codex", "project", home, project)
    alone = inject(t, load, "full", "abap-developer").block
    alone_size = len(t.path.read_bytes())
    assert alone is not None and alone_size > 20_000
    team = _team_rules(19_500)
    (root / "AGENTS.md").write_text(team, encoding="utf-8")
    block = inject(t, load, "full", "abap-developer").block
    raw = t.path.read_bytes()
    assert block is not None and not block.cut and {"base", "abap"} <= set(block.packs)
    assert len(team.encode()) + len(raw) <= 32_768 and len(raw) < alone_size  # shrunk to fit what is left
    assert raw.rstrip().endswith(END.encode()) and block.shrunk
    assert block.size == len(team.encode()) + len(raw) and str(root / "AGENTS.md") in describe(block)
    assert status(t, load, None, None).state == "present"
    # An AGENTS.override.md is what Codex reads in that folder instead, so it is the one counted.
    (root / "AGENTS.override.md").write_text("x\n" * 100, encoding="utf-8")
    assert inject(t, load, "full", "abap-developer").block.size == 200 + len(t.path.read_bytes())  # type: ignore[union-attr]


def test_codex_limit_comes_from_its_config_and_no_room_names_the_other_files(home: Path, project: Path) -> None:
    root = project.parent
    (root / ".git").mkdir()
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("project_doc_max_bytes = 16384\n", encoding="utf-8")
    t = one("codex", "project", home, project)
    block = inject(t, load, "full", "abap-developer").block
    assert block is not None and block.limit == 16_384 and len(t.path.read_bytes()) <= 16_384
    t.path.unlink()
    (root / "AGENTS.md").write_text(_team_rules(16_300), encoding="utf-8")
    with pytest.raises(SapDevsError, match="No room") as err:
        inject(t, load, None, "abap-developer")
    assert str(root / "AGENTS.md") in str(err.value) and not t.path.exists()


def test_codex_override_files_that_hide_the_block_are_named(home: Path, project: Path) -> None:
    t = one("codex", "project", home, project)
    assert hidden(t, home) is None
    (project / "AGENTS.override.md").write_text("", encoding="utf-8")  # even empty, Codex reads it instead
    assert "AGENTS.override.md instead of" in (hidden(t, home) or "")
    user = one("codex", "user", home, project)
    (home / ".codex").mkdir()
    (home / ".codex" / "AGENTS.override.md").write_text("", encoding="utf-8")  # empty: Codex skips it
    assert hidden(user, home) is None
    (home / ".codex" / "AGENTS.override.md").write_text("My global rules\n", encoding="utf-8")
    assert str(home / ".codex" / "AGENTS.override.md") in (hidden(user, home) or "")
    assert hidden(one("claude-code", "project", home, project), home) is None
