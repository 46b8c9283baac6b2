"""Every integration test gets its own home and project folder; no real client config is ever read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sap_devs.integrations import clients


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("SAP_DEVS_HOME", str(folder))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("APPDATA", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    # No client counts as installed unless a test says so (the test machine may have `code` or `claude`).
    monkeypatch.setattr(clients, "which", lambda name: None)
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def executable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in sap-devs executable that exists on disk."""
    exe = tmp_path / "bin" / "sap-devs"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\n", encoding="utf-8")
    exe.chmod(0o755)
    monkeypatch.setenv("SAP_DEVS_EXECUTABLE", str(exe))
    return exe


@pytest.fixture
def env(tmp_path: Path, home: Path, executable: Path) -> dict[str, str]:
    empty_path = tmp_path / "empty-path"
    empty_path.mkdir()
    result = {k: v for k, v in os.environ.items() if not k.startswith(("SAP_DEVS_", "XDG_"))}
    result.update(
        SAP_DEVS_HOME=str(home),
        SAP_DEVS_EXECUTABLE=str(executable),
        SAP_DEVS_CONFIG_DIR=str(tmp_path / "config"),
        SAP_DEVS_CACHE_DIR=str(tmp_path / "cache"),
        SAP_DEVS_DATA_DIR=str(tmp_path / "data"),
        PATH=str(empty_path),  # no client executable is "installed"
    )
    return result
