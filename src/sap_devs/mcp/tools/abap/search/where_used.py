"""where_used: the objects that use an ABAP object."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind = Field(description="Object kind.")
    limit: int = limit_field(LIST_LIMIT, "usages")


class Usage(BaseModel):
    name: str
    type: str
    uri: str
    package: str | None = None


Output = Envelope[Usage]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.checks import where_used
    from sap_devs.adt.objects import object_uri

    found = await where_used(ctx.adt(), object_uri(params.kind, params.name))
    items = [Usage(name=u["name"], type=u["type"], uri=u["uri"], package=u["package"]) for u in found]
    return Output.build(items, limit=params.limit, entity="usages")


TOOL = Tool(
    name="where_used",
    title="ABAP where-used list",
    description="Which objects use an ABAP object (where-used list) on the user's system: the classes, programs and others that reference it.",
    category="abap",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class"},
)
