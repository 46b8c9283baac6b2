"""create_transport: a new workbench transport request (writes and transports enabled only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    description: str = Field(
        min_length=3, max_length=60, description="Short text of the request (at most 60 characters)."
    )
    target: str | None = Field(
        None,
        max_length=10,
        pattern=r"^[A-Z0-9_/.]{1,10}$",
        description="Transport target (system or route); default LOCAL.",
    )


class Output(ToolOutput):
    number: str = Field(description="The new request, e.g. DEVK900125; pass it as `transport` to the write tools.")
    description: str
    owner: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.transports import create_request

    ctx.policy().check_transports("Creating a transport request")
    client = ctx.adt()
    owner = (client.config.user or "").upper() or None
    number = await create_request(client, params.description, target=params.target, owner=owner)
    return Output(number=number, description=params.description, owner=owner)


TOOL = Tool(
    name="create_transport",
    title="Create transport request",
    description="Create a workbench transport request on the user's system for changes outside local packages. Enabled only with --allow-writes and SAP_DEVS_ADT_TRANSPORTS=1.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    manages_transports=True,
    example={"description": "Sales order validation fix"},
)
