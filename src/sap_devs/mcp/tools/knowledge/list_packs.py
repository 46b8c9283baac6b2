"""list_packs: the content packs loaded for this profile, with what each holds."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field


class Input(ToolInput):
    limit: int = limit_field(LIST_LIMIT, "packs")


class PackCounts(BaseModel):
    tips: int
    resources: int
    known_errors: int
    samples: int
    tools: int
    events: int


class PackSummary(BaseModel):
    id: str = Field(description="Pack id, valid wherever a tool takes a 'pack' parameter.")
    name: str
    description: str
    tags: list[str]
    base: bool = Field(description="Base packs are always active and listed first.")
    layer: str = Field(description="Where the pack came from: bundled, official, company, user or project.")
    counts: PackCounts


Output = Envelope[PackSummary]


async def handle(params: Input, ctx: ToolContext) -> Output:
    kb = ctx.knowledge
    items = [
        PackSummary(
            id=p.id,
            name=p.meta.name,
            description=p.meta.description,
            tags=p.meta.tags,
            base=p.meta.base,
            layer=p.layer,
            counts=PackCounts(
                tips=len(p.tips),
                resources=len(p.resources),
                known_errors=len(p.known_errors),
                samples=len(p.samples),
                tools=len(p.tools),
                events=len(p.event_instances),
            ),
        )
        for p in kb.packs
    ]
    hint = None
    if kb.problems:
        hint = "Some content could not be loaded: " + " | ".join(kb.problems)
    return Output.build(items, limit=params.limit, entity="packs", hint=hint)


TOOL = Tool(
    name="list_packs",
    title="List SAP content packs",
    description=(
        "List the SAP content packs (id, name, description, tags, item counts). Use it to find valid pack ids for other tools' 'pack' parameter."
    ),
    category="knowledge",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use list_packs to see which SAP topics are covered and the valid pack ids.",
    example={},
)
