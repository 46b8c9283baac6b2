"""check_transport: before a change, which transport request it needs and who holds the object."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, BARE, NAME_PATTERN, Kind


class Input(ToolInput):
    name: str = Field(max_length=120, pattern=NAME_PATTERN, description="Object name.", json_schema_extra=BARE)
    kind: Kind = Field(description="Object kind; for a function module its group.")
    package: str | None = Field(None, max_length=30, pattern=r"^[A-Za-z0-9_/$]+$", description="For a new object.")


class Output(ToolOutput):
    name: str
    package: str | None = None
    transport_required: bool
    locked_in: dict[str, Any] | None = Field(None, description="Request (number, owner, tasks) already holding it.")
    requests: list[dict[str, str]] = Field(default_factory=list, description="Modifiable requests you may use.")
    messages: list[dict[str, str]] = Field(default_factory=list)
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.objects import object_uri
    from sap_devs.adt.transportcheck import check_transport

    uri = object_uri(params.kind, params.name)
    result = await check_transport(ctx.adt(), uri, package=params.package or "")
    errors = [m["text"] for m in result.messages if m["severity"] in ("E", "A", "X")]
    if errors:
        hint = "A change would fail: " + "; ".join(errors[:3])
    elif result.locked_in:
        hint = (
            f"Already in {result.locked_in.get('number')} of {result.locked_in.get('owner')}; pass that as transport."
        )
    elif result.recording:
        hint = "Pass one of requests as transport, or create_transport for a new one."
    else:
        hint = "Local object: no transport needed."
    return Output(
        name=params.name.upper(),
        package=result.package,
        transport_required=result.recording,
        locked_in=result.locked_in,
        requests=result.requests,
        messages=result.messages,
        hint=hint,
    )


TOOL = Tool(
    name="check_transport",
    title="Transport check",
    description="Before you edit: which transport a change needs, if any, who has the object locked in which request, which to use.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class"},
)
