"""complete_code: ADT code completion at a position in an ABAP source."""

from __future__ import annotations

from pydantic import BaseModel

from sap_devs.mcp.framework import SEARCH_LIMIT, Tool, ToolContext, ToolOutput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS
from sap_devs.mcp.tools.abap.editor._position import PositionInput, position_source


class Input(PositionInput):
    limit: int = limit_field(SEARCH_LIMIT, "proposals")


class Proposal(BaseModel):
    identifier: str
    kind: int | None = None


class Output(ToolOutput):
    count: int
    total: int
    results: list[Proposal]
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.codeassist import complete

    target, source = await position_source(ctx, params)
    uri = target.uri
    found = await complete(ctx.adt(), uri, source, params.line, params.column)
    shown = [Proposal(identifier=p.identifier, kind=p.kind) for p in found[: params.limit]]
    hint = None if found else "No proposals at this position; put the cursor right after what you typed."
    if len(found) > params.limit:
        hint = f"First {params.limit} of {len(found)}; type more of the name, or raise limit."
    return Output(count=len(shown), total=len(found), results=shown, hint=hint)


TOOL = Tool(
    name="complete_code",
    title="ABAP code completion",
    description="Code completion: what you can type here, at a line and column of ABAP source, saved or not.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "line": 12, "column": 14},
)
