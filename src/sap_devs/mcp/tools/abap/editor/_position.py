"""The input shared by the editor tools: an object's source (saved, or unsaved text) and a cursor."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import ToolContext, ToolError, ToolInput
from sap_devs.mcp.tools.abap._shared import MAX_LINES, name_field

EditorKind = Literal["program", "include", "class", "interface"]


class CursorInput(ToolInput):
    name: str = name_field("Object name")
    kind: EditorKind = Field(description="Object kind.")
    line: int = Field(ge=1, le=MAX_LINES * 10, description="Line, from 1.")
    column: int = Field(ge=0, le=10_000, description="Column, from 0.")


class PositionInput(CursorInput):
    source: str | None = Field(None, max_length=2_000_000, description="Unsaved text; default: the saved one.")


async def position_source(ctx: ToolContext, params: CursorInput) -> tuple[str, str]:
    """(the source's ADT URI, the source text: unsaved when given, else the saved) with the cursor checked."""
    from sap_devs.adt.codeassist import check_position
    from sap_devs.adt.errors import AdtError
    from sap_devs.adt.objects import object_uri, read_source

    uri = object_uri(params.kind, params.name) + "/source/main"
    source = getattr(params, "source", None)
    if source is None:
        source = await read_source(ctx.adt(), params.kind, params.name, version="inactive")
    try:
        check_position(source, params.line, params.column)
    except AdtError as exc:
        raise ToolError(exc.message, hint="Lines count from 1 and columns from 0, as in ADT.") from None
    return uri, source
