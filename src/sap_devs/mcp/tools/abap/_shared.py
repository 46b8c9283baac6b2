"""Building blocks shared by the ABAP tools: the source-reading tool shape and name fields."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolError, ToolInput, ToolOutput

ALL_SYSTEMS = frozenset({"onprem", "cloud", "legacy"})
MODERN = frozenset({"onprem", "cloud"})
CLASSIC = frozenset({"onprem", "legacy"})
MAX_LINES = 20000

Kind = Literal[
    "program",
    "include",
    "class",
    "interface",
    "function_group",
    "table",
    "structure",
    "cds_view",
    "behavior_definition",
    "metadata_extension",
    "service_definition",
    "package",
]


def saved_hint(first: str, unlocked: bool) -> str:
    """The hint of a tool that saved source: what to do next, and when the unlock failed, what that means."""
    if unlocked:
        return first
    return first + " The unlock request failed; the lock is released when the server session ends."


SAVED_FIELDS = ("name", "package", "transport", "lines_before", "lines_after", "unlocked")


def saved(report: Any, first: str) -> dict[str, Any]:
    """The output fields every tool that saves source reports, taken from the save report (a
    ``write.WriteReport`` or ``includes.IncludeWrite``), with the hint on what to do next."""
    return {**{name: getattr(report, name) for name in SAVED_FIELDS}, "hint": saved_hint(first, report.unlocked)}


NAME_PATTERN = r"^[A-Za-z0-9_/$<>-]+$"
BARE = {"x-listed-bare": True}  # schema_compact.LISTED_BARE: the sentence stays in the full schema only


def name_field(what: str, example: str | None = None, *, max_length: int = 120) -> Any:
    # the pattern's + already refuses an empty name: no min_length to repeat in every schema; shared
    # fields (one model for classes, tables, CDS views ...) give no example, which would suit one kind only
    text = f"{what}, e.g. {example}." if example else f"{what}."
    return Field(max_length=max_length, pattern=NAME_PATTERN, description=text)


def transport_field() -> Any:
    return Field(None, max_length=10, pattern=r"^[A-Z0-9]{3}K\d{6}$", description="Transport for non-local packages.")


def short_text_field() -> Any:
    """An object's short description; maxLength in the schema already says how long it may be."""
    return Field(min_length=1, max_length=60, description="Short description.")


class SourceInput(ToolInput):
    name: str = name_field("Object name")
    version: Literal["active", "inactive"] = Field("active", description="inactive: the last saved, unactivated.")
    start_line: int = Field(1, ge=1, description="First line.")
    max_lines: int = Field(2000, ge=1, le=MAX_LINES, description="Max lines.")


class SourceOutput(ToolOutput):
    name: str
    type: str
    uri: str
    package: str | None = None
    description: str | None = None
    version: str
    source: str
    first_line: int
    last_line: int
    total_lines: int
    hint: str | None = None


def cut(source: str, start: int, count: int) -> tuple[str, int, int, int, str | None]:
    lines = source.splitlines()
    end = min(len(lines), start - 1 + count)
    hint = None
    if end < len(lines):
        hint = f"Lines {start}-{end} of {len(lines)}; call again with start_line={end + 1} for more."
    return "\n".join(lines[start - 1 : end]), start, end, len(lines), hint


async def read(ctx: ToolContext, kind: str, params: SourceInput, *, group: str | None = None) -> SourceOutput:
    from sap_devs.adt.objects import read_info, read_source

    client = ctx.adt()
    info = await read_info(client, kind, params.name, group=group)
    source = await read_source(client, kind, params.name, group=group, version=params.version)
    text, first, last, total, hint = cut(source, params.start_line, params.max_lines)
    return SourceOutput(
        name=info.name,
        type=info.type,
        uri=info.uri,
        package=info.package,
        description=info.description,
        version=params.version,
        source=text,
        first_line=first,
        last_line=last,
        total_lines=total,
        hint=hint,
    )


def source_tool(
    *,
    name: str,
    module: str,
    kind: str,
    title: str,
    description: str,
    category: str,
    available_in: frozenset[str],
    example: str,
) -> Tool:
    """A tool that returns one object's source; ``module`` is the defining module's ``__name__``."""

    async def handle(params: SourceInput, ctx: ToolContext) -> SourceOutput:
        return await read(ctx, kind, params)

    handle.__module__ = module  # the registry and the manifest locate the tool by its handler's module
    return Tool(
        name=name,
        title=title,
        description=description,
        category=category,
        action="read",
        input=SourceInput,
        output=SourceOutput,
        handler=handle,
        available_in=available_in,
        needs_system=True,
        example={"name": example},
    )


async def activate_created(client: Any, uri: str, name: str, *, created: str, hint: str) -> None:
    """Activate an object a tool has just created; activation errors become the tool's error (the object
    stays on the system, inactive), e.g. ``ZX was created in $TMP but did not activate: ...``."""
    from sap_devs.adt.checks import ERROR_TYPES, activation

    result = await activation(client, [(uri, name)])
    errors = [m for m in result.messages if m.type in ERROR_TYPES]
    if not result.activated:
        raise ToolError(
            f"{name} was {created} but did not activate: " + "; ".join(m.text for m in errors[:5]), hint=hint
        )
