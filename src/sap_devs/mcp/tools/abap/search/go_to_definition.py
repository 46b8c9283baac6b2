"""go_to_definition: where the symbol at a line and column of an ABAP source is defined."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field


class Input(ToolInput):
    name: str = name_field("Object whose source holds the symbol", "ZCL_SALES_ORDER")
    kind: Kind = Field(description="Object kind.")
    line: int = Field(ge=1, le=1_000_000, description="Line of the symbol (1-based).")
    column: int = Field(ge=0, le=10_000, description="Column of the symbol (0-based).")
    source: str | None = Field(None, max_length=2_000_000, description="Unsaved source to navigate in instead.")


class Output(ToolOutput):
    found: bool
    uri: str | None = Field(None, description="Source URI of the definition.")
    name: str | None = None
    type: str | None = None
    line: int | None = None
    column: int | None = None
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.navigation import find_definition

    target = await find_definition(
        ctx.adt(), params.kind, params.name, params.line, params.column, source=params.source
    )
    if target is None:
        return Output(found=False, hint="No definition at that position (a keyword, comment or blank).")
    return Output(
        found=True, uri=target.uri, name=target.name, type=target.type, line=target.line, column=target.column
    )


TOOL = Tool(
    name="go_to_definition",
    title="Go to ABAP definition",
    description="Go to definition: where the symbol (variable, method, type) at a line and column of ABAP source, saved or unsaved, is declared on the user's system; URI, line and column of the declaration.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "line": 27, "column": 12},
)
