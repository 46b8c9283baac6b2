"""search_learning_journeys: structured learning paths from learning.sap.com."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sap_devs.live.learning import journeys as learning
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools._bounds import QUERY_MAX


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX,
        description="Topic or role, e.g. 'ABAP Cloud', 'SAP BTP administrator', 'SAP Build Apps'.",
    )
    level: Literal["beginner", "intermediate", "advanced"] | None = Field(None, description="Only this level.")
    limit: int = limit_field(SEARCH_LIMIT, "learning journeys")


class JourneyOut(BaseModel):
    slug: str
    title: str
    url: str
    level: str | None = None
    duration_hours: float | None = None
    roles: list[str] = Field(default_factory=list)
    description: str = ""


Output = Envelope[JourneyOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    snapshot = learning.load()
    if snapshot is None:
        return Output.build(
            [],
            limit=params.limit,
            entity="learning journeys",
            hint=(
                "No learning journeys cached yet: run `sap-devs sync --only learning` to fetch the learning.sap.com "
                "catalogue. Meanwhile search_tutorials covers hands-on tutorials offline."
            ),
        )
    hits = learning.search(snapshot.items, params.query, level=params.level)
    items = [
        JourneyOut(
            slug=j.slug,
            title=j.title,
            url=j.url,
            level=j.level,
            duration_hours=j.duration_hours,
            roles=j.roles,
            description=j.description,
        )
        for j in hits
    ]
    envelope = Output.build(items, limit=params.limit, entity="learning journeys", query=params.query)
    return envelope.add_note(snapshot.hint("learning journey catalogue"))


TOOL = Tool(
    name="search_learning_journeys",
    title="Search SAP learning journeys",
    description=(
        "Search learning.sap.com learning journeys (role-based paths with level and duration). Needs one `sap-devs sync` for the catalogue."
    ),
    category="learning",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use search_learning_journeys for structured learning paths on learning.sap.com.",
    example={"query": "ABAP Cloud"},
)
