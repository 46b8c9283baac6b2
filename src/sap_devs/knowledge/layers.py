"""Content layers (bundled, official cache, company cache, user data, project) and how they stack."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.core.errors import ContentError, SapDevsError
from sap_devs.knowledge.layer_paths import BUILTIN_PROFILES, Layer
from sap_devs.knowledge.models import Profile
from sap_devs.knowledge.pack_files import DISK, PackFiles
from sap_devs.knowledge.packs import Pack, load_pack, merge_additive, read_yaml_from
from sap_devs.knowledge.yamlio import validate_mapping

log = logging.getLogger(__name__)


@dataclass
class LoadedContent:
    packs: dict[str, Pack] = field(default_factory=dict)
    profiles: dict[str, Profile] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    ignored_files: list[str] = field(default_factory=list)
    """tools.yaml / mcp.yaml files of untrusted layers, which were not loaded."""
    left_out: list[str] = field(default_factory=list)
    """Folders of untrusted layers not read at all (``trusted_only``)."""
    trusted: dict[str, tuple[Path, str]] = field(default_factory=dict)
    """Layers that needed trust and had it: name -> (folder, digest of the bytes read), to check again
    before one of their commands runs."""


def _pack_folders(layer: Layer, files: PackFiles) -> list[Path]:
    return [p for p in files.children(layer.packs_dir) if files.is_dir(p) and not p.name.startswith((".", "_"))]


def _report(out: LoadedContent, message: str) -> None:
    out.problems.append(message)
    log.warning("%s", message)


def _open(layer: Layer, out: LoadedContent) -> tuple[PackFiles, bool] | None:
    """Where the layer's files come from and whether it is trusted; None when it is not read.

    A folder that needs trust is read once, and its packs are parsed from those bytes: the ones
    whose digest was compared with the trust store. Links that lead out of it are never followed.
    """
    if not layer.needs_trust:
        return DISK, True
    from sap_devs.knowledge import trust

    if layer.root.is_symlink():
        _report(
            out,
            f"{layer.root}: a symbolic link (to {os.readlink(layer.root)}); the {layer.name} layer is not read "
            "through it. Make it a folder of its own.",
        )
        return None
    if not layer.root.is_dir():
        return None
    try:
        found = trust.snapshot(layer.root)
    except SapDevsError as exc:
        _report(out, f"{exc} (the {layer.name} layer was not read)")
        return None
    if found.outside:
        _report(
            out,
            f"{trust.outside_links(found)}: not read, and the {layer.name} folder is not trusted while they are there.",
        )
    if not trust.trusted(found):
        return found, False
    out.trusted[layer.name] = (layer.root, found.digest)
    return found, True


def load_layers(layers: list[Layer], *, trusted_only: bool = False) -> LoadedContent:
    """Stack ``layers``; with ``trusted_only``, folders that need trust and lack it are left out
    whole (for files every project shares, such as the user-scope instruction files)."""
    from sap_devs.knowledge.trust import EXECUTABLE_FILES

    out = LoadedContent()
    for layer in layers:
        opened = _open(layer, out)
        if opened is None:
            continue
        files, trusted = opened
        if trusted_only and not trusted:
            out.left_out.append(str(layer.root))
            continue
        for folder in _pack_folders(layer, files):
            ignored = [name for name in EXECUTABLE_FILES if not trusted and files.is_file(folder / name)]
            try:
                pack = load_pack(folder, layer=layer.name, skip=frozenset(ignored), files=files)
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
        _load_profiles(layer, files, trusted, out)
    return out


def _load_profiles(layer: Layer, files: PackFiles, trusted: bool, out: LoadedContent) -> None:
    for path in files.children(layer.profiles_dir):
        if path.suffix != ".yaml" or not files.is_file(path):
            continue
        try:
            profile = validate_mapping(Profile, read_yaml_from(files, path), path)
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
        if not trusted and profile.id in out.profiles:
            # a profile decides which packs an agent is given: someone else's folder adds, never replaces
            _report(
                out,
                f"{path}: profile {profile.id!r} is already defined by an earlier layer; the {layer.name} folder "
                f"is not trusted, so it was not replaced. Review it, then run: sap-devs trust {layer.root.parent}",
            )
            continue
        out.profiles[profile.id] = profile


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
