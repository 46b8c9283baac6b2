"""The loaded knowledge an MCP session or CLI command works with: ordered packs for one profile."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sap_devs.core.errors import SapDevsError
from sap_devs.knowledge.layer_paths import Layer, default_layers
from sap_devs.knowledge.layers import LoadedContent, load_layers, order_packs, resolve_profile
from sap_devs.knowledge.models import Profile
from sap_devs.knowledge.packs import Pack

T = TypeVar("T")


@dataclass
class KnowledgeBase:
    packs: list[Pack]
    profile: Profile | None
    problems: list[str]
    profiles: dict[str, Profile]
    ignored_files: list[str] = field(default_factory=list)
    """Command-bearing pack files (tools.yaml, mcp.yaml) of untrusted folders, which were not loaded."""
    left_out: list[str] = field(default_factory=list)
    """Untrusted folders not read at all (``trusted_only``)."""
    trusted_layers: dict[str, tuple[Path, str]] = field(default_factory=dict)
    """Layers that needed trust and had it when loaded: name -> (folder, digest)."""
    _records: dict[str, list[tuple[str, Any]]] = field(default_factory=dict, repr=False)

    @classmethod
    def load(
        cls,
        profile_id: str | None = None,
        *,
        cwd: Path | None = None,
        layers: list[Layer] | None = None,
        trusted_only: bool = False,
    ) -> KnowledgeBase:
        """With ``trusted_only``, folders that need trust and lack it (an untrusted project's, company's
        or cache's) are left out whole, not just their commands."""
        content: LoadedContent = load_layers(
            layers if layers is not None else default_layers(cwd), trusted_only=trusted_only
        )
        profile = resolve_profile(content, profile_id)
        return cls(
            packs=order_packs(content.packs, profile),
            profile=profile,
            problems=content.problems,
            profiles=content.profiles,
            ignored_files=content.ignored_files,
            left_out=content.left_out,
            trusted_layers=content.trusted,
        )

    def trust_lapsed(self, item: Any) -> bool:
        """True when ``item`` (a tool check, a server) comes from a folder that was trusted when this
        knowledge base was loaded and is not trusted with that digest any more (revoked, or trusted
        again as it is now): a long-running server must not run what the user took back."""
        origin = getattr(item, "_origin", None)
        if not origin or origin[0] not in self.trusted_layers:
            return False
        from sap_devs.knowledge import trust

        folder, digest = self.trusted_layers[origin[0]]
        return trust.recorded(folder) != digest

    @property
    def pack_ids(self) -> list[str]:
        return [p.id for p in self.packs]

    def pack(self, pack_id: str) -> Pack:
        for pack in self.packs:
            if pack.id == pack_id:
                return pack
        raise SapDevsError(
            f"Pack {pack_id!r} not found.",
            hint=f"Valid pack ids: {', '.join(self.pack_ids)}. Call list_packs for descriptions.",
        )

    def selected(self, pack_id: str | None) -> list[Pack]:
        return [self.pack(pack_id)] if pack_id else list(self.packs)

    def records(self, attr: str) -> list[tuple[str, Any]]:
        """Every item of one kind across packs as (pack id, item); the same list object on every call,
        so search indexes built over it are reused."""
        if attr not in self._records:
            self._records[attr] = [(pack.id, item) for pack in self.packs for item in getattr(pack, attr)]
        return self._records[attr]

    def items(self, attr: str, pack_id: str | None = None) -> Iterator[tuple[Pack, T]]:
        """Every item of one kind (``resources``, ``known_errors`` ...) with the pack it came from."""
        for pack in self.selected(pack_id):
            for item in getattr(pack, attr):
                yield pack, item
