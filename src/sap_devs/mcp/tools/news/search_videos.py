"""search_videos: SAP developer videos from the SAP Developers YouTube channel and playlists."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.live.videos import catalogue as videos
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools._bounds import ID_MAX, QUERY_MAX


class Input(ToolInput):
    query: str | None = Field(
        None,
        min_length=1,
        max_length=QUERY_MAX,
        description="Words to look for, e.g. 'CAP', 'ABAP Cloud', 'Joule'. Omit for the newest.",
    )
    source: str | None = Field(
        None,
        min_length=1,
        max_length=ID_MAX,
        description="Source id, e.g. 'sap-dev-news', 'sap-developers'.",
    )
    limit: int = limit_field(SEARCH_LIMIT, "videos")


class VideoOut(BaseModel):
    id: str
    title: str
    url: str
    published: str
    source: str
    description: str = Field("", description="Start of the video description.")
    tags: list[str] = Field(default_factory=list)


Output = Envelope[VideoOut]
SNIPPET = 300


async def handle(params: Input, ctx: ToolContext) -> Output:
    snapshot = videos.load()
    hits = videos.search(snapshot.items, params.query, source=params.source)
    items = [
        VideoOut(
            id=v.id,
            title=v.title,
            url=v.url,
            published=v.published,
            source=v.source,
            description=v.description[:SNIPPET] + ("..." if len(v.description) > SNIPPET else ""),
            tags=v.tags,
        )
        for v in hits
    ]
    envelope = Output.build(
        items, limit=params.limit, entity="videos", query=params.query, refine_hint=params.query is not None
    )
    return envelope.add_note(snapshot.hint("video list"))


TOOL = Tool(
    name="search_videos",
    title="Search SAP developer videos",
    description=(
        "Search SAP developer videos on YouTube (SAP Developers channel, Developer News): title, URL, date; newest first without a query."
    ),
    category="news",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use search_videos when the user wants SAP video content.",
    example={"query": "ABAP"},
)
