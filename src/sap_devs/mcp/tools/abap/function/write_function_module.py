"""write_function_module: replace a function module's source, safely (writes only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, name_field, saved, transport_field


class Input(ToolInput):
    name: str = name_field("Function module", "Z_GET_ORDER", max_length=30)
    function_group: str = name_field("Its function group", "ZSALES", max_length=26)
    source: str = Field(min_length=1, max_length=2_000_000, description="Full new source, FUNCTION ... ENDFUNCTION.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    package: str
    transport: str | None = None
    lines_before: int
    lines_after: int
    unlocked: bool
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.write import write_source

    report = await write_source(
        ctx.adt(),
        ctx.policy(),
        "function_module",
        params.name,
        params.source,
        transport=params.transport,
        group=params.function_group,
    )
    return Output(**saved(report, "Saved as inactive; activate the function group's objects with activate_objects."))


TOOL = Tool(
    name="write_function_module",
    title="Write function module",
    description="Change a function module's source (signature and body) in an allowed package: lock, write, unlock in one call.",
    category="abap",
    action="update",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=True, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "Z_GET_ORDER", "function_group": "ZSALES", "source": "FUNCTION z_get_order ..."},
)
