"""Where content layers live on disk. Kept free of pydantic and YAML so server start-up stays cheap."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sap_devs.core import paths

BUILTIN_PROFILES = ("all",)


@dataclass(frozen=True)
class Layer:
    name: str
    root: Path
    strict: bool = False  # the bundled layer must be valid; others degrade to a reported problem
    needs_trust: bool = False
    """Someone else's folder (a cloned project, a company feed): content only until ``sap-devs trust``."""

    @property
    def packs_dir(self) -> Path:
        return self.root / "packs"

    @property
    def profiles_dir(self) -> Path:
        return self.root / "profiles"


def default_layers(cwd: Path | None = None) -> list[Layer]:
    layers = [
        Layer("bundled", paths.bundled_root(), strict=True),
        # a cache folder any process of the user's can fill: content only until trusted, like the company one
        Layer("official", paths.cache_dir() / "official", needs_trust=True),
        Layer("company", paths.cache_dir() / "company", needs_trust=True),
        Layer("user", paths.data_dir()),
    ]
    if cwd is not None:
        layers.append(Layer("project", cwd / ".sap-devs", needs_trust=True))
    return layers


def available_profiles(layers: list[Layer]) -> list[str]:
    """Profile ids on disk, without loading any pack (cheap enough for start-up)."""
    ids = set(BUILTIN_PROFILES)
    for layer in layers:
        if layer.profiles_dir.is_dir():
            ids.update(p.stem for p in layer.profiles_dir.glob("*.yaml"))
    return sorted(ids)


__all__ = ["BUILTIN_PROFILES", "Layer", "available_profiles", "default_layers"]
