"""``atomic_write_text`` at the edges of its work: the moment the new text is forced to disk, an
interrupt that lands after the file was already replaced, and the permissions of files other
threads create while it runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sap_devs.core import fs


def test_what_is_forced_to_disk_is_the_whole_new_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync only saves what the process has handed to the OS: text still in Python's buffer would be
    lost by a power cut after the rename, leaving an empty config file where the old one was."""
    target = tmp_path / "settings.json"
    target.write_text("{}", encoding="utf-8")
    text = '{"mcpServers": {"sap-devs": {"command": "sap-devs"}}}'
    on_disk: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        (temp,) = [p for p in tmp_path.iterdir() if p != target]
        on_disk.append(temp.read_text(encoding="utf-8"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    fs.atomic_write_text(target, text)
    assert on_disk == [text]
    assert target.read_text(encoding="utf-8") == text


def test_an_interrupt_just_after_the_replace_is_reported_as_the_interrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C can arrive once the rename is done but before the write returns: the user sees the
    interrupt, not an error about a temporary file that no longer exists, and the new text stays."""
    target = tmp_path / "config.yaml"
    target.write_text("old: true\n", encoding="utf-8")
    real_replace = os.replace

    def replace_then_interrupted(src: str, dst: Path) -> None:
        real_replace(src, dst)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", replace_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        fs.atomic_write_text(target, "new: true\n")
    assert target.read_text(encoding="utf-8") == "new: true\n"
    assert [p.name for p in tmp_path.iterdir()] == ["config.yaml"]


def test_files_other_threads_create_during_a_write_get_the_usual_permissions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The umask belongs to the whole process. A write that reads it by setting it to 0 and back would
    hand a file another thread creates in between (a cache entry, a log) world-writable permissions,
    and two such writes at once could leave the umask at 0 for good."""
    usual = 0o666 & ~_current_umask()
    other = tmp_path / "other-thread.log"
    real_umask = os.umask

    def umask(mask: int) -> int:
        previous = real_umask(mask)
        other.touch()  # another thread creates a file at this very moment
        return previous

    monkeypatch.setattr(os, "umask", umask)
    fs.atomic_write_text(tmp_path / "new.json", "{}")
    monkeypatch.undo()
    other.touch()  # the other thread's file, if the write gave it no such moment
    assert other.stat().st_mode & 0o777 == usual
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == usual


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
