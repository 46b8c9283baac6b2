"""search_tutorials: hands-on developers.sap.com tutorials for a topic."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sap_devs.live.tutorials import index as tutorials
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools._bounds import QUERY_MAX


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX,
        description="What to learn or do, e.g. 'deploy CAP to Cloud Foundry', 'RAP draft'.",
    )
    level: Literal["beginner", "intermediate", "advanced"] | None = Field(None, description="Only this level.")
    limit: int = limit_field(SEARCH_LIMIT, "tutorials")


class TutorialOut(BaseModel):
    slug: str
    title: str
    url: str
    description: str | None = None
    level: str | None = None
    time_minutes: int | None = Field(None, description="Estimated time to complete.")
    steps: int | None = None
    tags: list[str] = Field(default_factory=list)


Output = Envelope[TutorialOut]


_HIDDEN_SHOWN = 3
_WHY = {"withdrawn": "dropped from the site's tutorial list", "draft": "a draft"}


def hidden_note(index: list[tutorials.Tutorial], query: str, level: str | None, limit: int) -> str | None:
    """Name the unpublished tutorials that would rank among the first ``limit`` results, so a search
    for one says why it is missing instead of answering as if it did not exist."""
    ranked = tutorials.search(index, query, level=level, include_drafts=True)[:limit]
    hidden = [t for t in ranked if not t.live][:_HIDDEN_SHOWN]
    if not hidden:
        return None
    parts = [
        f"{t.slug} ('{t.title}'; {_WHY.get(t.status or '', 'not published')}"
        + (f", last seen in {t.repo}" if t.repo else "")
        + ")"
        for t in hidden
    ]
    return "Not shown because not published on developers.sap.com: " + "; ".join(parts) + "."


async def handle(params: Input, ctx: ToolContext) -> Output:
    snapshot = tutorials.load_index()
    hits = tutorials.search(snapshot.items, params.query, level=params.level)
    items = [
        TutorialOut(
            slug=t.slug,
            title=t.title,
            url=t.url,
            description=t.description,
            level=t.level,
            time_minutes=t.time_minutes,
            steps=t.steps,
            tags=t.tags,
        )
        for t in hits
    ]
    envelope = Output.build(items, limit=params.limit, entity="tutorials", query=params.query)
    envelope.add_note(hidden_note(snapshot.items, params.query, params.level, params.limit))
    return envelope.add_note(snapshot.hint("tutorial index"))


TOOL = Tool(
    name="search_tutorials",
    title="Search SAP developer tutorials",
    description=(
        "Search the 1,300+ developers.sap.com tutorials (CAP, ABAP, UI5, BTP, HANA, Integration, Build ...): title, level, time, URL, best match first."
    ),
    category="learning",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use search_tutorials to recommend step-by-step developers.sap.com tutorials.",
    example={"query": "deploy CAP application to Cloud Foundry", "limit": 5},
)
