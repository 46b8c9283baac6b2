"""get_samples: canonical SAP sample repositories to copy patterns from."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.knowledge.queries import find_samples
from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field, pack_field
from sap_devs.mcp.tools._bounds import QUERY_MAX, Id
from sap_devs.mcp.tools._origin import origin_field, origin_of


class Input(ToolInput):
    query: str | None = Field(
        None,
        min_length=1,
        max_length=QUERY_MAX,
        description="Optional words to rank samples by, e.g. 'multitenant', 'RAP flight', 'CAP Java'.",
    )
    pack: Id | None = pack_field("list samples of")
    limit: int = limit_field(LIST_LIMIT, "samples")


class SampleOut(BaseModel):
    id: str
    label: str
    url: str
    description: str
    tags: list[str]
    pack: str
    origin: str | None = origin_field()


Output = Envelope[SampleOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    hits = find_samples(ctx.knowledge, params.query, pack=params.pack)
    items = [
        SampleOut(
            id=s.id,
            label=s.label,
            url=s.url,
            description=s.description,
            tags=s.tags,
            pack=pack,
            origin=origin_of(s, s.url),
        )
        for pack, s in hits
    ]
    return Output.build(items, limit=params.limit, entity="samples", query=params.query)


TOOL = Tool(
    name="get_samples",
    title="Canonical SAP code samples",
    description=(
        "Canonical SAP sample repositories (CAP, RAP, BTP, Fiori ...) to copy patterns from; prefer them over generating SAP code from memory."
    ),
    category="knowledge",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use get_samples for canonical SAP code patterns; prefer them over generating from memory.",
    example={"pack": "cap"},
)
