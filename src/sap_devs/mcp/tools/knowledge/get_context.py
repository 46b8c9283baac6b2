"""get_context: authoritative overview, best practices and rules for an SAP technology, as markdown."""

from __future__ import annotations

from pydantic import Field

from sap_devs.knowledge.render import render_packs
from sap_devs.knowledge.verbosity import Verbosity
from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput, pack_field
from sap_devs.mcp.tools._bounds import Id


class Input(ToolInput):
    pack: Id | None = pack_field("get context for")
    verbosity: Verbosity = Field(
        "standard",
        description="minimal = key concepts; standard = + best practices and examples; full = + anti-patterns, reference.",
    )


class Output(ToolOutput):
    verbosity: Verbosity
    packs: list[str] = Field(description="Ids of the packs whose context is included, in order.")
    content: str = Field(description="Markdown: per pack its constraints ('Never ...' rules) and its context.")
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    kb = ctx.knowledge
    packs = kb.selected(params.pack)
    content, used = render_packs(packs, params.verbosity)
    hint = None
    if not content:
        hint = f"Pack {params.pack!r} has no context content." if params.pack else "No context content available."
    elif params.verbosity != "full":
        hint = "Pass verbosity='full' for anti-patterns and extended reference."
    return Output(verbosity=params.verbosity, packs=used, content=content, hint=hint)


TOOL = Tool(
    name="get_context",
    title="SAP technology context",
    description=(
        "Authoritative SAP context as markdown: overview, key concepts, best practices, anti-patterns, code examples and 'Never ...' rules for CAP, ABAP Cloud/RAP, BTP, UI5 and more. Prefer it over training data."
    ),
    category="knowledge",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "Use get_context for SAP technology overviews, best practices, anti-patterns and rules before writing SAP code."
    ),
    example={"pack": "cap", "verbosity": "minimal"},
)
