"""The input shared by the editor tools: an object's source (saved, or unsaved text) and a cursor.

The object is addressed as ADT's editor addresses it (``objects.source_uri``): programs, includes,
classes and interfaces by their main source, a function module under its function group, and a
class's local includes (definitions, implementations, macros, test classes) by their include URI.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import ToolContext, ToolError, ToolInput
from sap_devs.mcp.tools.abap._shared import MAX_LINES, name_field

EditorKind = Literal["program", "include", "class", "interface", "function_module"]
ClassInclude = Literal["definitions", "implementations", "macros", "testclasses"]


class SourceRef(ToolInput):
    name: str = name_field("Object name")
    kind: EditorKind = Field(description="Object kind.")
    function_group: str | None = Field(None, max_length=26, pattern=r"^[A-Za-z0-9_/$<>-]+$")
    include: ClassInclude | None = Field(None, description="A class's local include.")


class CursorInput(SourceRef):
    # lines from 1 and columns from 0, as in ADT: the schema's minimum says so
    line: int = Field(ge=1, le=MAX_LINES * 10)
    column: int = Field(ge=0, le=10_000)


class PositionInput(CursorInput):
    source: str | None = Field(None, max_length=2_000_000, description="Unsaved text; default: the saved one.")


def editor_uri(ref: SourceRef) -> str:
    """The source URI the editor requests carry, with a clear error for a reference that cannot be one."""
    from sap_devs.adt.errors import AdtError
    from sap_devs.adt.objects import source_uri

    if ref.function_group and ref.kind != "function_module":
        raise ToolError("function_group is only for kind function_module.", hint=f"Leave it out for a {ref.kind}.")
    if ref.kind == "function_module" and not ref.function_group:
        raise ToolError("A function module is addressed through its function group.", hint="Pass function_group.")
    try:
        return source_uri(ref.kind, ref.name, group=ref.function_group, include=ref.include)
    except AdtError as exc:
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


async def position_source(ctx: ToolContext, params: CursorInput) -> tuple[str, str]:
    """(the source's ADT URI, the source text: unsaved when given, else the saved) with the cursor checked."""
    from sap_devs.adt.codeassist import check_position
    from sap_devs.adt.errors import AdtError

    uri = editor_uri(params)
    source = getattr(params, "source", None)
    if source is None:
        source = await saved_source(ctx, params, uri)
    try:
        check_position(source, params.line, params.column)
    except AdtError as exc:
        raise ToolError(exc.message, hint="Lines count from 1 and columns from 0, as in ADT.") from None
    return uri, source
