"""get_transport: one transport request with its tasks and objects."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    number: str = Field(
        max_length=10, pattern=r"^[A-Z0-9]{3}K\d{6}$", description="Transport request number, e.g. DEVK900123."
    )


class Output(ToolOutput):
    number: str
    description: str
    owner: str
    status: str
    target: str | None = None
    tasks: list[str] = Field(default_factory=list)
    objects: list[dict[str, str]] = Field(default_factory=list)


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.transports import read_request

    return Output(**await read_request(ctx.adt(), params.number))


TOOL = Tool(
    name="get_transport",
    title="Transport request",
    description="One transport request on the user's system: description, owner, status, target, tasks and objects.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"number": "DEVK900123"},
)
