"""get_tip: one practical SAP developer tip, random on every call."""

from __future__ import annotations

from pydantic import Field

from sap_devs.knowledge.tip_select import pick_tip, tip_tags
from sap_devs.mcp.framework import READ_ONLY_RANDOM, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools._bounds import TOPIC_MAX
from sap_devs.mcp.tools._origin import origin_field, origin_of


class Input(ToolInput):
    topic: str | None = Field(
        None,
        min_length=1,
        max_length=TOPIC_MAX,
        description="A tag (cap, rap, btp, cf, security ...) or any word; omit for the profile's tags.",
    )


class Output(ToolOutput):
    title: str
    content: str = Field(description="The tip as markdown.")
    tags: list[str]
    pack: str = Field(description="Id of the pack the tip comes from.")
    origin: str | None = origin_field()


async def handle(params: Input, ctx: ToolContext) -> Output:
    kb = ctx.knowledge
    tip = pick_tip(kb, params.topic)
    if tip is None:
        tags = ", ".join(tip_tags(kb)) or "none"
        raise ToolError(
            f"No tip matches topic {params.topic!r}." if params.topic else "No tips are available.",
            hint=f"Tags with tips: {tags}.",
        )
    return Output(title=tip.title, content=tip.content, tags=tip.tags, pack=tip.pack, origin=origin_of(tip))


TOOL = Tool(
    name="get_tip",
    title="SAP developer tip",
    description=(
        "One practical SAP developer tip (title, markdown, tags, pack), random on each call; 'topic' picks a tag such as cap, rap or btp."
    ),
    category="knowledge",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    annotations=READ_ONLY_RANDOM,
    instruction="Use get_tip for a quick practical reminder on an SAP topic.",
    example={"topic": "cap"},
)
