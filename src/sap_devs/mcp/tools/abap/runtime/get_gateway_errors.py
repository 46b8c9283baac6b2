"""get_gateway_errors: recent entries of the SAP Gateway error log (/IWFND/ERROR_LOG)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field


class Input(ToolInput):
    user: str | None = Field(None, max_length=12, pattern=r"^[A-Za-z0-9_.@-]+$", description="Only this user's errors.")
    limit: int = limit_field(LIST_LIMIT, "errors")


class GatewayError(BaseModel):
    id: str
    title: str | None = None
    user: str | None = None
    time: str | None = None
    text: str | None = None


Output = Envelope[GatewayError]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.feeds import GATEWAY_ERRORS, read_feed

    found = await read_feed(ctx.adt(), GATEWAY_ERRORS, limit=params.limit, user=params.user)
    items = [GatewayError(id=e.id, title=e.title, user=e.author, time=e.time, text=e.summary) for e in found]
    return Output.build(items, limit=params.limit, entity="gateway errors", refine_hint=False)


TOOL = Tool(
    name="get_gateway_errors",
    title="SAP Gateway error log",
    description="Recent entries of the SAP Gateway error log (/IWFND/ERROR_LOG) on the user's ABAP system: OData requests the gateway rejected, with text, user and time, for debugging Fiori apps and OData services.",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=frozenset({"onprem"}),
    needs_system=True,
    example={"limit": 10},
)
