"""get_news_detail: topics, links and chapters of one SAP Developer News episode."""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from sap_devs.live.news import detail as news_detail
from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools._bounds import URL_MAX


class Input(ToolInput):
    community_url: str = Field(
        min_length=1,
        max_length=URL_MAX,
        description=(
            "The community_url of a get_recent_news result: an https://community.sap.com/ (or blogs.sap.com) post."
        ),
    )


class ItemOut(BaseModel):
    title: str
    links: list[str]


class ChapterOut(BaseModel):
    time: str = Field(description="Position in the video, m:ss or h:mm:ss.")
    title: str


class Output(ToolOutput):
    title: str
    community_url: str
    video_url: str | None = None
    published: str | None = None
    items: list[ItemOut] = Field(description="The episode's news items, each with its links.")
    chapters: list[ChapterOut]
    raw_content: str | None = Field(
        None, description="The post as markdown; only present when its items could not be recognised."
    )
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    base = ctx.endpoints.get("community")
    extra = frozenset({urlsplit(base).hostname or ""}) if base else frozenset()
    detail, note = await news_detail.get_detail(params.community_url, base=base, extra_hosts=extra)
    hint = note
    if detail.raw_content is not None:
        hint = " ".join(p for p in (note, "The post did not follow the usual layout; raw_content holds its text.") if p)
    return Output(
        title=detail.title,
        community_url=detail.community_url,
        video_url=detail.video_url,
        published=detail.published,
        items=[ItemOut(**i) for i in detail.items],
        chapters=[ChapterOut(**c) for c in detail.chapters],
        raw_content=detail.raw_content,
        hint=hint,
    )


TOOL = Tool(
    name="get_news_detail",
    title="SAP Developer News episode detail",
    description=(
        "Items with links and chapter times of one SAP Developer News episode, from its community_url (https community.sap.com or blogs.sap.com only)."
    ),
    category="news",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=True, destructive=False, idempotent=True, open_world=True),
    instruction="Use get_news_detail with a community_url from get_recent_news for an episode's topics and links.",
    example={
        "community_url": "https://community.sap.com/t5/developer-news/sap-developer-news-for-may-7th-2026/ba-p/14391439"
    },
)
