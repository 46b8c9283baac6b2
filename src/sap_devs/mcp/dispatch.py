"""Running one tool call: validate the arguments, call the handler, shape the result.

Shared by the MCP server, the ``sap-devs tools call`` command and the Python API, so every
caller sees the same validation and the same errors. Nothing here raises into the protocol.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from sap_devs.core.errors import SapDevsError
from sap_devs.mcp.framework import Tool, ToolContext

log = logging.getLogger(__name__)

DEFAULT_DEADLINE = 60.0
"""Seconds a tool that runs on this machine may take; SAP_DEVS_TOOL_TIMEOUT overrides it."""


def deadline() -> float:
    raw = os.environ.get("SAP_DEVS_TOOL_TIMEOUT", "")
    try:
        value = float(raw) if raw.strip() else DEFAULT_DEADLINE
    except ValueError:
        log.warning("SAP_DEVS_TOOL_TIMEOUT=%r is not a number of seconds; using %g", raw[:40], DEFAULT_DEADLINE)
        return DEFAULT_DEADLINE
    return value if value > 0 else DEFAULT_DEADLINE


def runs_in_worker(tool: Tool) -> bool:
    """Local tools (search, packs, project checks) run on a worker thread: their CPU work must not hold
    up the event loop, which answers ping, tools/list and every other call meanwhile.

    ABAP tools stay on the loop (their HTTP client belongs to it and they only wait on the network),
    and so does call_tool, which hands its inner call back to ``invoke``.
    """
    return not tool.needs_system and tool.output is not None


def _run_in_own_loop(tool: Tool, params: Any, ctx: ToolContext) -> Any:
    return asyncio.run(tool.handler(params, ctx))


async def _run_handler(tool: Tool, params: Any, ctx: ToolContext) -> Any:
    if not runs_in_worker(tool):
        return await tool.handler(params, ctx)
    import anyio
    import anyio.to_thread

    seconds = deadline()
    with anyio.move_on_after(seconds) as scope:
        # abandon: a thread cannot be stopped; the caller gets its answer at the deadline and the
        # thread's late result is dropped (inputs are bounded, so it does finish)
        return await anyio.to_thread.run_sync(_run_in_own_loop, tool, params, ctx, abandon_on_cancel=True)
    if scope.cancelled_caught:
        raise SapDevsError(
            f"{tool.name} did not finish within {seconds:g}s and was abandoned.",
            hint="Narrow the request (a shorter query, a pack filter, a smaller folder) and try again; "
            "SAP_DEVS_TOOL_TIMEOUT raises the limit.",
        )
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class Outcome:
    is_error: bool
    text: str
    structured: dict[str, Any] | None = None


def _describe_params(tool: Tool) -> str:
    props = tool.input_schema.get("properties", {})
    required = set(tool.input_schema.get("required", []))
    parts = []
    for name, spec in props.items():
        kind = spec.get("type") or "/".join(
            s.get("type", "?") for s in spec.get("anyOf", []) if s.get("type") != "null"
        )
        if "enum" in spec:
            kind = "one of " + ", ".join(repr(v) for v in spec["enum"])
        parts.append(f"{name} ({kind}, {'required' if name in required else 'optional'})")
    return ", ".join(parts) if parts else "none"


def describe_invalid_arguments(tool: Tool, exc: ValidationError) -> str:
    problems = []
    for err in exc.errors(include_url=False):
        field = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            problems.append(f"'{field}' is not a parameter of {tool.name}")
        elif err["type"] == "missing":
            problems.append(f"'{field}' is required")
        else:
            got = err.get("input")
            shown = f" (got {json.dumps(got, default=str)[:80]})" if got is not None else ""
            problems.append(f"'{field}': {err['msg']}{shown}")
    return f"Invalid arguments for {tool.name}: {'; '.join(problems)}. Parameters: {_describe_params(tool)}."


async def invoke(tool: Tool, arguments: dict[str, Any] | None, ctx: ToolContext) -> Outcome:
    try:
        params = tool.input.model_validate(arguments or {})
    except ValidationError as exc:
        return Outcome(True, describe_invalid_arguments(tool, exc))
    try:
        result = await _run_handler(tool, params, ctx)
        if tool.output is None:  # pass-through (call_tool): the inner tool's outcome, unchanged
            return (
                result if isinstance(result, Outcome) else Outcome(True, f"Internal error in {tool.name}: no outcome.")
            )
        if not isinstance(result, tool.output):
            result = tool.output.model_validate(result.model_dump())
        structured = result.model_dump(mode="json", exclude_none=True)
    except SapDevsError as exc:
        return Outcome(True, str(exc))
    except Exception as exc:  # a bug must not take the session down; say so plainly
        log.exception("tool %s failed", tool.name)
        return Outcome(
            True,
            f"Internal error in {tool.name}: {type(exc).__name__}: {exc}. "
            "This is a bug in sap-devs; the details are in the server log (stderr).",
        )
    return Outcome(False, json.dumps(structured, ensure_ascii=False, indent=1), structured)
