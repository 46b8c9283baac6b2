"""create_function_module: a new function module in an existing function group (writes only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import CLASSIC, name_field, short_text_field, transport_field


class Input(ToolInput):
    name: str = name_field("New module (Z_*, Y_*, /NS/)", "Z_GET_ORDER", max_length=30)
    function_group: str = name_field("Its function group", "ZSALES", max_length=26)
    description: str = short_text_field()
    source: str | None = Field(None, max_length=2_000_000, description="Its source.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    transport: str | None = None
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
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
    hint = "Created inactive; run syntax_check, then activate_objects."
    return Output(name=made.name, uri=made.uri, package=made.package, transport=made.transport, hint=hint)


TOOL = Tool(
    name="create_function_module",
    title="Create function module",
    description="Create a function module in an existing function group of an allowed package, optionally with its full source (FUNCTION ... ENDFUNCTION).",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=CLASSIC,
    needs_system=True,
    example={"name": "Z_GET_ORDER", "function_group": "ZSALES", "description": "Read one sales order"},
)
