"""write_source: replace an ABAP object's source, safely (hidden unless writes are enabled)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, name_field, saved, transport_field

Writable = Literal[
    "program",
    "include",
    "class",
    "interface",
    "cds_view",
    "behavior_definition",
    "metadata_extension",
    "service_definition",
    "table",
    "structure",
]


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Writable = Field(description="Object kind.")
    source: str = Field(min_length=1, max_length=2_000_000, description="The complete new source.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    transport: str | None = None
    lines_before: int
    lines_after: int
    unlocked: bool = Field(description="The lock was released; false means it ends with the server session.")
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.write import write_source

    report = await write_source(
        ctx.adt(), ctx.policy(), params.kind, params.name, params.source, transport=params.transport
    )
    return Output(
        uri=report.uri, **saved(report, "Saved as inactive; activate the object to make the change effective.")
    )


TOOL = Tool(
    name="write_source",
    title="Write ABAP source",
    description="Change the source code of an ABAP object in an allowed package: lock, write, unlock in one call; needs a transport outside local packages.",
    category="abap",
    action="update",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=True, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "source": "CLASS zcl_sales_order DEFINITION ..."},
)
