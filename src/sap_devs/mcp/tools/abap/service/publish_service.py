"""publish_service: publish (or unpublish) a RAP service binding's service (writes only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field


class Input(ToolInput):
    name: str = name_field("Service binding name", "ZUI_SALESORDER_O4")
    unpublish: bool = Field(False, description="Take the service back instead.")


class Output(ToolOutput):
    binding: str
    service: str
    version: str | None = None
    published: bool
    message: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.services import publish

    result = await publish(ctx.adt(), ctx.policy(), params.name, unpublish=params.unpublish)
    if result.severity.upper() not in ("OK", "SUCCESS", "S", "I", "W", "WARNING", "INFO"):
        detail = f"{result.text} {result.long_text}".strip() or result.severity
        raise ToolError(
            f"{'Unpublishing' if params.unpublish else 'Publishing'} {result.binding} failed: {detail}",
            hint="Check that the binding and its service definition are active (activate_objects).",
        )
    return Output(
        binding=result.binding,
        service=result.service,
        version=result.version,
        published=not params.unpublish,
        message=result.text,
    )


TOOL = Tool(
    name="publish_service",
    title="Publish RAP OData service",
    description="Publish (or unpublish) the OData V2 or V4 service of a RAP binding in an allowed package on the user's system, so the service endpoint and its Fiori preview go live; the system's message comes back.",
    category="abap",
    action="update",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=True, open_world=True),
    available_in=MODERN,
    needs_system=True,
    example={"name": "ZUI_SALESORDER_O4"},
)
