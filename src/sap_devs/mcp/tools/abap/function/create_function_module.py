"""create_function_module: a new function module in an existing function group (writes only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput
from sap_devs.mcp.tools.abap._shared import CLASSIC, NAME_PATTERN, name_field, short_text_field, transport_field
from sap_devs.mcp.tools.abap.common._create import CREATES, CreateOutput, created


class Input(ToolInput):
    name: str = name_field("New module", "Z_GET_ORDER", max_length=30)
    function_group: str = Field(max_length=26, pattern=NAME_PATTERN, description="e.g. ZSALES.")
    description: str = short_text_field()
    source: str | None = Field(None, max_length=2_000_000, description="Its source.")
    transport: str | None = transport_field()


async def handle(params: Input, ctx: ToolContext) -> CreateOutput:
    from sap_devs.adt.functions import create_function_module
    from sap_devs.adt.write import write_source

    client, policy = ctx.adt(), ctx.policy()
    made = await create_function_module(
        client, policy, params.function_group, params.name, description=params.description, transport=params.transport
    )
    if params.source is not None:
        await write_source(
            client,
            policy,
            "function_module",
            made.name,
            params.source,
            transport=params.transport,
            group=params.function_group,
        )
    return created(made)


TOOL = Tool(
    name="create_function_module",
    title="Create function module",
    description="Create a function module in an existing group (allowed packages), optionally with its source.",
    category="abap",
    action="create",
    input=Input,
    output=CreateOutput,
    handler=handle,
    annotations=CREATES,
    available_in=CLASSIC,
    needs_system=True,
    example={"name": "Z_GET_ORDER", "function_group": "ZSALES", "description": "Read one sales order"},
)
