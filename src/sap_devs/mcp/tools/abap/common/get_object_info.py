"""get_object_info: an ABAP object's package, description, responsible, version and links."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind = Field(description="Object kind.")


class Output(ToolOutput):
    name: str
    type: str
    uri: str
    description: str | None = None
    package: str | None = None
    responsible: str | None = None
    changed_by: str | None = None
    changed_at: str | None = None
    created_at: str | None = None
    version: str | None = None
    language: str | None = None
    abap_language_version: str | None = None
    links: list[dict[str, str]] = Field(default_factory=list)


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.objects import info_dict, read_info

    info = await read_info(ctx.adt(), params.kind, params.name)
    return Output(**info_dict(info))


TOOL = Tool(
    name="get_object_info",
    title="ABAP object information",
    description="Metadata of an ABAP object on the user's system: package, description, responsible, last change, version, language version.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class"},
)
