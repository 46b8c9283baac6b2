"""Shared by the progressive-disclosure tools: the registry of the running server and name lookup."""

from __future__ import annotations

import difflib

from sap_devs.mcp.framework import ToolContext, ToolError, ToolSpec


def catalogue(ctx: ToolContext) -> list[ToolSpec]:
    """The operations an agent may search and call: every registered tool except these meta tools."""
    if ctx.registry is None:
        raise ToolError("No tool registry is attached to this session.")
    return [spec for spec in ctx.registry if not spec.progressive_only]


def unknown_tool(name: str, specs: list[ToolSpec]) -> ToolError:
    names = [s.name for s in specs]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.0)
    return ToolError(
        f"Unknown tool {name!r}.",
        hint=f"Closest names: {', '.join(close)}. Use search_tools to find operations." if close else "",
    )
