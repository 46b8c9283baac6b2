"""call_tool: run a sap-devs operation by name, with the same validation and result as a direct call."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput
from sap_devs.mcp.tools._bounds import ARGUMENTS_MAX, ID_MAX
from sap_devs.mcp.tools.meta._common import catalogue, unknown_tool


class Input(ToolInput):
    name: str = Field(
        min_length=1, max_length=ID_MAX, description="Operation name from search_tools, e.g. 'search_tutorials'."
    )
    arguments: dict[str, Any] = Field(
        default_factory=dict,
        max_length=ARGUMENTS_MAX,
        description="Arguments matching the operation's input schema (see get_tool_schemas).",
    )


async def handle(params: Input, ctx: ToolContext) -> Any:
    from sap_devs.mcp.dispatch import invoke

    specs = catalogue(ctx)
    if params.name not in {s.name for s in specs}:
        raise unknown_tool(params.name, specs)
    tool = ctx.registry.get(params.name)
    return await invoke(tool, params.arguments, ctx)


TOOL = Tool(
    name="call_tool",
    title="Call an sap-devs operation",
    description=(
        "Run a sap-devs operation by name with arguments matching its schema; returns exactly what a direct call returns."
    ),
    category="meta",
    action="execute",
    risk="low",  # it can only reach operations this server exposes, under the same policy
    input=Input,
    output=None,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    progressive_only=True,
    instruction="Use call_tool to run the operation with arguments that match its schema.",
    example={"name": "get_known_errors", "arguments": {"query": "cds: command not found"}},
)
