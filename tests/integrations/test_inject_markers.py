"""``inject`` and ``--uninstall`` with marker lines and files the way users leave them: one marker
deleted, a stray marker outside the block, a hand-written block without our header line, text edited
after the last inject. The user's text is never lost, a block is never doubled, and a file sap-devs
did not create is never deleted (mutants scripts/mutation.py found surviving in inject.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import clients
from sap_devs.integrations.inject import END, START, InjectTarget, inject, loader, status, targets, uninstall

load = loader()


def one(client_id: str, scope: str, home: Path, project: Path) -> InjectTarget:
    found, _ = targets([clients.by_id(client_id)], scope, home, project)  # type: ignore[arg-type]
    return found[0]


def _markers(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() in (START, END)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"# Mine\n\n{START}\nold block\n", "start marker on line 3, end marker on line none"),
        (f"# Mine\n\nold block\n{END}\n", "start marker on line none, end marker on line 4"),
        (f"{START}\n{START}\n{START}\nold\n", "start marker on line 1, 2, 3, end marker on line none"),
    ],
    ids=["end-deleted", "start-deleted", "starts-only"],
)
def test_a_lone_marker_is_refused_and_the_file_left_alone(home: Path, project: Path, text: str, message: str) -> None:
    t = one("claude-code", "project", home, project)
    t.path.write_text(text, encoding="utf-8")
    for run in (lambda: inject(t, load, "minimal", None), lambda: uninstall(t)):
        with pytest.raises(SapDevsError, match=message):
            run()
        assert t.path.read_text(encoding="utf-8") == text
    assert status(t, load, None, None).state == "mismatched markers"


def _ours(home: Path, project: Path) -> tuple[InjectTarget, str]:
    t = one("claude-code", "project", home, project)
    t.path.write_text("# Mine\n", encoding="utf-8")
    inject(t, load, "minimal", None)
    return t, t.path.read_text(encoding="utf-8")


def test_a_stray_end_marker_above_a_real_block_is_refused(home: Path, project: Path) -> None:
    t, text = _ours(home, project)
    edited = text.replace("# Mine\n", f"# Mine\n{END}\n", 1)
    t.path.write_text(edited, encoding="utf-8")
    with pytest.raises(SapDevsError, match="end marker on line 2, "):
        inject(t, load, "standard", None)
    with pytest.raises(SapDevsError, match="markers do not match"):
        uninstall(t)
    assert t.path.read_text(encoding="utf-8") == edited


def test_a_stray_start_marker_below_a_real_block_is_refused(home: Path, project: Path) -> None:
    t, text = _ours(home, project)
    edited = text + f"\n{START}\nmy notes\n"
    t.path.write_text(edited, encoding="utf-8")
    with pytest.raises(SapDevsError, match="markers do not match"):
        uninstall(t)
    with pytest.raises(SapDevsError, match="markers do not match"):
        inject(t, load, "standard", None)
    assert t.path.read_text(encoding="utf-8") == edited


def test_a_hand_written_block_without_our_header_is_replaced_and_its_file_kept(home: Path, project: Path) -> None:
    t = one("codex", "project", home, project)
    t.path.write_text(f"{START}\nPaste the SAP rules here.\n{END}\n", encoding="utf-8")
    assert inject(t, load, "minimal", None).status == "updated"
    text = t.path.read_text(encoding="utf-8")
    assert _markers(text) == [START, END] and "Paste the SAP rules" not in text
    assert "created=no" in text, "sap-devs did not create this file"
    t.path.write_text(f"{START}\nPaste the SAP rules here.\n{END}\n", encoding="utf-8")
    assert uninstall(t).status == "removed"
    assert t.path.exists() and t.path.read_text(encoding="utf-8") == ""


def test_text_without_a_final_line_break_is_kept_and_the_block_starts_on_its_own_line(
    home: Path, project: Path
) -> None:
    t = one("gemini-cli", "project", home, project)
    t.path.write_text("Use tabs.", encoding="utf-8")
    inject(t, load, "minimal", None)
    assert t.path.read_text(encoding="utf-8").startswith(f"Use tabs.\n\n{START}\n")
    empty = one("codex", "project", home, project)
    empty.path.write_text("", encoding="utf-8")
    inject(empty, load, "minimal", None)
    assert empty.path.read_text(encoding="utf-8").startswith(f"{START}\n"), "no blank line above the block"


@pytest.mark.parametrize("verbosity", ["minimal", "standard", "full"])
def test_status_uses_the_recorded_verbosity(home: Path, project: Path, verbosity: str) -> None:
    t = one("claude-code", "project", home, project)
    inject(t, load, verbosity, "cap-developer")  # type: ignore[arg-type]
    assert status(t, load, None, None).state == "present"
    again = inject(t, load, None, "cap-developer")  # the lean default is another block
    assert again.status == "updated" and status(t, load, None, None).state == "present"


def test_uninstall_where_there_is_nothing_to_remove(home: Path, project: Path) -> None:
    t = one("claude-code", "project", home, project)
    assert uninstall(t).status == "absent" and not t.path.exists()
    t.path.write_text("Mine\n", encoding="utf-8")
    assert uninstall(t, dry_run=True).status == "absent"
    assert t.path.read_text(encoding="utf-8") == "Mine\n"


def test_a_dry_run_uninstall_changes_nothing(home: Path, project: Path) -> None:
    t = one("cursor", "project", home, project)
    inject(t, load, "minimal", None)
    written = t.path.read_bytes()
    outcome = uninstall(t, dry_run=True)
    assert outcome.status == "would be removed" and START in outcome.diff
    assert t.path.read_bytes() == written
    # edited since, so the file is no longer as sap-devs left it: the other way to remove the block
    t.path.write_bytes(written + b"My own rule.\n")
    assert uninstall(t, dry_run=True).status == "would be removed"
    assert t.path.read_bytes() == written + b"My own rule.\n"


# Uninstall after the user touched the file: the block goes, and the file only if sap-devs created it
# and nothing of the user's is left in it (front matter sap-devs wrote does not count).


def test_a_created_file_edited_only_in_blank_lines_is_deleted(home: Path, project: Path) -> None:
    for client in ("cursor", "codex"):  # with and without front matter
        t = one(client, "project", home, project)
        assert inject(t, load, "minimal", None).status == "created"
        t.path.write_text(t.path.read_text(encoding="utf-8") + "\n\n", encoding="utf-8")
        assert uninstall(t).status == "file deleted" and not t.path.exists(), client


def test_a_created_file_with_the_users_own_rule_keeps_front_matter_and_rule(home: Path, project: Path) -> None:
    t = one("cursor", "project", home, project)
    inject(t, load, "minimal", None)
    text = t.path.read_text(encoding="utf-8")
    front = text[: text.index(START)]
    t.path.write_text(text + "\nMy own rule.\n", encoding="utf-8")
    assert uninstall(t).status == "removed"
    assert t.path.read_text(encoding="utf-8") == front.rstrip("\n") + "\n\nMy own rule.\n"


def test_a_file_the_user_had_is_kept_even_when_the_block_was_all_it_held(home: Path, project: Path) -> None:
    t = one("codex", "project", home, project)
    t.path.write_text("", encoding="utf-8")
    inject(t, load, "minimal", None)
    t.path.write_text(t.path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert uninstall(t).status == "removed"
    assert t.path.exists() and t.path.read_text(encoding="utf-8").strip() == ""


def test_a_block_an_older_version_broke_is_removed_below_a_long_preamble(home: Path, project: Path) -> None:
    """The recovery of a block whose pack text held marker lines compares line numbers, wherever the
    block sits in the file."""
    t = one("claude-code", "project", home, project)
    mine = "".join(f"- Team rule {n}.\n" for n in range(40))
    meta = "<!-- sap-devs inject: profile=all verbosity=standard packs=evil created=no. Generated block -->"
    t.path.write_text(f"{mine}\n{START}\n{meta}\n\nBefore\n{END}\nafter the fake end\n\n{END}\n", encoding="utf-8")
    assert uninstall(t).status == "removed"
    assert t.path.read_text(encoding="utf-8") == mine
