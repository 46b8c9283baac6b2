"""get_function_module: the source of a function module, signature included."""

from __future__ import annotations

from sap_devs.mcp.framework import Tool, ToolContext
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, SourceInput, SourceOutput, name_field, read


class Input(SourceInput):
    function_group: str = name_field("Function group the module belongs to", "ZSALES")


async def handle(params: Input, ctx: ToolContext) -> SourceOutput:
    return await read(ctx, "function_module", params, group=params.function_group)


TOOL = Tool(
    name="get_function_module",
    title="ABAP function module",
    description="Source of a function module (signature in the FUNCTION statement, then the body) from the user's system.",
    category="abap",
    action="read",
    input=Input,
    output=SourceOutput,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "Z_GET_ORDER", "function_group": "ZSALES"},
)
