"""The MCP server: the SDK's low-level server wired to the registry, serving both protocol eras."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from mcp.server.lowlevel import Server

from sap_devs import package_version
from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext, ToolSpec
from sap_devs.mcp.instructions import build_instructions
from sap_devs.mcp.registry import DEFAULT_PINNED, Registry
from sap_devs.mcp.schema_compact import compact_input, compact_output

log = logging.getLogger(__name__)

SERVER_NAME = "sap-devs"


def _mcp_tool(tool: ToolSpec) -> Any:
    import mcp_types as types

    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=compact_input(tool.input_schema),
        output_schema=compact_output(tool.output_schema),
        annotations=types.ToolAnnotations(**_annotation_kwargs(tool)),
    )


def _annotation_kwargs(tool: ToolSpec) -> dict[str, Any]:
    a = tool.annotations
    hints: dict[str, Any] = {"read_only_hint": a.read_only, "open_world_hint": a.open_world}
    if not a.read_only:  # the spec gives destructive and idempotent hints meaning only for tools that write
        hints.update(destructive_hint=a.destructive, idempotent_hint=a.idempotent)
    return hints


LIBRARY_DISCOVERY = {"libraryDiscovery": {"version": "0.1.0"}}


class SapDevsServer(Server):
    """The SDK's low-level server, advertising ``experimental`` capabilities in both protocol eras:
    the initialize result and the 2026-07-28 server/discover result both read ``get_capabilities``."""

    experimental: dict[str, dict[str, Any]] | None = None

    def get_capabilities(self, notification_options=None, experimental_capabilities=None, extensions=None, **kw):  # type: ignore[no-untyped-def, override]
        if experimental_capabilities is None:
            experimental_capabilities = self.experimental
        return super().get_capabilities(notification_options, experimental_capabilities, extensions, **kw)


def build_server(
    registry: Registry, ctx: ToolContext, *, mode: str = "full", pinned: Iterable[str] = DEFAULT_PINNED
) -> Any:
    import mcp_types as types
    from mcp.shared.exceptions import MCPError

    mode = registry.resolve_mode(mode)
    ctx.registry = registry
    shown = registry.listed(mode, pinned)
    listed = [_mcp_tool(t) for t in shown]
    callable_names = {t.name for t in registry if mode == "progressive" or not t.progressive_only}
    warmed = threading.Event()

    async def on_list_tools(_rctx: Any, _params: Any) -> types.ListToolsResult:
        if not warmed.is_set():
            warmed.set()
            threading.Thread(target=warm_up, args=(ctx,), name="sap-devs-warm-up", daemon=True).start()
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(_rctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = registry.get(params.name) if params.name in callable_names else None
        if tool is None:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"Unknown tool: {params.name!r}. Available tools: {', '.join(t.name for t in shown)}.",
            )
        outcome = await invoke(tool, params.arguments, ctx)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome.text)],
            structured_content=outcome.structured,
            is_error=outcome.is_error,
        )

    server = SapDevsServer(
        SERVER_NAME,
        version=package_version(),
        title="SAP developer knowledge",
        instructions=build_instructions(shown, mode=mode, operations=len(registry.operations())),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    server.experimental = LIBRARY_DISCOVERY if mode == "progressive" else None
    return server


def warm_up(ctx: ToolContext) -> None:
    """Load the packs and build the search indexes while the client is busy, so the first real
    query does not pay for them. Failures are only logged: the tool call will report them."""
    try:
        from sap_devs.knowledge import tutorials
        from sap_devs.knowledge.queries import find_known_errors, find_resources

        kb = ctx.knowledge
        find_known_errors(kb, "warm up")
        find_resources(kb, "warm up")
        tutorials.search(tutorials.load_index().items, "warm up")
    except Exception:  # the same error surfaces, with its message, on the first tool call
        log.debug("warm-up failed", exc_info=True)


async def serve_stdio(server: Any) -> None:
    """Serve over stdin/stdout; lines the SDK would silently drop are answered with JSON-RPC errors."""
    from sap_devs.mcp.stdio_edge import serve_checked

    await serve_checked(server)
