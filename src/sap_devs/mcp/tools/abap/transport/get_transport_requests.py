"""get_transport_requests: the user's modifiable (and optionally released) transport requests."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    user: str | None = Field(
        None, max_length=40, pattern=r"^[A-Za-z0-9_.@-]{1,40}$", description="Owner; default: the logged-on user."
    )
    released: bool = Field(False, description="Also list released requests.")
    limit: int = limit_field(LIST_LIMIT, "requests")


class TransportRequest(BaseModel):
    number: str
    description: str
    owner: str
    status: str
    target: str | None = None
    tasks: list[str] = Field(default_factory=list)
    objects: list[dict[str, str]] = Field(default_factory=list)


Output = Envelope[TransportRequest]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.transports import list_requests

    client = ctx.adt()
    found = await list_requests(client, params.user or client.config.user, released=params.released)
    items = [TransportRequest(**r) for r in found]
    return Output.build(items, limit=params.limit, entity="transport requests")


TOOL = Tool(
    name="get_transport_requests",
    title="Transport requests",
    description="Workbench transport requests of a user on the user's system (modifiable, optionally released) with tasks and objects.",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={},
)
