"""format_source: the ABAP pretty printer with the system's settings (nothing is saved)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, BARE, NAME_PATTERN
from sap_devs.mcp.tools.abap.editor._position import ClassInclude, EditorKind, SourceRef, editor_target, saved_source


class Input(ToolInput):
    source: str | None = Field(None, max_length=2_000_000, description="ABAP source to format.")
    name: str | None = Field(None, max_length=120, pattern=NAME_PATTERN, description="Or a saved object.")
    kind: EditorKind | None = Field(None, description="Its kind.")
    include: ClassInclude | None = Field(None, description="A class's local include.", json_schema_extra=BARE)


class Output(ToolOutput):
    source: str
    changed: bool
    indentation: bool | None = Field(None, description="The system's setting; null if unknown.")
    style: str | None = Field(None, description="Keyword case, e.g. keywordUpper.")
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.prettyprint import pretty_print

    client = ctx.adt()
    source = params.source
    if source is None:
        if not (params.name and params.kind):
            raise ToolError("Give source, or name and kind of a saved object.")
        ref = SourceRef(name=params.name, kind=params.kind, include=params.include)
        source = await saved_source(ctx, ref, (await editor_target(ctx, ref)).uri)
    result = await pretty_print(client, source)
    hint = "Nothing was saved; save it with write_source." if result.source != source else "Already formatted."
    return Output(
        source=result.source,
        changed=result.source != source,
        indentation=result.indentation,
        style=result.style,
        hint=hint,
    )


TOOL = Tool(
    name="format_source",
    title="ABAP pretty printer",
    description="Format ABAP source with the system's pretty printer settings (indentation, keyword case); returns the text, saves nothing.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"source": "report zhello.\nwrite 'Hello'."},
)
