"""search_tools: find the sap-devs operation for a task, ranked, with facets to narrow down."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import (
    SEARCH_LIMIT,
    Action,
    Environment,
    Risk,
    Tool,
    ToolContext,
    ToolInput,
    ToolOutput,
    ToolSpec,
    limit_field,
)
from sap_devs.mcp.tools._bounds import ID_MAX, QUERY_MAX
from sap_devs.mcp.tools.meta._common import catalogue
from sap_devs.search import Field as SearchField
from sap_devs.search import index_for


class Input(ToolInput):
    query: str | None = Field(
        None,
        min_length=1,
        max_length=QUERY_MAX,
        description="The task in words, e.g. 'find a tutorial', 'explain an error message'.",
    )
    category: str | None = Field(
        None, min_length=1, max_length=ID_MAX, description="e.g. knowledge, learning, doctor, abap."
    )
    action: Action | None = Field(None, description="Kind of operation.")
    environment: Environment | None = Field(None, description="SAP system type the operation must support.")
    risk: Risk | None = Field(None, description="Risk level.")
    limit: int = limit_field(SEARCH_LIMIT, "operations")
    offset: int = Field(0, ge=0, le=1000, description="Results to skip when has_more was true.")


class ToolSummary(BaseModel):
    name: str
    title: str
    summary: str
    category: str
    action: str
    risk: str
    environments: list[str]
    input_type: str = Field(description="Name of the input type; get_tool_schemas returns its JSON Schema.")
    output_type: str | None = None


class Facets(BaseModel):
    category: dict[str, int]
    action: dict[str, int]
    risk: dict[str, int]


class Output(ToolOutput):
    count: int
    total: int
    results: list[ToolSummary]
    facets: Facets = Field(description="Counts of the matching operations per category, action and risk.")
    has_more: bool
    hint: str | None = None


def _text(spec: ToolSpec) -> dict[str, str]:
    params = spec.input_schema.get("properties", {})
    return {
        "name": spec.name.replace("_", " "),
        "title": spec.title,
        "description": spec.description,
        "params": " ".join(f"{n.replace('_', ' ')} {p.get('description', '')}" for n, p in params.items()),
    }


def _summary(spec: ToolSpec) -> ToolSummary:
    return ToolSummary(
        name=spec.name,
        title=spec.title,
        summary=spec.summary,
        category=spec.category,
        action=spec.action,
        risk=spec.risk,
        environments=sorted(spec.available_in),
        input_type=f"{spec.name}.input",
        output_type=f"{spec.name}.output" if spec.output_schema else None,
    )


async def handle(params: Input, ctx: ToolContext) -> Output:
    specs = catalogue(ctx)

    def allowed(spec: ToolSpec) -> bool:
        return (
            (params.category is None or spec.category == params.category)
            and (params.action is None or spec.action == params.action)
            and (params.risk is None or spec.risk == params.risk)
            and (params.environment is None or spec.available(params.environment))
        )

    if params.query:
        fields = [
            SearchField("name", 3.0),
            SearchField("title", 2.5),
            SearchField("description", 1.0),
            SearchField("params", 0.5),
        ]
        matches = index_for(specs, fields, _text, id_of=lambda s: s.name).search(params.query, allow=allowed)
    else:
        matches = sorted((s for s in specs if allowed(s)), key=lambda s: (s.category, s.name))
    page = matches[params.offset : params.offset + params.limit]
    facets = Facets(
        category=dict(Counter(s.category for s in matches)),
        action=dict(Counter(s.action for s in matches)),
        risk=dict(Counter(s.risk for s in matches)),
    )
    has_more = params.offset + len(page) < len(matches)
    hint = None
    if not matches:
        hint = "No operation matched. Try other words, or drop a filter; omit query to list everything."
    elif has_more:
        hint = f"More results: call again with offset={params.offset + len(page)}."
    return Output(
        count=len(page),
        total=len(matches),
        results=[_summary(s) for s in page],
        facets=facets,
        has_more=has_more,
        hint=hint,
    )


TOOL = Tool(
    name="search_tools",
    title="Search sap-devs operations",
    description=(
        "Find the sap-devs operation for a task, ranked, filterable by category, action, risk and environment, with facets and paging. Next: get_tool_schemas, then call_tool."
    ),
    category="meta",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    progressive_only=True,
    instruction="Use search_tools to find the right operation for the task.",
    example={"query": "find a tutorial"},
)
