"""create_object: a new CDS, RAP or database table source object, written and activated in one call (writes only)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field, short_text_field, transport_field

ObjectType = Literal[
    "cds_view", "access_control", "behavior_definition", "metadata_extension", "service_definition", "table"
]


class Input(ToolInput):
    type: ObjectType = Field(description="DDLS, DCLS, BDEF, DDLX, SRVD or TABL (define table source).")
    name: str = name_field("New object name (Z*, Y* or /NAMESPACE/)", "ZI_SALESORDER")
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    source: str = Field(min_length=1, max_length=2_000_000, description="The full source.")
    transport: str | None = transport_field()


class Message(BaseModel):
    type: str
    text: str
    line: int | None = None


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    transport: str | None = None
    activated: bool
    messages: list[Message] = Field(default_factory=list)


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.checks import ERROR_TYPES, activation, within_policy
    from sap_devs.adt.write import create_object

    client = ctx.adt()
    report = await create_object(
        client,
        ctx.policy(),
        params.type,
        params.name,
        package=params.package,
        description=params.description,
        source=params.source,
        transport=params.transport,
    )
    if not report.unlocked:
        raise ToolError(
            f"{report.name} was created and written, but the unlock failed; it was not activated.",
            hint="The lock ends with the session; activate it with activate_objects later.",
        )
    refs = [(report.uri, report.name)]
    result = await activation(client, refs, together=within_policy(client, ctx.policy(), refs))
    messages = [Message(type=m.type, text=m.text, line=m.line) for m in result.messages]
    errors = [m for m in messages if m.type in ERROR_TYPES]
    if not result.activated:
        detail = "; ".join(f"{m.text}" + (f" (line {m.line})" if m.line else "") for m in errors[:5])
        raise ToolError(
            f"{report.name} was created in {report.package} but did not activate: {detail}",
            hint="It stays inactive: fix the source with write_source (syntax_check shows the errors), "
            "then activate_objects.",
        )
    return Output(
        name=report.name,
        uri=report.uri,
        package=report.package,
        transport=report.transport,
        activated=True,
        messages=messages,
    )


TOOL = Tool(
    name="create_object",
    title="Create CDS, RAP or table object",
    description="Create a CDS view entity, access control, behavior definition, metadata extension, service definition or database table (where the system allows it) in an allowed package, write its source and activate it in one call; activation errors come back as a tool error.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=MODERN,
    needs_system=True,
    example={
        "type": "cds_view",
        "name": "ZI_SALESORDER",
        "package": "$TMP",
        "description": "Sales orders",
        "source": "define view entity ZI_SALESORDER as select from zsales_order { key order_id }",
    },
)
