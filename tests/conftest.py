"""Shared fixtures: every test runs with its own config, cache and data folders, never the real ones."""

from __future__ import annotations

import socket
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from sap_devs.core import paths
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.mcp.framework import ToolContext


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    for var, sub in (("SAP_DEVS_CONFIG_DIR", "config"), ("SAP_DEVS_CACHE_DIR", "cache"), ("SAP_DEVS_DATA_DIR", "data")):
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.delenv("SAP_DEVS_PROFILE", raising=False)
    monkeypatch.delenv("SAP_SYSTEM_TYPE", raising=False)
    return home


_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: object) -> object:
    host = address[0] if isinstance(address, tuple) else None
    if host is not None and host not in ("127.0.0.1", "::1", "localhost"):
        raise OSError(f"test tried to reach {address!r}: tests never touch the internet")
    return _real_connect(self, address)  # type: ignore[arg-type]


_real_getaddrinfo = socket.getaddrinfo


def _resolve_loopback_only(host: object, *args: object, **kwargs: object) -> object:
    if host not in (None, "127.0.0.1", "::1", "localhost", b"127.0.0.1", b"localhost"):
        raise socket.gaierror(f"test tried to resolve {host!r}: tests never touch the internet")
    return _real_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Name lookups and connections to anything but loopback fail loudly inside the test process."""
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)
    monkeypatch.setattr(socket, "getaddrinfo", _resolve_loopback_only)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def write_files(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


PackFactory = Callable[..., Path]


@pytest.fixture
def make_pack(tmp_path: Path) -> PackFactory:
    """Write a pack folder ``<layer>/packs/<id>/`` with the given files; returns the layer root."""

    def factory(pack_id: str, files: dict[str, str] | None = None, *, layer: str = "layer1", meta: str = "") -> Path:
        root = tmp_path / layer
        pack_yaml = (
            f"id: {pack_id}\nname: {pack_id.upper()} pack\ndescription: Test pack {pack_id}\ntags: [{pack_id}]\n"
        )
        write_files(root / "packs" / pack_id, {"pack.yaml": pack_yaml + textwrap.dedent(meta), **(files or {})})
        return root

    return factory


def bundled_layer() -> Layer:
    return Layer("bundled", paths.bundled_root(), strict=True)


@pytest.fixture
def bundled_ctx(tmp_path: Path) -> ToolContext:
    """A context over the bundled packs only, with an empty working folder."""
    return ToolContext(cwd=tmp_path, layers=[bundled_layer()])


def ctx_for(*roots: Path, cwd: Path | None = None, profile: str | None = None) -> ToolContext:
    layers = [Layer(f"layer{i}", root) for i, root in enumerate(roots)]
    return ToolContext(cwd=cwd or roots[0], layers=layers, profile_id=profile)
