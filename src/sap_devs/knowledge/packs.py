"""One content pack: its folder read, every file validated, and the additive merge of two packs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sap_devs.core.errors import ContentError
from sap_devs.knowledge.models import (
    EventInstance,
    EventType,
    KnownError,
    McpServer,
    PackMeta,
    PackPrompt,
    Resource,
    Sample,
    Tip,
    ToolDef,
    TutorialRef,
    YouTubeSource,
)
from sap_devs.knowledge.pack_files import DISK, PackFiles
from sap_devs.knowledge.tips import parse_tips
from sap_devs.knowledge.verbosity import Sections, parse_sections
from sap_devs.knowledge.yamlio import parse_yaml, validate_list, validate_mapping

# file name -> (attribute, item model)
LIST_FILES: dict[str, tuple[str, Any]] = {
    "resources.yaml": ("resources", Resource),
    "known_errors.yaml": ("known_errors", KnownError),
    "samples.yaml": ("samples", Sample),
    "tools.yaml": ("tools", ToolDef),
    "mcp.yaml": ("mcp_servers", McpServer),
    "event-types.yaml": ("event_types", EventType),
    "event-instances.yaml": ("event_instances", EventInstance),
    "tutorials.yaml": ("tutorials", TutorialRef),
    "youtube.yaml": ("youtube_sources", YouTubeSource),
    "prompts.yaml": ("prompts", PackPrompt),
}


@dataclass
class Pack:
    meta: PackMeta
    layer: str = "bundled"
    path: Path | None = None
    context: Sections = field(default_factory=Sections)
    constraints: Sections = field(default_factory=Sections)
    tips: list[Tip] = field(default_factory=list)
    resources: list[Resource] = field(default_factory=list)
    known_errors: list[KnownError] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    tools: list[ToolDef] = field(default_factory=list)
    mcp_servers: list[McpServer] = field(default_factory=list)
    event_types: list[EventType] = field(default_factory=list)
    event_instances: list[EventInstance] = field(default_factory=list)
    tutorials: list[TutorialRef] = field(default_factory=list)
    youtube_sources: list[YouTubeSource] = field(default_factory=list)
    prompts: list[PackPrompt] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.meta.id


def _read(files: PackFiles, path: Path) -> bytes:
    try:
        return files.read(path)
    except OSError as exc:
        raise ContentError(str(path), f"cannot be read: {exc.strerror or exc}") from None


def _read_markdown(files: PackFiles, path: Path) -> str:
    try:
        return _read(files, path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(str(path), f"not UTF-8 text ({exc.reason})") from None


def read_yaml_from(files: PackFiles, path: Path) -> Any:
    return parse_yaml(path, _read(files, path))


KNOWN_FILES = frozenset({"pack.yaml", "context.md", "constraints.md", "tips.md", *LIST_FILES})


def _stamped(items: list[Any], layer: str, path: Path) -> list[Any]:
    for item in items:
        item._origin = (layer, str(path))
    return items


def _marked(sections: Sections, layer: str, path: Path) -> Sections:
    """Context from outside sap-devs says so where an agent (or the injected file) reads it."""
    note = f"> From the {layer} layer ({path}), not from sap-devs' bundled SAP content."
    return Sections(
        *(f"{note}\n\n{text}" if text else "" for text in (sections.core, sections.detail, sections.extended))
    )


def load_pack(
    folder: Path,
    *,
    layer: str = "bundled",
    problems: list[ContentError] | None = None,
    skip: frozenset[str] = frozenset(),
    files: PackFiles = DISK,
) -> Pack:
    """Read and validate ``folder``; any problem raises ContentError naming the file and field.

    With ``problems`` given, every file is still checked and each problem is appended there
    instead of raised, which is what ``sap-devs content validate`` reports. Files named in ``skip``
    are not read. Items from any layer but the bundled one carry their layer and file. ``files`` is
    where the bytes come from (a folder read once, for a folder that needs trust).
    """
    stamp = layer != "bundled"

    def attempt(read: Any) -> Any:
        try:
            return read()
        except ContentError as exc:
            if problems is None:
                raise
            problems.append(exc)
            return None

    meta_path = folder / "pack.yaml"

    def read_meta() -> PackMeta:
        if not files.is_file(meta_path):
            raise ContentError(str(meta_path), "missing: every pack folder needs a pack.yaml")
        meta = validate_mapping(PackMeta, read_yaml_from(files, meta_path), meta_path)
        if meta.id != folder.name:
            raise ContentError(str(meta_path), f"field 'id': {meta.id!r} must match the folder name {folder.name!r}")
        return meta

    meta = attempt(read_meta)
    pack = Pack(
        meta=meta or PackMeta(id="invalid", name=folder.name, description="(pack.yaml invalid)"),
        layer=layer,
        path=folder,
    )
    for name, attr in (("context.md", "context"), ("constraints.md", "constraints")):
        path = folder / name
        if files.is_file(path):
            sections = attempt(lambda path=path: parse_sections(_read_markdown(files, path), source=str(path)))
            if sections is not None:
                setattr(pack, attr, _marked(sections, layer, path) if stamp else sections)
    tips = folder / "tips.md"
    if files.is_file(tips):
        pack.tips = (
            attempt(lambda: parse_tips(_read_markdown(files, tips), pack_id=folder.name, source=str(tips))) or []
        )
        if stamp:
            _stamped(pack.tips, layer, tips)
    for name, (attr, model) in LIST_FILES.items():
        path = folder / name
        if name not in skip and files.is_file(path):
            items = attempt(lambda path=path, model=model: _list(files, model, path)) or []
            setattr(pack, attr, _stamped(items, layer, path) if stamp else items)
    return pack


def _list(files: PackFiles, model: Any, path: Path) -> list[Any]:
    raw = _read(files, path)
    return validate_list(model, parse_yaml(path, raw), path, raw)


def _merge_by_key(base: list[Any], extra: list[Any], key: str, kept: list[str] | None) -> list[Any]:
    merged = {getattr(item, key): item for item in base}
    for item in extra:
        name = getattr(item, key)
        if kept is not None and name in merged:
            kept.append(name)  # an untrusted layer adds; it never replaces what is already there
            continue
        merged[name] = item  # same key replaces in place, new keys append
    return list(merged.values())


def merge_additive(base: Pack, extra: Pack, *, kept: list[str] | None = None) -> Pack:
    """Join an ``additive: true`` pack into the pack it extends.

    With ``kept`` given, an item of ``extra`` whose id is already in ``base`` is dropped and its id
    appended there: how an untrusted layer's pack joins a trusted one.
    """
    before = extra.meta.additive_position == "before"
    meta = base.meta.model_copy(
        update={
            "name": extra.meta.name or base.meta.name,
            "description": extra.meta.description or base.meta.description,
            "weight": extra.meta.weight or base.meta.weight,
            "tags": list(dict.fromkeys([*base.meta.tags, *extra.meta.tags])),
            "versions": {**base.meta.versions, **extra.meta.versions},
            "changelog": [*base.meta.changelog, *extra.meta.changelog],
            "additive": False,
        }
    )
    extra_tips = [t.model_copy(update={"pack": base.id}) for t in extra.tips]
    return replace(
        base,
        meta=meta,
        layer=f"{base.layer}+{extra.layer}",
        context=base.context.joined(extra.context, other_first=before),
        constraints=base.constraints.joined(extra.constraints, other_first=before),
        tips=[*extra_tips, *base.tips] if before else [*base.tips, *extra_tips],
        resources=_merge_by_key(base.resources, extra.resources, "id", kept),
        known_errors=_merge_by_key(base.known_errors, extra.known_errors, "id", kept),
        samples=_merge_by_key(base.samples, extra.samples, "id", kept),
        tools=_merge_by_key(base.tools, extra.tools, "id", kept),
        mcp_servers=_merge_by_key(base.mcp_servers, extra.mcp_servers, "id", kept),
        event_types=_merge_by_key(base.event_types, extra.event_types, "id", kept),
        event_instances=_merge_by_key(base.event_instances, extra.event_instances, "id", kept),
        tutorials=_merge_by_key(base.tutorials, extra.tutorials, "slug", kept),
        youtube_sources=_merge_by_key(base.youtube_sources, extra.youtube_sources, "id", kept),
        prompts=_merge_by_key(base.prompts, extra.prompts, "id", kept),
    )
