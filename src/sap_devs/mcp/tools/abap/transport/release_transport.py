"""release_transport: release a transport request or task (writes and transports enabled only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    number: str = Field(
        max_length=10, pattern=r"^[A-Z0-9]{3}K\d{6}$", description="Request or task number, e.g. DEVK900123."
    )


class Output(ToolOutput):
    number: str
    released: bool
    messages: list[str] = Field(description="The system's release report.")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.errors import AdtError
    from sap_devs.adt.transports import release

    ctx.policy().check_transports(f"Releasing {params.number}")
    released, messages = await release(ctx.adt(), params.number)
    if not released:
        raise AdtError(f"{params.number} was not released: {'; '.join(messages) or 'no reason given'}.")
    return Output(number=params.number, released=True, messages=messages)


TOOL = Tool(
    name="release_transport",
    title="Release transport request",
    description="Release a transport request or task on the user's system; this cannot be undone. Release the tasks before the request. Enabled only with --allow-writes and SAP_DEVS_ADT_TRANSPORTS=1.",
    category="abap",
    action="update",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=False, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    manages_transports=True,
    example={"number": "DEVK900123"},
)
