"""delete_object: delete an ABAP object in an allowed package (writes only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field, transport_field


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_OLD_HELPER")
    kind: Kind = Field(description="Object kind.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    deleted: str
    uri: str
    package: str
    transport: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.write import delete_object

    report = await delete_object(ctx.adt(), ctx.policy(), params.kind, params.name, transport=params.transport)
    return Output(deleted=report.name, uri=report.uri, package=report.package, transport=report.transport)


TOOL = Tool(
    name="delete_object",
    title="Delete ABAP object",
    description="Delete an ABAP object in an allowed package (lock and delete in one call); needs a transport outside local packages.",
    category="abap",
    action="delete",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=False, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_OLD_HELPER", "kind": "class"},
)
