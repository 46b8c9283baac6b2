"""get_recent_news: the latest SAP Developer News episodes with their SAP Community posts."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.live.news import episodes as news
from sap_devs.mcp.framework import NEWS_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field


class Input(ToolInput):
    limit: int = limit_field(NEWS_LIMIT, "episodes, newest first,")


class EpisodeOut(BaseModel):
    title: str
    url: str = Field(description="YouTube URL of the episode.")
    published: str = Field(description="Publication time, RFC 3339.")
    community_url: str | None = Field(
        None, description="The episode's SAP Community post; pass it to get_news_detail for topics and links."
    )


Output = Envelope[EpisodeOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    snapshot = news.load()
    items = [
        EpisodeOut(title=e.title, url=e.url, published=e.published, community_url=e.community_url)
        for e in snapshot.items
    ]
    envelope = Output.build(items, limit=params.limit, entity="news episodes", refine_hint=False)
    return envelope.add_note(snapshot.hint("SAP Developer News list"))


TOOL = Tool(
    name="get_recent_news",
    title="Latest SAP Developer News",
    description=(
        "Latest SAP Developer News episodes, newest first: title, YouTube URL, date and SAP Community post (for get_news_detail)."
    ),
    category="news",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use get_recent_news when asked what is new in SAP development.",
    example={"limit": 3},
)
