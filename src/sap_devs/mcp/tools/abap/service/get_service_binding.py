"""get_service_binding: how a RAP service is bound (OData V2/V4, UI or Web API) and whether it is published."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field

SRVB = "{http://www.sap.com/adt/ddic/ServiceBindings}"
ADTCORE = "{http://www.sap.com/adt/core}"


class Input(ToolInput):
    name: str = name_field("Service binding name", "ZUI_SALESORDER_O4")


class BoundService(BaseModel):
    name: str
    version: str | None = None
    service_definition: str | None = None
    release_state: str | None = None


class Output(ToolOutput):
    name: str
    uri: str
    package: str | None = None
    description: str | None = None
    binding_type: str | None = Field(None, description="e.g. ODATA.")
    odata_version: str | None = Field(None, description="V2 or V4.")
    published: bool | None = None
    services: list[BoundService] = Field(default_factory=list)


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.objects import read_metadata
    from sap_devs.core.xml import parse_xml

    info, body = await read_metadata(ctx.adt(), "service_binding", params.name)
    root = parse_xml(body, source="service binding")
    binding = root.find(f"{SRVB}binding")
    services = []
    for svc in root.iter(f"{SRVB}services"):
        content = svc.find(f"{SRVB}content")
        definition = content.find(f"{SRVB}serviceDefinition") if content is not None else None
        services.append(
            BoundService(
                name=svc.get(f"{SRVB}name", ""),
                version=content.get(f"{SRVB}version") if content is not None else None,
                service_definition=definition.get(f"{ADTCORE}name") if definition is not None else None,
                release_state=content.get(f"{SRVB}releaseState") if content is not None else None,
            )
        )
    published = root.get(f"{SRVB}published")
    return Output(
        name=info.name,
        uri=info.uri,
        package=info.package,
        description=info.description,
        binding_type=binding.get(f"{SRVB}type") if binding is not None else None,
        odata_version=binding.get(f"{SRVB}version") if binding is not None else None,
        published=None if published is None else published == "true",
        services=services,
    )


TOOL = Tool(
    name="get_service_binding",
    title="Service binding",
    description="A RAP service binding on the user's system: binding type (OData V2/V4, UI or Web API), published state and bound service definitions.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=MODERN,
    needs_system=True,
    example={"name": "ZUI_SALESORDER_O4"},
)
