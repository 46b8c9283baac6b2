"""Running one tool call: validate the arguments, call the handler, shape the result.

Shared by the MCP server, the ``sap-devs tools call`` command and the Python API, so every
caller sees the same validation and the same errors. Nothing here raises into the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
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


class _Worker:
    """One handler run on its own event loop in a worker thread, which the caller can cancel.

    Cancelling (the client's cancel, or the deadline) cancels the handler's task on that loop, so a
    handler that watches for CancelledError (check_project's folder walk) stops instead of running on.
    """

    def __init__(self, tool: Tool, params: Any, ctx: ToolContext) -> None:
        self._tool, self._params, self._ctx = tool, params, ctx
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None
        self._cancelled = False

    def run(self) -> Any:
        return asyncio.run(self._main())

    async def _main(self) -> Any:
        with self._lock:
            if self._cancelled:
                raise asyncio.CancelledError
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
        return await self._tool.handler(self._params, self._ctx)

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            if self._loop is not None and self._task is not None and not self._loop.is_closed():
                # the loop may close between the check and the call: then there is nothing left to cancel
                with contextlib.suppress(RuntimeError):
                    self._loop.call_soon_threadsafe(self._task.cancel)


async def _run_handler(tool: Tool, params: Any, ctx: ToolContext) -> Any:
    if not runs_in_worker(tool):
        return await tool.handler(params, ctx)
    import anyio
    import anyio.to_thread

    seconds = deadline()
    worker = _Worker(tool, params, ctx)
    finished = False
    try:
        with anyio.move_on_after(seconds) as scope:
            # abandon: the answer is not held up by a thread that has yet to notice its cancellation
            result = await anyio.to_thread.run_sync(worker.run, abandon_on_cancel=True)
            finished = True
            return result
    finally:
        if not finished:
            worker.cancel()
    if scope.cancelled_caught:
        raise SapDevsError(
            f"{tool.name} did not finish within {seconds:g}s and was stopped.",
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


MAX_PROBLEMS = 10
_NAME_MAX = 60


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shown(value: Any) -> str:
    """A short picture of an offending value that never walks a huge or deeply nested one."""
    if isinstance(value, str):
        return json.dumps(value[:80], ensure_ascii=False)[:82]
    if isinstance(value, bool | int | float) or value is None:
        return _cut(json.dumps(value), 40)
    if isinstance(value, list | dict):
        return f"a {'list' if isinstance(value, list) else 'object'} of {len(value)} item(s)"
    return type(value).__name__


def describe_invalid_arguments(tool: Tool, exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=True)
    problems = []
    for err in errors[:MAX_PROBLEMS]:
        field = _cut(".".join(str(p) for p in err["loc"]), _NAME_MAX) or "arguments"
        if err["type"] == "extra_forbidden":
            problems.append(f"'{field}' is not a parameter of {tool.name}")
        elif err["type"] == "missing":
            problems.append(f"'{field}' is required")
        else:
            got = err.get("input")
            shown = f" (got {_shown(got)})" if got is not None else ""
            problems.append(f"'{field}': {_cut(err['msg'], 200)}{shown}")
    if len(errors) > MAX_PROBLEMS:
        problems.append(f"and {len(errors) - MAX_PROBLEMS} more")
    return f"Invalid arguments for {tool.name}: {'; '.join(problems)}. Parameters: {_describe_params(tool)}."


async def invoke(tool: Tool, arguments: dict[str, Any] | None, ctx: ToolContext) -> Outcome:
    try:
        params = tool.input.model_validate(arguments or {})
    except ValidationError as exc:
        return Outcome(True, describe_invalid_arguments(tool, exc))
    except RecursionError:
        return Outcome(True, f"Invalid arguments for {tool.name}: nested too deeply to read.")
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
