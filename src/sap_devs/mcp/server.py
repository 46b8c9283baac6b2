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
        # a write answers with a short confirmation, read when it comes; its fields are in docs/TOOLS.md
        output_schema=None if tool.writes else compact_output(tool.output_schema),
        annotations=types.ToolAnnotations(**_annotation_kwargs(tool)),
    )


# What a client assumes for a hint the tool leaves out (MCP ToolAnnotations): only the others travel.
HINT_DEFAULTS = {"read_only_hint": False, "destructive_hint": True, "idempotent_hint": False, "open_world_hint": True}


def _annotation_kwargs(tool: ToolSpec) -> dict[str, Any]:
    a = tool.annotations
    hints: dict[str, Any] = {"read_only_hint": a.read_only, "open_world_hint": a.open_world}
    if not a.read_only:  # the spec gives destructive and idempotent hints meaning only for tools that write
        hints.update(destructive_hint=a.destructive, idempotent_hint=a.idempotent)
    return {k: v for k, v in hints.items() if v != HINT_DEFAULTS[k]}


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
    registry: Registry,
    ctx: ToolContext,
    *,
    mode: str = "full",
    pinned: Iterable[str] = DEFAULT_PINNED,
    warm_up_on_list: bool = True,
) -> Any:
    """``warm_up_on_list``: the first tools/list starts warming up the packs and indexes (off where the
    caller schedules the warm-up itself, as the fast front's hand-over does)."""
    import mcp_types as types
    from mcp.shared.exceptions import MCPError

    mode = registry.resolve_mode(mode)
    ctx.registry = registry
    shown = registry.listed(mode, pinned)
    listed = [_mcp_tool(t) for t in shown]
    callable_names = {t.name for t in registry if mode == "progressive" or not t.progressive_only}
    warmed = threading.Event()
    if not warm_up_on_list:
        warmed.set()

    async def on_list_tools(_rctx: Any, _params: Any) -> types.ListToolsResult:
        if not warmed.is_set():
            warmed.set()
            threading.Thread(target=_warm_all, args=(ctx,), name="sap-devs-warm-up", daemon=True).start()
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
        **content_handlers(ctx, mode),
    )
    server.experimental = LIBRARY_DISCOVERY if mode == "progressive" else None
    return server


def content_handlers(ctx: ToolContext, mode: str) -> dict[str, Any]:
    """The prompts, resources and completion handlers: SAP workflows as slash commands and SAP knowledge
    as attachable resources, beside the tools. Both are built on first request, not at start."""
    import mcp_types as types
    from mcp.shared.exceptions import MCPError

    from sap_devs.core.errors import SapDevsError

    state: dict[str, Any] = {}

    def prompts() -> Any:
        if "prompts" not in state:
            from sap_devs.mcp.prompts import Catalog

            state["prompts"] = Catalog(ctx, progressive=mode == "progressive")
        return state["prompts"]

    def resources() -> Any:
        if "resources" not in state:
            from sap_devs.mcp.resources import Resources

            state["resources"] = Resources(ctx)
        return state["resources"]

    def refused(exc: SapDevsError, code: int = types.INVALID_PARAMS) -> MCPError:
        return MCPError(code=code, message=str(exc))  # the message with its hint

    async def on_list_prompts(_rctx: Any, _params: Any) -> types.ListPromptsResult:
        import anyio

        listed = await anyio.to_thread.run_sync(prompts().listed)  # pack prompts: the first knowledge load
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name,
                    title=p.title,
                    description=p.description,
                    arguments=[
                        types.PromptArgument(name=n, description=d or None, required=r) for n, d, r in p.arguments
                    ],
                )
                for p in listed
            ]
        )

    async def on_get_prompt(_rctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        import anyio

        try:
            description, text = await anyio.to_thread.run_sync(prompts().get, params.name, params.arguments)
        except SapDevsError as exc:
            raise refused(exc) from None
        return types.GetPromptResult(
            description=description,
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
        )

    async def on_list_resources(_rctx: Any, _params: Any) -> types.ListResourcesResult:
        import anyio

        listed = await anyio.to_thread.run_sync(resources().listed)
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri,
                    name=r.name,
                    title=r.title,
                    description=r.description,
                    mime_type=r.mime_type,
                    size=r.size,
                    annotations=types.Annotations(last_modified=r.last_modified) if r.last_modified else None,
                )
                for r in listed
            ]
        )

    async def on_list_resource_templates(_rctx: Any, _params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=t.uri_template,
                    name=t.name,
                    title=t.title,
                    description=t.description,
                    mime_type=t.mime_type,
                )
                for t in resources().templates()
            ]
        )

    async def on_read_resource(_rctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            mime, text = await resources().read(uri)
        except SapDevsError as exc:
            raise refused(exc, RESOURCE_NOT_FOUND) from None
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)])

    async def on_completion(_rctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        import anyio

        filled = dict(params.context.arguments or {}) if params.context else {}
        name, value = params.argument.name, params.argument.value
        if params.ref.type == "ref/prompt":
            values = await anyio.to_thread.run_sync(prompts().complete, params.ref.name, name, value, filled)
        else:
            values = await anyio.to_thread.run_sync(resources().complete, params.ref.uri, name, value, filled)
        return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))

    return {
        "on_list_prompts": on_list_prompts,
        "on_get_prompt": on_get_prompt,
        "on_list_resources": on_list_resources,
        "on_list_resource_templates": on_list_resource_templates,
        "on_read_resource": on_read_resource,
        "on_completion": on_completion,
    }


RESOURCE_NOT_FOUND = -32002  # the MCP specification's code for a resource that does not exist


def warm_up(ctx: ToolContext) -> None:
    """Load the packs and build the search indexes while the client is busy, so the first real
    query does not pay for them. Failures are only logged: the tool call will report them."""
    try:
        from sap_devs.knowledge.queries import find_known_errors, find_resources
        from sap_devs.live.tutorials import index as tutorials

        kb = ctx.knowledge
        find_known_errors(kb, "warm up")
        find_resources(kb, "warm up")
        tutorials.search(tutorials.load_index().items, "warm up")
    except Exception:  # the same error surfaces, with its message, on the first tool call
        log.debug("warm-up failed", exc_info=True)


def warm_up_docs() -> None:
    """Open the documentation index and search it once (its modules imported, the file's first pages
    read), so the first search_docs pays only for its own query. Not to be paused line by line: the
    search holds the index's lock, which a search_docs request would then wait on."""
    try:
        from sap_devs.docs.store import current

        current().search("warm up", limit=1)
    except Exception:  # the same error surfaces, with its message, on the first search_docs
        log.debug("documentation index warm-up failed", exc_info=True)


def _warm_all(ctx: ToolContext) -> None:
    warm_up(ctx)
    warm_up_docs()


async def serve_stdio(server: Any) -> None:
    """Serve over stdin/stdout; lines the SDK would silently drop are answered with JSON-RPC errors."""
    from sap_devs.mcp.stdio_edge import serve_checked

    await serve_checked(server)
