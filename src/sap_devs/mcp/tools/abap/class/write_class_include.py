"""write_class_include: replace a class's local definitions, implementations, macros or test classes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, BARE, name_field, saved, transport_field


class Input(ToolInput):
    name: str = name_field("Class name")
    include: Literal["testclasses", "definitions", "implementations", "macros"] = Field(
        description="testclasses is created when missing.", json_schema_extra=BARE
    )
    source: str = Field(min_length=1, max_length=2_000_000, description="The include's complete new source.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    include: str
    package: str
    transport: str | None = None
    created: bool
    lines_before: int
    lines_after: int
    unlocked: bool
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.includes import write_include

    report = await write_include(
        ctx.adt(), ctx.policy(), params.name, params.include, params.source, transport=params.transport
    )
    return Output(
        include=report.include,
        created=report.created,
        **saved(report, "Saved as inactive; activate the class, then run_unit_tests."),
    )


TOOL = Tool(
    name="write_class_include",
    title="Write unit tests or local includes",
    description="Add or replace a class's unit tests (test classes include, created if missing) or local definitions, implementations, macros; allowed packages.",
    category="abap",
    action="update",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=True, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={
        "name": "ZCL_SALES_ORDER",
        "include": "testclasses",
        "source": "CLASS ltc_order DEFINITION FOR TESTING ...",
    },
)
