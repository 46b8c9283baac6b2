"""get_class: a global ABAP class with its local definitions, implementations and test classes."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, SourceInput, SourceOutput, read


class Input(SourceInput):
    includes: bool = Field(True, description="Also return local definitions, implementations and test classes.")


class Output(SourceOutput):
    local_includes: dict[str, str] = Field(
        default_factory=dict, description="definitions, implementations, macros, testclasses: their source."
    )


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.objects import read_class_includes

    main = await read(ctx, "class", params)
    local = await read_class_includes(ctx.adt(), params.name, params.version) if params.includes else {}
    return Output(**main.model_dump(), local_includes=local)


TOOL = Tool(
    name="get_class",
    title="ABAP class source",
    description="Source of a global ABAP class from the user's system, plus its local definitions, implementations and test classes.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER"},
)
