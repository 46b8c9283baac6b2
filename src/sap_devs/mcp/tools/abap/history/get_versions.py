"""get_versions: the saved versions of an object's source, with the transports they were recorded in."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind = Field(description="Object kind.")
    limit: int = limit_field(LIST_LIMIT, "versions")


class VersionItem(BaseModel):
    id: str = Field(description="Pass to compare_versions.")
    title: str | None = None
    author: str | None = None
    time: str | None = None
    transport: str | None = None
    transport_text: str | None = None


class Output(Envelope[VersionItem]):
    transports: list[str] = Field(default_factory=list, description="Every transport request the object was in.")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.versions import versions

    found = await versions(ctx.adt(), params.kind, params.name)
    items = [
        VersionItem(
            id=v.id, title=v.title, author=v.author, time=v.time, transport=v.transport, transport_text=v.transport_text
        )
        for v in found
    ]
    shown = items[: params.limit]
    hint = "No saved versions (the object may be new or local)." if not items else None
    if len(shown) < len(items):
        hint = f"Showing {len(shown)} of {len(items)} versions."
    transports = list(dict.fromkeys(v.transport for v in found if v.transport))
    return Output(count=len(shown), total=len(items), results=shown, hint=hint, transports=transports)


TOOL = Tool(
    name="get_versions",
    title="ABAP version history",
    description="Who changed an ABAP object, when and in which transport: the version history of its source on the user's system, each saved version with author, time and transport request; compare two with compare_versions.",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class"},
)
