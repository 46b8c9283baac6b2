"""Content layers (bundled, official cache, company cache, user data, project) and how they stack."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.core.errors import ContentError, SapDevsError
from sap_devs.knowledge.layer_paths import BUILTIN_PROFILES, Layer
from sap_devs.knowledge.models import Profile
from sap_devs.knowledge.packs import Pack, load_pack, merge_additive
from sap_devs.knowledge.yamlio import read_yaml, validate_mapping

log = logging.getLogger(__name__)


@dataclass
class LoadedContent:
    packs: dict[str, Pack] = field(default_factory=dict)
    profiles: dict[str, Profile] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    ignored_files: list[str] = field(default_factory=list)
    """tools.yaml / mcp.yaml files of untrusted layers, which were not loaded."""


def _pack_folders(layer: Layer) -> list[Path]:
    if not layer.packs_dir.is_dir():
        return []
    return sorted(p for p in layer.packs_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def _report(out: LoadedContent, message: str) -> None:
    out.problems.append(message)
    log.warning("%s", message)


def _trusted(layer: Layer, folders: list[Path]) -> bool:
    if not layer.needs_trust or not folders:
        return True
    from sap_devs.knowledge import trust

    return trust.is_trusted(layer.root)


def load_layers(layers: list[Layer]) -> LoadedContent:
    from sap_devs.knowledge.trust import EXECUTABLE_FILES

    out = LoadedContent()
    for layer in layers:
        folders = _pack_folders(layer)
        trusted = _trusted(layer, folders)
        for folder in folders:
            ignored = [name for name in EXECUTABLE_FILES if not trusted and (folder / name).is_file()]
            try:
                pack = load_pack(folder, layer=layer.name, skip=frozenset(ignored))
            except ContentError as exc:
                if layer.strict:
                    raise
                _report(out, f"{exc} (pack {folder.name!r} from the {layer.name} layer was skipped)")
                continue
            for name in ignored:
                out.ignored_files.append(str(folder / name))
                _report(
                    out,
                    f"{folder / name}: ignored, because the {layer.name} folder {layer.root} is not trusted "
                    f"(its commands would run on this machine). Review it, then run: sap-devs trust {layer.root.parent}",
                )
            earlier = out.packs.get(pack.id)
            if earlier is not None and not trusted:
                kept: list[str] = []
                out.packs[pack.id] = merge_additive(earlier, pack, kept=kept)
                if kept:
                    _report(
                        out,
                        f"pack {pack.id!r} in {folder}: {', '.join(sorted(kept)[:10])}"
                        f"{' …' if len(kept) > 10 else ''} already defined by the {earlier.layer} layer; "
                        f"the {layer.name} folder is not trusted, so those entries were not replaced.",
                    )
            elif pack.meta.additive and earlier is not None:
                out.packs[pack.id] = merge_additive(earlier, pack)
            else:
                if pack.meta.additive:
                    pack.meta = pack.meta.model_copy(update={"additive": False})
                out.packs[pack.id] = pack
        if layer.profiles_dir.is_dir():
            for path in sorted(layer.profiles_dir.glob("*.yaml")):
                try:
                    profile = validate_mapping(Profile, read_yaml(path), path)
                    if profile.id != path.stem:
                        raise ContentError(str(path), f"field 'id': {profile.id!r} must match the file name")
                except ContentError as exc:
                    if layer.strict:
                        raise
                    _report(out, f"{exc} (profile skipped)")
                    continue
                if profile.id in BUILTIN_PROFILES:
                    out.problems.append(f"{path}: profile id {profile.id!r} is reserved and was ignored")
                    continue
                out.profiles[profile.id] = profile
    return out


def order_packs(packs: dict[str, Pack], profile: Profile | None) -> list[Pack]:
    """Base packs first, then by the profile's weight (else the pack's), then by id for a stable order."""
    weights = {p.id: p.weight for p in profile.packs} if profile else {}

    def key(pack: Pack) -> tuple[int, int, str]:
        weight = weights.get(pack.id) or pack.meta.weight
        return (0 if pack.meta.base else 1, -weight, pack.id)

    return sorted(packs.values(), key=key)


def resolve_profile(content: LoadedContent, profile_id: str | None) -> Profile | None:
    if profile_id in (None, "", "all"):
        return None
    profile = content.profiles.get(profile_id)
    if profile is None:
        known = ", ".join(["all", *sorted(content.profiles)])
        raise SapDevsError(f"Unknown profile {profile_id!r}.", hint=f"Choose one of: {known}.")
    return profile
