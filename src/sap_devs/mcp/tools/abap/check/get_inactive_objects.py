"""get_inactive_objects: the user's saved but not yet activated objects."""

from __future__ import annotations

from pydantic import BaseModel

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    limit: int = limit_field(LIST_LIMIT, "objects")


class Inactive(BaseModel):
    name: str
    type: str
    uri: str
    transport: str | None = None


Output = Envelope[Inactive]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.checks import inactive_objects

    items = [Inactive(**o) for o in await inactive_objects(ctx.adt())]
    return Output.build(items, limit=params.limit, entity="inactive objects")


TOOL = Tool(
    name="get_inactive_objects",
    title="Inactive ABAP objects",
    description="ABAP objects on the user's system that are saved but not activated yet, with their transport request.",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={},
)
