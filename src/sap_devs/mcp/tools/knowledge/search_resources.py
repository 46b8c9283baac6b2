"""search_resources: curated links to official SAP documentation, samples, tools and guides."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.knowledge.models import ResourceType
from sap_devs.knowledge.queries import find_resources
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field, pack_field
from sap_devs.mcp.tools._bounds import QUERY_MAX, Id
from sap_devs.mcp.tools._origin import origin_field, origin_of


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX,
        description="What to look for, e.g. 'deploy CAP to Cloud Foundry', 'xsuaa role collections'.",
    )
    pack: Id | None = pack_field("search in")
    type: ResourceType | None = Field(None, description="Only resources of this type.")
    limit: int = limit_field(SEARCH_LIMIT, "resources")


class ResourceOut(BaseModel):
    id: str
    title: str
    url: str
    type: str
    tags: list[str]
    description: str | None = None
    pack: str
    origin: str | None = origin_field()


Output = Envelope[ResourceOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    hits = find_resources(ctx.knowledge, params.query, pack=params.pack, type=params.type)
    items = [
        ResourceOut(
            id=r.id,
            title=r.title,
            url=r.url,
            type=r.type,
            tags=r.tags,
            description=r.description,
            pack=pack,
            origin=origin_of(r, r.url),
        )
        for pack, r in hits
    ]
    return Output.build(items, limit=params.limit, entity="resources", query=params.query)


TOOL = Tool(
    name="search_resources",
    title="Search SAP resources",
    description=(
        "Find official SAP documentation, samples and tool pages for a topic, with direct URLs, best match first. Use it instead of guessing SAP links."
    ),
    category="knowledge",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use search_resources to find official SAP documentation links; never invent SAP URLs.",
    example={"query": "deploy CAP application to Cloud Foundry"},
)
