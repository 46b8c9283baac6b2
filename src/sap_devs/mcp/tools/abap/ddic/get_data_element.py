"""get_data_element: a DDIC data element's type, domain and field labels."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field


class Input(ToolInput):
    name: str = name_field("Data element name", "ZSALES_ORDER_ID")


class Output(ToolOutput):
    name: str
    type: str
    uri: str
    package: str | None = None
    description: str | None = None
    properties: dict[str, str] = Field(description="typeKind, typeName, dataType, length, field labels ...")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.objects import KINDS, definition_properties, object_uri, parse_info

    uri = object_uri("data_element", params.name)
    response = await ctx.adt().request("GET", uri, accept=KINDS["data_element"].accept)
    info = parse_info(response.content, uri)
    props, _ = definition_properties(response.content)
    return Output(
        name=info.name, type=info.type, uri=uri, package=info.package, description=info.description, properties=props
    )


TOOL = Tool(
    name="get_data_element",
    title="ABAP data element",
    description="A DDIC data element on the user's system: type kind, domain or built-in type, length and field labels.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=MODERN,
    needs_system=True,
    example={"name": "ZSALES_ORDER_ID"},
)
