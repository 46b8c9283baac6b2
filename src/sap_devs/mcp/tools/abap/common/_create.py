"""The shape shared by the create tools: create_program, create_class and create_interface are built
here; create_function_group and create_function_module answer with the same output."""

from __future__ import annotations

from typing import Any

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


CREATES = Annotations(read_only=False, destructive=False, idempotent=False, open_world=True)


def created(made: Any, hint: str = "Created inactive; run syntax_check, then activate_objects.") -> CreateOutput:
    """The output of a create tool from what the domain call reports (name, uri, package, transport)."""
    return CreateOutput(name=made.name, uri=made.uri, package=made.package, transport=made.transport, hint=hint)


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
        return created(report)

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
        annotations=CREATES,
        available_in=available_in,
        needs_system=True,
        example={"name": "ZCL_SALES_ORDER", "package": "$TMP", "description": "Sales order logic"},
    )
