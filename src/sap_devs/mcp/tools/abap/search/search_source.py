"""search_source: full-text search in the ABAP source code of the user's system."""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolError, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import MODERN


class Input(ToolInput):
    text: str = Field(min_length=2, max_length=200, description="Text to find, e.g. BAPI_USER_GET_DETAIL.")
    regex: str | None = Field(None, max_length=200, description="Keep only hit lines matching this regex.")
    package: str | None = Field(None, max_length=30, pattern=r"^[A-Za-z0-9_/$]+$", description="Only this package.")
    object_type: str | None = Field(
        None, min_length=4, max_length=4, pattern=r"^[A-Za-z]{4}$", description="Only this type, e.g. CLAS, PROG."
    )
    limit: int = limit_field(SEARCH_LIMIT, "objects")


class Hit(BaseModel):
    name: str
    type: str
    lines: list[str] = Field(description="'line: text' for each hit.")


Output = Envelope[Hit]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.textsearch import search_source

    pattern = None
    if params.regex:
        try:
            pattern = re.compile(params.regex, re.I)
        except re.error as exc:
            raise ToolError(f"regex is not valid: {exc}") from None
    found = await search_source(
        ctx.adt(), params.text, limit=params.limit, object_type=params.object_type, package=params.package
    )
    items = []
    for hit in found:
        lines = [(n, t) for n, t in hit.lines if pattern is None or pattern.search(t)]
        if lines or (pattern is None and not hit.lines):
            items.append(Hit(name=hit.name, type=hit.type, lines=[f"{n}: {t}" if n else t for n, t in lines[:20]]))
    return Output.build(items, limit=params.limit, entity="objects", query=params.text)


TOOL = Tool(
    name="search_source",
    title="Search ABAP source code",
    description="Full-text search in the ABAP source code of the user's system (where it has ADT's source search): the objects containing a text, with line numbers and lines, narrowed by package, object type or a regex.",
    category="abap",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    available_in=MODERN,
    needs_system=True,
    example={"text": "BAPI_USER_GET_DETAIL", "package": "ZSALES"},
)
