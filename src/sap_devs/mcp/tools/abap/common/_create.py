"""The shape shared by create_program, create_class and create_interface."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import name_field, short_text_field, transport_field


class CreateInput(ToolInput):
    name: str = name_field("New object name (Z*, Y* or /NAMESPACE/)")
    package: str = name_field("Package to create it in", "$TMP")
    description: str = short_text_field()
    source: str | None = Field(
        None, max_length=2_000_000, description="Initial source; omit for the generated skeleton."
    )
    transport: str | None = transport_field()


class CreateOutput(ToolOutput):
    name: str
    uri: str
    package: str
    transport: str | None = None
    hint: str


def create_tool(
    *, name: str, module: str, kind: str, title: str, description: str, available_in: frozenset[str]
) -> Tool:
    async def handle(params: CreateInput, ctx: ToolContext) -> CreateOutput:
        from sap_devs.adt.write import create_object

        report = await create_object(
            ctx.adt(),
            ctx.policy(),
            kind,
            params.name,
            package=params.package,
            description=params.description,
            source=params.source,
            transport=params.transport,
        )
        return CreateOutput(
            name=report.name,
            uri=report.uri,
            package=report.package,
            transport=report.transport,
            hint="Created inactive; run syntax_check, then activate_objects.",
        )

    handle.__module__ = module
    return Tool(
        name=name,
        title=title,
        description=description,
        category="abap",
        action="create",
        input=CreateInput,
        output=CreateOutput,
        handler=handle,
        annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
        available_in=available_in,
        needs_system=True,
        example={"name": "ZCL_SALES_ORDER", "package": "$TMP", "description": "Sales order logic"},
    )
