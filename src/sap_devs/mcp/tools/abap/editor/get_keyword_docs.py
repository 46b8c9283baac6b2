"""get_keyword_docs: the F1 ABAP keyword documentation for the statement at a position."""

from __future__ import annotations

from sap_devs.mcp.framework import Tool, ToolContext, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS
from sap_devs.mcp.tools.abap.editor._position import PositionInput, position_source


class Output(ToolOutput):
    text: str
    truncated: bool
    hint: str | None = None


async def handle(params: PositionInput, ctx: ToolContext) -> Output:
    from sap_devs.adt.codeassist import keyword_docs

    target, source = await position_source(ctx, params)
    uri = target.uri
    client = ctx.adt()
    text, cut = await keyword_docs(
        client, uri, source, params.line, params.column, language=client.config.language or "EN"
    )
    hint = "Cut at 60,000 characters; search_docs finds the ABAP cheat sheets too." if cut else None
    return Output(text=text, truncated=cut, hint=hint)


TOOL = Tool(
    name="get_keyword_docs",
    title="ABAP F1 keyword documentation",
    description="F1 help: the ABAP keyword documentation of the statement at a line and column, as text.",
    category="abap",
    action="read",
    input=PositionInput,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "line": 12, "column": 4},
)
