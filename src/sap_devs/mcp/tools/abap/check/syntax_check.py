"""syntax_check: check an ABAP object, or source not yet saved, and return the messages."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind = Field(description="Object kind.")
    source: str | None = Field(
        None, max_length=2_000_000, description="Unsaved source to check instead of the saved one (nothing is written)."
    )


class CheckMessage(BaseModel):
    type: str = Field(description="E error, W warning, I information.")
    text: str
    line: int | None = None
    column: int | None = None
    code: str | None = None


class Output(ToolOutput):
    name: str
    errors: int
    warnings: int
    messages: list[CheckMessage]
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.checks import syntax_check

    found = await syntax_check(ctx.adt(), params.kind, params.name, source=params.source)
    messages = [CheckMessage(type=m.type, text=m.text, line=m.line, column=m.column, code=m.code) for m in found]
    errors = sum(m.type == "E" for m in messages)
    warnings = sum(m.type == "W" for m in messages)
    hint = "No syntax problems." if not messages else None
    return Output(name=params.name.upper(), errors=errors, warnings=warnings, messages=messages, hint=hint)


TOOL = Tool(
    name="syntax_check",
    title="ABAP syntax check",
    description="Run the ABAP syntax check on an object on the user's system, or on source you pass before saving it; errors and warnings with line and column.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class"},
)
