"""The input shared by the editor tools: an object's source (saved, or unsaved text) and a cursor.

The object is addressed as ADT's editor addresses it (``objects.source_uri``): programs, includes,
classes and interfaces by their main source, a function module under its function group (looked up:
module names are unique in a system), and a class's local includes (definitions, implementations,
macros, test classes) by their include URI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import ToolContext, ToolError, ToolInput
from sap_devs.mcp.tools.abap._shared import BARE, MAX_LINES, NAME_PATTERN

EditorKind = Literal["program", "include", "class", "interface", "function_module"]
ClassInclude = Literal["definitions", "implementations", "macros", "testclasses"]


class SourceRef(ToolInput):
    # six tools list this shape: names, values and bounds say what the fields are, so their sentences
    # stay in the full schema (get_tool_schemas, docs) and tools/list carries them once, in the tools' text
    name: str = Field(max_length=120, pattern=NAME_PATTERN, description="Object name.", json_schema_extra=BARE)
    kind: EditorKind = Field(description="Object kind.")
    include: ClassInclude | None = Field(None, description="A class's local include.", json_schema_extra=BARE)


class CursorInput(SourceRef):
    # lines from 1 and columns from 0, as in ADT: the listed minimum says so
    line: int = Field(ge=1, le=MAX_LINES * 10, description="Line, from 1.", json_schema_extra=BARE)
    column: int = Field(ge=0, le=1_000, description="Column, from 0.", json_schema_extra=BARE)  # ABAP lines: 255


class PositionInput(CursorInput):
    source: str | None = Field(None, max_length=2_000_000, description="Unsaved text.")


@dataclass(frozen=True)
class Target:
    """Where an editor request points: the source URI, and the function group of a function module."""

    uri: str
    group: str | None = None


async def editor_target(ctx: ToolContext, ref: SourceRef) -> Target:
    """The source the editor requests carry, with a clear error for a reference that cannot be one."""
    from sap_devs.adt.errors import AdtError
    from sap_devs.adt.functions import function_group_of
    from sap_devs.adt.objects import source_uri

    try:
        group = await function_group_of(ctx.adt(), ref.name) if ref.kind == "function_module" else None
        return Target(source_uri(ref.kind, ref.name, group=group, include=ref.include), group)
    except AdtError as exc:
        if exc.status is not None:
            raise
        raise ToolError(exc.message, hint=exc.hint) from None


async def saved_source(ctx: ToolContext, ref: SourceRef, uri: str) -> str:
    """The saved text at ``uri``: the inactive version, which is what the last write left."""
    from sap_devs.adt.errors import AdtError

    try:
        return await ctx.adt().get_text(uri, params={"version": "inactive"})
    except AdtError as exc:
        if exc.status == 404 and ref.include:
            raise ToolError(
                f"{ref.name.upper()} has no {ref.include} include.",
                hint="write_class_include creates the test classes include; the others come with every class.",
            ) from None
        raise


async def position_source(ctx: ToolContext, params: CursorInput) -> tuple[Target, str]:
    """(where the source is, the source text: unsaved when given, else the saved) with the cursor checked."""
    from sap_devs.adt.codeassist import check_position
    from sap_devs.adt.errors import AdtError

    target = await editor_target(ctx, params)
    source = getattr(params, "source", None)
    if source is None:
        source = await saved_source(ctx, params, target.uri)
    try:
        check_position(source, params.line, params.column)
    except AdtError as exc:
        raise ToolError(exc.message, hint="Lines count from 1 and columns from 0, as in ADT.") from None
    return target, source
