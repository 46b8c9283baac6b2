"""get_known_errors: cause and fix for an SAP error message the developer ran into."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.knowledge.queries import find_known_errors
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field, pack_field
from sap_devs.mcp.tools._bounds import ERROR_MESSAGE_MAX, Id
from sap_devs.mcp.tools._origin import origin_field, origin_of


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=ERROR_MESSAGE_MAX,
        description="The error message as seen (paste it whole) or its key phrase, e.g. 'SQL error 258'.",
    )
    pack: Id | None = pack_field("search in")
    limit: int = limit_field(SEARCH_LIMIT, "known errors")


class KnownErrorOut(BaseModel):
    id: str
    pattern: str = Field(description="The message as developers see it.")
    cause: str = Field(description="Why it happens.")
    fix: str = Field(description="Concrete steps or commands that resolve it.")
    docs: str | None = Field(None, description="The page that explains it.")
    tags: list[str]
    pack: str
    origin: str | None = origin_field()


Output = Envelope[KnownErrorOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    hits = find_known_errors(ctx.knowledge, params.query, pack=params.pack)
    items = [
        KnownErrorOut(
            id=e.id,
            pattern=e.pattern,
            cause=e.cause,
            fix=e.fix,
            docs=e.docs,
            tags=e.tags,
            pack=pack,
            origin=origin_of(e, e.docs),
        )
        for pack, e in hits
    ]
    return Output.build(items, limit=params.limit, entity="known errors", query=params.query)


TOOL = Tool(
    name="get_known_errors",
    title="Known SAP error patterns",
    description=(
        "Root cause, fix and docs link for an SAP error message (CAP, CF, MTA, XSUAA, HANA, HDI, ABAP, RAP, UI5, Integration). ALWAYS call it first when the user hits an SAP error: paste the message."
    ),
    category="knowledge",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "ALWAYS use get_known_errors first when the user encounters an SAP error message, before diagnosing "
        "from memory."
    ),
    example={"query": "SQL error 258: insufficient privilege: Not authorized"},
)
