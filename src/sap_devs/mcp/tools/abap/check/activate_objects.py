"""activate_objects: activate saved ABAP objects together (a change to the system: writes must be on)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field


class ObjectRef(BaseModel):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind


class Input(ToolInput):
    objects: list[ObjectRef] = Field(min_length=1, max_length=50, description="Objects to activate together.")


class Message(BaseModel):
    type: str
    text: str
    line: int | None = None


class Output(ToolOutput):
    activated: bool
    objects: list[str]
    messages: list[Message]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.checks import ERROR_TYPES, activation, within_policy
    from sap_devs.adt.objects import object_uri, read_info

    client, policy = ctx.adt(), ctx.policy()
    refs = []
    for obj in params.objects:
        info = await read_info(client, obj.kind, obj.name)
        policy.check_write(info.package, info.name)
        refs.append((object_uri(obj.kind, obj.name), info.name))
    result = await activation(client, refs, together=within_policy(client, policy, refs))
    messages = [Message(type=m.type, text=m.text, line=m.line) for m in result.messages]
    if not result.activated:
        text = "; ".join(m.text for m in messages[:10] if m.type in ERROR_TYPES)
        raise ToolError(
            f"Activation failed: {text}",
            hint="Fix the errors (syntax_check shows them), or activate the named objects together, and activate again.",
        )
    return Output(activated=True, objects=[name for _, name in refs], messages=messages)


TOOL = Tool(
    name="activate_objects",
    title="Activate ABAP objects",
    description="Activate saved ABAP objects in allowed packages together (mass activation); activation errors come back as a tool error.",
    category="abap",
    action="execute",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=True, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"objects": [{"name": "ZCL_SALES_ORDER", "kind": "class"}]},
)
