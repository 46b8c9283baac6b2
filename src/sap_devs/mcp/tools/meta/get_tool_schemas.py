"""get_tool_schemas: the input and output types of operations found with search_tools."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools._bounds import Id
from sap_devs.mcp.tools.meta._common import catalogue, unknown_tool


class Input(ToolInput):
    names: list[Id] = Field(
        min_length=1, max_length=20, description="Operation names from search_tools, e.g. ['search_tutorials']."
    )


class ExampleCall(BaseModel):
    name: str
    arguments: dict[str, Any]


class ToolSchema(BaseModel):
    name: str
    title: str
    description: str
    action: str
    risk: str
    input_schema: dict[str, Any] = Field(description="JSON Schema of the arguments.")
    output_schema: dict[str, Any] | None = Field(None, description="JSON Schema of the structured result.")
    annotations: dict[str, bool]
    example: ExampleCall = Field(description="A valid call_tool request for this operation.")


class Output(ToolOutput):
    schemas: list[ToolSchema]


async def handle(params: Input, ctx: ToolContext) -> Output:
    specs = {s.name: s for s in catalogue(ctx)}
    out = []
    for name in dict.fromkeys(params.names):
        spec = specs.get(name)
        if spec is None:
            raise unknown_tool(name, list(specs.values()))
        a = spec.annotations
        out.append(
            ToolSchema(
                name=spec.name,
                title=spec.title,
                description=spec.description,
                action=spec.action,
                risk=spec.risk,
                input_schema=spec.input_schema,
                output_schema=spec.output_schema,
                annotations={
                    "readOnlyHint": a.read_only,
                    "destructiveHint": a.destructive,
                    "idempotentHint": a.idempotent,
                    "openWorldHint": a.open_world,
                },
                example=ExampleCall(name=spec.name, arguments=spec.example),
            )
        )
    return Output(schemas=out)


TOOL = Tool(
    name="get_tool_schemas",
    title="Get operation schemas",
    description=(
        "JSON Schemas (input, output), annotations and an example call for operations found with search_tools; unknown names list the closest ones."
    ),
    category="meta",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    progressive_only=True,
    instruction="Use get_tool_schemas to see an operation's parameters before calling it.",
    example={"names": ["search_tutorials"]},
)
