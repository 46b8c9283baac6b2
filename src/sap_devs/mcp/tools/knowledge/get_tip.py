"""get_tip: one practical SAP developer tip, random on every call."""

from __future__ import annotations

from pydantic import Field

from sap_devs.knowledge.tip_select import pick_tip, tip_tags
from sap_devs.mcp.framework import READ_ONLY_RANDOM, Tool, ToolContext, ToolError, ToolInput, ToolOutput


class Input(ToolInput):
    topic: str | None = Field(
        None,
        min_length=1,
        description=(
            "Topic tag to pick from, e.g. 'cap', 'abap', 'rap', 'btp', 'cf', 'security', 'testing'. A word that "
            "is not a tag matches tips mentioning it. Omit to use the active profile's preferred tags."
        ),
    )


class Output(ToolOutput):
    title: str
    content: str = Field(description="The tip as markdown.")
    tags: list[str]
    pack: str = Field(description="Id of the pack the tip comes from.")


async def handle(params: Input, ctx: ToolContext) -> Output:
    kb = ctx.knowledge
    tip = pick_tip(kb, params.topic)
    if tip is None:
        tags = ", ".join(tip_tags(kb)) or "none"
        raise ToolError(
            f"No tip matches topic {params.topic!r}." if params.topic else "No tips are available.",
            hint=f"Tags with tips: {tags}.",
        )
    return Output(title=tip.title, content=tip.content, tags=tip.tags, pack=tip.pack)


TOOL = Tool(
    name="get_tip",
    title="SAP developer tip",
    description=(
        "Get one practical SAP developer tip (title, markdown content, tags, pack), chosen at random on each "
        "call. Filter with 'topic' (a tag such as 'cap', 'rap', 'btp' or any word). Good for a quick reminder "
        "or for learning something new about the user's SAP stack."
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
