"""get_quick_fixes: the quick fixes ADT proposes at a position (nothing is changed)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS
from sap_devs.mcp.tools.abap.editor._position import PositionInput, position_source


class Fix(BaseModel):
    number: int = Field(description="Pass as fix to apply_quick_fix.")
    name: str
    description: str


class Output(ToolOutput):
    count: int
    fixes: list[Fix]
    hint: str | None = None


async def handle(params: PositionInput, ctx: ToolContext) -> Output:
    from sap_devs.adt.quickfix import proposals

    target, source = await position_source(ctx, params)
    uri = target.uri
    found = await proposals(ctx.adt(), uri, source, params.line, params.column)
    fixes = [Fix(number=i, name=p.name, description=p.description) for i, p in enumerate(found, 1)]
    hint = "No quick fix here; put the cursor on the word a syntax message points at." if not fixes else None
    return Output(count=len(fixes), fixes=fixes, hint=hint)


TOOL = Tool(
    name="get_quick_fixes",
    title="ABAP quick fix proposals",
    description="Quick fixes ADT offers at a line and column, e.g. for a syntax error; apply_quick_fix applies one.",
    category="abap",
    action="read",
    input=PositionInput,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "line": 12, "column": 4},
)
