"""get_atc_finding_docs: the documentation of the check behind one ATC finding."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS

MAX_CHARS = 20000


class Input(ToolInput):
    docs_uri: str = Field(
        min_length=20,
        max_length=1000,
        pattern=r"^/sap/bc/adt/documentation/atc/[A-Za-z0-9_/%.=;,$-]+$",
        description="A finding's docs_uri from run_atc.",
    )


class Output(ToolOutput):
    docs_uri: str
    text: str
    truncated: bool = False


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.atc import finding_docs

    text = await finding_docs(ctx.adt(), params.docs_uri)
    return Output(docs_uri=params.docs_uri, text=text[:MAX_CHARS], truncated=len(text) > MAX_CHARS)


TOOL = Tool(
    name="get_atc_finding_docs",
    title="ATC finding documentation",
    description="The system's documentation for one ATC finding (what the check looks for, why it matters, how to fix or exempt it), as plain text; pass the docs_uri that run_atc returned.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"docs_uri": "/sap/bc/adt/documentation/atc/documents/itemid/A32FC0C4E8521EDDB1F11923DA6F0C5A/index/9"},
)
