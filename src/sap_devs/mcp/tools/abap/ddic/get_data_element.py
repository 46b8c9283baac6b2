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
    from sap_devs.adt.objects import definition_properties, read_metadata

    info, body = await read_metadata(ctx.adt(), "data_element", params.name)
    props, _ = definition_properties(body)
    return Output(
        name=info.name,
        type=info.type,
        uri=info.uri,
        package=info.package,
        description=info.description,
        properties=props,
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
