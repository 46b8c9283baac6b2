"""get_element_info: what the element at a position is (type, signature, documentation)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS
from sap_devs.mcp.tools.abap.editor._position import PositionInput, position_source


class Output(ToolOutput):
    name: str | None = None
    type: str | None = None
    documentation: str
    components: list[dict[str, Any]] = Field(default_factory=list, description="Parameters, attributes ...")


async def handle(params: PositionInput, ctx: ToolContext) -> Output:
    from sap_devs.adt.codeassist import element_info

    target, source = await position_source(ctx, params)
    uri = target.uri
    info = await element_info(ctx.adt(), uri, source, params.line, params.column)
    return Output(
        name=info.name,
        type=info.type,
        documentation=info.documentation,
        components=info.components,
    )


TOOL = Tool(
    name="get_element_info",
    title="Element info",
    description="Hover info: type, signature and documentation of the element at a line and column.",
    category="abap",
    action="read",
    input=PositionInput,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "line": 12, "column": 14},
)
