"""list_system_messages: the system messages (SM02) administrators posted on the user's system."""

from __future__ import annotations

from pydantic import BaseModel

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import CLASSIC


class Input(ToolInput):
    limit: int = limit_field(LIST_LIMIT, "messages")


class SystemMessage(BaseModel):
    id: str
    title: str | None = None
    author: str | None = None
    time: str | None = None
    text: str | None = None


Output = Envelope[SystemMessage]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.feeds import SYSTEM_MESSAGES, read_feed

    found = await read_feed(ctx.adt(), SYSTEM_MESSAGES, limit=params.limit)
    items = [SystemMessage(id=e.id, title=e.title, author=e.author, time=e.time, text=e.summary) for e in found]
    return Output.build(items, limit=params.limit, entity="system messages", refine_hint=False)


TOOL = Tool(
    name="list_system_messages",
    title="ABAP system messages (SM02)",
    description="The system messages administrators posted on the user's ABAP system (SM02), such as planned downtime or upgrades: title, text, author and time.",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=CLASSIC,
    needs_system=True,
    example={"limit": 10},
)
