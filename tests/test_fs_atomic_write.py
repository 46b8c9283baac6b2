"""``atomic_write_text`` at the two edges of its work: the moment the new text is forced to disk,
and an interrupt that lands after the file was already replaced."""

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
