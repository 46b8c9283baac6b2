"""sap-devs tools as a typed Python API, for agents (and people) that write code against the library.

    from sap_devs import tools

    hits = tools.call("search_tutorials", query="deploy CAP application to Cloud Foundry", limit=3)
    for t in hits.results:
        print(t.title, t.url)

    tools.search("explain an SAP error message")   # the same ranking as the search_tools MCP tool
    tools.schema("get_known_errors")               # input and output JSON Schemas, example call

``call`` validates the arguments exactly as the MCP server does and returns the tool's output model;
a tool error raises ``ToolCallError`` with the message an agent would see. Inside a running event
loop use ``await tools.acall(...)``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sap_devs.core.errors import SapDevsError

_state: dict[str, Any] = {}


class ToolCallError(SapDevsError):
    """The tool answered with an error (bad arguments, unknown pack, unreachable source ...)."""


def _context() -> Any:
    if "ctx" not in _state:
        from sap_devs.adt.config import deferred_errors
        from sap_devs.mcp.session import open_session

        with deferred_errors():  # a broken ABAP setting fails the ABAP tools only, each saying what to fix
            _, _state["ctx"] = open_session(profile=os.environ.get("SAP_DEVS_PROFILE"), cwd=Path(os.getcwd()))
    return _state["ctx"]


def names() -> list[str]:
    """Every operation available in this environment."""
    return [s.name for s in _context().registry.operations()]


async def acall(name: str, /, **arguments: Any) -> Any:
    """Run a tool and return its output model (see ``call``)."""
    from sap_devs.mcp.dispatch import invoke

    ctx = _context()
    tool = ctx.registry.get(name)
    if tool is None or tool.progressive_only:
        raise ToolCallError(f"Unknown tool {name!r}.", hint=f"Available: {', '.join(names())}.")
    outcome = await invoke(tool, arguments, ctx)
    if outcome.is_error:
        raise ToolCallError(outcome.text)
    return tool.output.model_validate(outcome.structured)


def call(name: str, /, **arguments: Any) -> Any:
    """Run a tool by name with keyword arguments; returns its pydantic output model."""
    import anyio

    return anyio.run(lambda: acall(name, **arguments))


def search(query: str | None = None, **filters: Any) -> Any:
    """Operations matching a task description, as the search_tools MCP tool returns them."""
    return _meta("search_tools", query=query, **filters)


def schema(name: str) -> Any:
    """Input and output JSON Schemas, annotations and an example call of one operation."""
    return _meta("get_tool_schemas", names=[name]).schemas[0]


def _meta(name: str, **arguments: Any) -> Any:
    import anyio

    from sap_devs.mcp.dispatch import invoke
    from sap_devs.mcp.registry import discover

    ctx = _context()
    tool = next(t for t in discover("sap_devs.mcp.tools.meta") if t.name == name)
    args = {k: v for k, v in arguments.items() if v is not None}
    outcome = anyio.run(invoke, tool, args, ctx)
    if outcome.is_error:
        raise ToolCallError(outcome.text)
    return tool.output.model_validate(outcome.structured)
