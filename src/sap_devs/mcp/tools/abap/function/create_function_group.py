"""create_function_group: a new function group in an allowed package (writes only)."""

from __future__ import annotations

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import CLASSIC, name_field, short_text_field, transport_field


class Input(ToolInput):
    name: str = name_field("New group (Z*, Y*, /NS/)", "ZSALES", max_length=26)
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    transport: str | None = None
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.functions import create_function_group

    made = await create_function_group(
        ctx.adt(),
        ctx.policy(),
        params.name,
        package=params.package,
        description=params.description,
        transport=params.transport,
    )
    hint = "Created; add modules with create_function_module, then activate_objects."
    return Output(name=made.name, uri=made.uri, package=made.package, transport=made.transport, hint=hint)


TOOL = Tool(
    name="create_function_group",
    title="Create function group",
    description="Create an ABAP function group (Z*/Y*/namespace) in an allowed package, to hold function modules.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=CLASSIC,
    needs_system=True,
    example={"name": "ZSALES", "package": "$TMP", "description": "Sales order functions"},
)
