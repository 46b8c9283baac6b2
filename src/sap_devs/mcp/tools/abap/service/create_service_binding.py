"""create_service_binding: bind a service definition as OData, activate and optionally publish (writes only)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, activate_created, name_field, short_text_field, transport_field


class Input(ToolInput):
    name: str = name_field("New binding name", "ZUI_SALESORDER_O4")
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    service_definition: str = name_field("Service definition to bind", "ZUI_SALESORDER")
    binding: Literal["odata_v4_ui", "odata_v4_web_api", "odata_v2_ui", "odata_v2_web_api"] = Field(
        "odata_v4_ui", description="OData version and UI or Web API."
    )
    publish: bool = Field(False, description="Also publish the service.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    activated: bool
    published: bool
    message: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.services import create_binding, publish

    client, policy = ctx.adt(), ctx.policy()
    uri = await create_binding(
        client,
        policy,
        params.name,
        package=params.package,
        description=params.description,
        service_definition=params.service_definition,
        binding=params.binding,
        transport=params.transport,
    )
    name = params.name.upper()
    await activate_created(
        client,
        uri,
        name,
        created="created",
        hint="Activate the service definition and its CDS views first, then activate_objects.",
    )
    message = None
    if params.publish:
        result = await publish(client, policy, name)
        if result.severity.upper() not in ("OK", "SUCCESS", "S", "I", "W", "WARNING", "INFO"):
            raise ToolError(
                f"{name} was created and activated, but publishing failed: {result.text} {result.long_text}".strip(),
                hint="Retry with publish_service once the cause is fixed.",
            )
        message = result.text
    return Output(name=name, uri=uri, activated=True, published=params.publish, message=message)


TOOL = Tool(
    name="create_service_binding",
    title="Create RAP service binding",
    description="Create a RAP service binding (OData V4 or V2, UI or Web API) for a service definition in an allowed package, activate it and, when asked, publish it, in one call on the user's system.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=MODERN,
    needs_system=True,
    example={
        "name": "ZUI_SALESORDER_O4",
        "package": "$TMP",
        "description": "Sales orders UI",
        "service_definition": "ZUI_SALESORDER",
        "publish": True,
    },
)
