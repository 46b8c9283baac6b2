"""Trusting a project's pack folder: any change needs trust again, a broken store trusts nothing,
oversized folders are refused (mutants scripts/mutation.py found surviving in knowledge/trust.py)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.knowledge import trust


def _folder(root: Path) -> Path:
    folder = root / ".sap-devs"
    (folder / "packs" / "demo").mkdir(parents=True)
    (folder / "packs" / "demo" / "tools.yaml").write_text("- id: demo\n", encoding="utf-8")
    (folder / "packs" / "demo" / "pack.yaml").write_text("id: demo\n", encoding="utf-8")
    return folder


def test_trusted_until_any_file_changes_is_added_renamed_or_removed(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    assert not trust.is_trusted(folder)
    entry = trust.trust(folder)
    assert entry.files == 2 and entry.folder == str(folder.resolve()) and len(entry.digest) == 64
    assert trust.is_trusted(folder)
    tools = folder / "packs" / "demo" / "tools.yaml"
    tools.write_text("- id: demo\n  command: rm -rf ~\n", encoding="utf-8")
    assert not trust.is_trusted(folder)
    trust.trust(folder)
    tools.rename(folder / "packs" / "demo" / "tools.yml")
    assert not trust.is_trusted(folder), "a rename changes the digest"
    trust.trust(folder)
    (folder / "packs" / "demo" / "tools.yml").unlink()
    assert not trust.is_trusted(folder)
    trust.trust(folder)
    (folder / "packs" / "demo" / "new.yaml").write_text("", encoding="utf-8")
    assert not trust.is_trusted(folder), "even an empty new file"


def test_the_digest_separates_names_from_contents(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("yz", encoding="utf-8")
    (b / "xy").write_text("z", encoding="utf-8")
    assert trust.digest(a)[0] != trust.digest(b)[0]
    (b / "xy").unlink()
    (b / "x").write_text("yz", encoding="utf-8")
    assert trust.digest(a) == trust.digest(b), "same names and bytes, same digest, wherever the folder is"


def test_a_symlink_counts_by_its_target_and_differs_from_a_file_with_that_text(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "link").symlink_to("/etc/passwd")
    (b / "link").write_text("/etc/passwd", encoding="utf-8")
    assert trust.digest(a)[1] == trust.digest(b)[1] == 1
    assert trust.digest(a)[0] != trust.digest(b)[0]


def test_a_folder_with_too_many_files_is_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(trust, "MAX_FILES", 3)
    folder = tmp_path / "big"
    folder.mkdir()
    for i in range(3):
        (folder / f"f{i}").write_text("x", encoding="utf-8")
    assert trust.digest(folder)[1] == 3, "exactly the limit is fine"
    (folder / "f3").write_text("x", encoding="utf-8")
    with pytest.raises(SapDevsError, match="more than 3 entries"):
        trust.digest(folder)


def test_a_folder_with_too_many_bytes_is_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(trust, "MAX_BYTES", 10)
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "a").write_bytes(b"x" * 10)
    assert trust.digest(folder)[1] == 1, "exactly the limit is fine"
    (folder / "b").write_bytes(b"y")
    with pytest.raises(SapDevsError, match="that is not a pack folder"):
        trust.digest(folder)
    assert not trust.is_trusted(folder)


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '"text"'])
def test_an_unreadable_or_misshapen_store_trusts_nothing(tmp_path: Path, caplog, content: str) -> None:
    folder = _folder(tmp_path)
    trust.trust(folder)
    trust.store_path().write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert not trust.is_trusted(folder)
        assert trust.entries() == []
    trust.trust(folder)
    assert trust.is_trusted(folder), "trusting again repairs the store"


def test_an_entry_that_is_not_a_record_trusts_nothing(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    digest, _ = trust.digest(folder)
    trust.store_path().parent.mkdir(parents=True, exist_ok=True)
    trust.store_path().write_text(f'{{"{folder.resolve()}": "{digest}"}}', encoding="utf-8")
    assert not trust.is_trusted(folder)
    assert trust.entries() == []


def test_revoke_and_entries_report_trusted_changed_and_missing(tmp_path: Path) -> None:
    kept, changed, gone = (_folder(tmp_path / n) for n in ("kept", "changed", "gone"))
    for f in (kept, changed, gone):
        trust.trust(f)
    (changed / "packs" / "demo" / "pack.yaml").write_text("id: other\n", encoding="utf-8")
    for p in sorted(gone.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    gone.rmdir()
    states = {Path(e.folder).parent.name: (state, e.files) for e, state in trust.entries()}
    assert states == {"kept": ("trusted", 2), "changed": ("changed", 2), "gone": ("missing", 2)}
    assert trust.revoke(kept) is True
    assert trust.revoke(kept) is False
    assert not trust.is_trusted(kept)
    assert {Path(e.folder).parent.name for e, _ in trust.entries()} == {"changed", "gone"}


def test_the_folder_to_trust(tmp_path: Path) -> None:
    project = tmp_path / "project"
    folder = _folder(project)
    assert trust.pack_folder(project) == folder.resolve()
    layer = tmp_path / "company"
    (layer / "packs").mkdir(parents=True)
    assert trust.pack_folder(layer) == layer.resolve()
    profiles_only = tmp_path / "profiles-only"
    (profiles_only / "profiles").mkdir(parents=True)
    assert trust.pack_folder(profiles_only) == profiles_only.resolve()
    with pytest.raises(SapDevsError, match="nothing to trust"):
        trust.pack_folder(tmp_path / "profiles-only" / "profiles")
    with pytest.raises(SapDevsError, match="is not a folder"):
        trust.pack_folder(tmp_path / "missing")


def test_a_trusted_folder_that_grows_past_the_limit_is_no_longer_trusted(tmp_path: Path, monkeypatch, caplog) -> None:
    folder = _folder(tmp_path)
    trust.trust(folder)
    monkeypatch.setattr(trust, "MAX_FILES", 4)
    for i in range(3):
        (folder / f"extra{i}").write_text("", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert not trust.is_trusted(folder)
    assert "more than 4 entries" in caplog.text


def test_unreadable_folders_and_files_are_refused_not_skipped(tmp_path: Path, monkeypatch) -> None:
    folder = _folder(tmp_path)
    real_scandir = trust.os.scandir

    def scandir(path):
        if Path(path).name == "demo":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(trust.os, "scandir", scandir)
    with pytest.raises(SapDevsError, match=r"Cannot read .*demo: Permission denied"):
        trust.digest(folder)
    monkeypatch.setattr(trust.os, "scandir", real_scandir)
    real_open = trust.os.open

    def open_file(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(path).name == "tools.yaml":
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    # the folder is read once, file by file, without following links (os.open with O_NOFOLLOW)
    monkeypatch.setattr(trust.os, "open", open_file)
    with pytest.raises(SapDevsError, match=r"Cannot read .*tools.yaml: Permission denied"):
        trust.digest(folder)


def test_the_digest_format_is_stable_so_an_upgrade_keeps_trust(tmp_path: Path) -> None:
    folder = tmp_path / "pinned"
    (folder / "packs").mkdir(parents=True)
    (folder / "packs" / "tools.yaml").write_bytes(b"- id: x\n")
    (folder / "link").symlink_to("packs")
    # sha256 over, per entry in path order: path, NUL, L (link) or F (file), 8-byte big-endian length, bytes
    # (computed by hand from that description); a change to the format would untrust every folder
    assert trust.digest(folder) == ("ed23531fbaa8a8815bd0302d3b18e9e8d178d6d5eb18be0eb20de18547f39712", 2)


def test_an_entry_without_a_file_count_is_listed_with_zero(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    digest, _ = trust.digest(folder)
    trust.store_path().parent.mkdir(parents=True, exist_ok=True)
    trust.store_path().write_text(f'{{"{folder.resolve()}": {{"digest": "{digest}"}}}}', encoding="utf-8")
    [(entry, state)] = trust.entries()
    assert (entry.files, state) == (0, "trusted")


@pytest.mark.parametrize("files", ["null", '""', "0"])
def test_a_hand_edited_file_count_is_listed_as_zero(tmp_path: Path, files: str) -> None:
    folder = _folder(tmp_path)
    digest, _ = trust.digest(folder)
    trust.store_path().parent.mkdir(parents=True, exist_ok=True)
    trust.store_path().write_text(
        f'{{"{folder.resolve()}": {{"digest": "{digest}", "files": {files}}}}}', encoding="utf-8"
    )
    [(entry, state)] = trust.entries()
    assert (entry.files, state) == (0, "trusted")


def test_the_documented_limits_hold_exactly(tmp_path: Path) -> None:
    """The refusals name 5,000 entries and 64 MB: a folder at the limits is trusted, one past either is not."""
    many = tmp_path / "many"
    many.mkdir()
    for i in range(5_000):
        (many / f"f{i}").touch()
    assert trust.digest(many)[1] == 5_000
    (many / "one-more").touch()
    with pytest.raises(SapDevsError, match="more than 5,000 entries"):
        trust.digest(many)

    big = tmp_path / "big"
    big.mkdir()
    with (big / "data.bin").open("wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: no disk used, read back as zeros
    assert trust.digest(big)[1] == 1
    with (big / "data.bin").open("r+b") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)
    with pytest.raises(SapDevsError, match="more than 64 MB"):
        trust.digest(big)
