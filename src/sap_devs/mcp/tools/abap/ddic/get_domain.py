"""get_domain: a DDIC domain's data type, length, conversion exit and fixed values."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field


class Input(ToolInput):
    name: str = name_field("Domain name", "ZSTATUS")


class Output(ToolOutput):
    name: str
    type: str
    uri: str
    package: str | None = None
    description: str | None = None
    properties: dict[str, str] = Field(description="datatype, length, decimals, conversionExit, lowercase ...")
    fixed_values: list[dict[str, str]] = Field(
        default_factory=list, description="low, high and text of each fixed value."
    )


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.objects import definition_properties, read_metadata

    info, body = await read_metadata(ctx.adt(), "domain", params.name)
    props, fixed = definition_properties(body)
    return Output(
        name=info.name,
        type=info.type,
        uri=info.uri,
        package=info.package,
        description=info.description,
        properties=props,
        fixed_values=fixed,
    )


TOOL = Tool(
    name="get_domain",
    title="ABAP domain",
    description="A DDIC domain on the user's system: data type, length, decimals, conversion exit, value table and fixed values.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=MODERN,
    needs_system=True,
    example={"name": "ZSTATUS"},
)
