"""create_function_group: a new function group in an allowed package (writes only)."""

from __future__ import annotations

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput
from sap_devs.mcp.tools.abap._shared import CLASSIC, name_field, short_text_field, transport_field
from sap_devs.mcp.tools.abap.common._create import CREATES, CreateOutput, created


class Input(ToolInput):
    name: str = name_field("New group (Z*, Y*, /NS/)", "ZSALES", max_length=26)
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    transport: str | None = transport_field()


async def handle(params: Input, ctx: ToolContext) -> CreateOutput:
    from sap_devs.adt.functions import create_function_group

    made = await create_function_group(
        ctx.adt(),
        ctx.policy(),
        params.name,
        package=params.package,
        description=params.description,
        transport=params.transport,
    )
    return created(made, "Created; add modules with create_function_module, then activate_objects.")


TOOL = Tool(
    name="create_function_group",
    title="Create function group",
    description="Create an ABAP function group (Z*/Y*/namespace) in an allowed package, to hold function modules.",
    category="abap",
    action="create",
    input=Input,
    output=CreateOutput,
    handler=handle,
    annotations=CREATES,
    available_in=CLASSIC,
    needs_system=True,
    example={"name": "ZSALES", "package": "$TMP", "description": "Sales order functions"},
)
