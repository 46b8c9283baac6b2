"""Codex reads ~/.codex/AGENTS.md whole (its 32 KiB limit is for the project's AGENTS.md files), so
inject at user scope neither shrinks nor drops packs for a limit Codex does not have, and says so."""

from __future__ import annotations

from pathlib import Path

from sap_devs.integrations import clients
from sap_devs.integrations.inject import END, inject, loader, status, targets

load = loader()


def test_the_global_agents_md_takes_a_full_block_after_the_users_own_rules(home: Path, project: Path) -> None:
    found, _ = targets([clients.by_id("codex")], "user", home, project)
    t = found[0]
    assert t.path == home / ".codex" / "AGENTS.md"
    mine = "".join(f"- Personal rule {n}: prefer small functions in module {n}.\n" for n in range(600))
    assert len(mine.encode()) > 30_000
    t.path.parent.mkdir(parents=True)
    t.path.write_text(mine, encoding="utf-8")
    block = inject(t, load, "full", "cap-developer").block
    raw = t.path.read_bytes()
    assert block is not None and not block.cut and not block.shrunk and not block.dropped
    assert len(raw) > 32_768 * 2 and raw.startswith(mine.encode()) and raw.rstrip().endswith(END.encode())
    row = status(t, load, None, None)
    assert row.state == "present" and f"file {len(raw):,} bytes, which the client reads whole" in row.detail


def test_the_project_agents_md_keeps_codexs_limit(home: Path, project: Path) -> None:
    found, _ = targets([clients.by_id("codex")], "project", home, project)
    block = inject(found[0], load, "full", "cap-developer").block
    assert block is not None and block.shrunk and len(found[0].path.read_bytes()) <= 32_768
