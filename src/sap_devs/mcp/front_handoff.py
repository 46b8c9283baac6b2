"""The SDK server taking over a stdio session from the fast front (``fast_front``).

The SDK is told what the front consumed that it needs (the handshake, the request that opened the
era) under private request ids, and its replies to those never reach stdout; then it reads the
messages the front left, then the rest of stdin. Every later message is the SDK's, unchanged.

The packs and search indexes warm up only while no request is in flight: warming starts once the
session has been quiet for a moment, and its thread stops at its next Python function call whenever a
request arrives, so the request does not share the interpreter with it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import sys
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import anyio.to_thread

from sap_devs.mcp.front_plan import Options, Plan

log = logging.getLogger(__name__)

QUIET_BEFORE_WARM_UP = 0.25
"""Seconds without a request in flight before the search indexes warm up (clients that list the
tools and then call one at once get their call served first)."""
WARM_UP_SWITCH_INTERVAL = 0.0005
LONGEST_PAUSE = 1.0
"""Seconds the warm-up waits for a request to finish before it goes on anyway: it may hold something
the request waits for (a lock), and must not stall it for longer than that."""


def build(options: Options, plan: Plan) -> tuple[Any, Any]:
    """The SDK server and tool context ``run_server`` would build for these options; SystemExit(2)
    with the message on stderr when the configuration is refused."""
    from sap_devs.core.log import setup_logging

    setup_logging()
    from sap_devs.cli.serve import build_stdio_server, open_stdio_session, pinned_tools
    from sap_devs.core.errors import SapDevsError

    try:
        registry, ctx = open_stdio_session(options.profile, options.environment, options.allow_writes, options.system)
        # warming up is scheduled for quiet moments here (see warm()), not at the first tools/list
        server = build_stdio_server(registry, ctx, options.tools_mode, options.pin, warm_up_on_list=False)
    except SapDevsError as exc:
        print(f"sap-devs: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    mode = registry.resolve_mode(options.tools_mode)
    listed = [t.name for t in registry.listed(mode, pinned_tools(options.pin))]
    if (mode, listed, server.instructions) != (plan.mode, plan.listed, plan.instructions):
        log.error("the fast front's prepared tool list differs from the server's; regenerate front.json")
    return server, ctx


class Activity:
    """Requests in flight, so background work waits for a quiet moment."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.changed = anyio.Event()
        self.idle = threading.Event()
        """Set while no request is in flight, for threads (the warm-up) to wait on."""
        self.idle.set()

    def _touch(self) -> None:
        self.changed.set()
        self.changed = anyio.Event()

    def started(self) -> None:
        self.in_flight += 1
        self.idle.clear()
        self._touch()

    def finished(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        if not self.in_flight:
            self.idle.set()
        self._touch()

    async def quiet(self, seconds: float) -> None:
        """Return once no request has been in flight for ``seconds``."""
        while True:
            if self.in_flight:
                await self.changed.wait()
                continue
            with anyio.move_on_after(seconds) as scope:
                await self.changed.wait()
            if scope.cancelled_caught and not self.in_flight:
                return


def run_while_idle(work: Callable[[], object], idle: threading.Event) -> None:
    """Run ``work`` on this thread, stopping it at each line of Python while ``idle`` is clear (a
    request is in flight), so it never takes the interpreter from a request for longer than one line's
    stretch of C code. A pause longer than LONGEST_PAUSE ends the pausing for good. Meanwhile the
    interpreter switches threads more often, so an arriving request is noticed within a fraction of
    a millisecond instead of the default 5 ms per thread it passes through."""
    pausing = True

    def on_event(frame: object, event: str, arg: object) -> Any:
        nonlocal pausing
        if pausing and not idle.is_set() and not idle.wait(LONGEST_PAUSE):
            pausing = False
            log.debug("warm-up no longer pauses: a request has been in flight for %ss", LONGEST_PAUSE)
        return on_event if pausing else None  # line by line: loops over C calls have no call events

    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(WARM_UP_SWITCH_INTERVAL)
    sys.settrace(on_event)  # this thread only
    try:
        work()
    finally:
        sys.settrace(None)
        sys.setswitchinterval(switch_interval)


class Filtered:
    """The SDK's write stream minus its replies to the requests replayed from the front; those are
    compared with what the front answered, and a difference is logged (a stale front.json)."""

    def __init__(self, inner: Any, expected: dict[str, bytes], activity: Activity) -> None:
        self._inner = inner
        self._expected = expected
        self._activity = activity

    async def send(self, item: Any) -> None:
        message = item.message
        request_id = getattr(message, "id", None)
        if request_id is not None and not hasattr(message, "method"):  # a reply
            if isinstance(request_id, str) and request_id in self._expected:
                self._check(request_id, message)
                return
            self._activity.finished()
        await self._inner.send(item)

    def _check(self, private: str, message: Any) -> None:
        sent = json.loads(self._expected.pop(private))
        sdk = json.loads(message.model_dump_json(by_alias=True, exclude_unset=True))
        sent.pop("id"), sdk.pop("id")
        if sent != sdk:
            log.error("the fast front answered a request differently from the SDK; regenerate front.json")

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Filtered:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def _lines(
    replay: list[bytes], pending: list[bytes], lines: queue.SimpleQueue[bytes | None] | None, activity: Activity
) -> AsyncIterator[str]:
    def text(line: bytes) -> str:
        return line.decode("utf-8", errors="replace")  # as the SDK's stdio reader decodes

    for line in replay:
        yield text(line)
    for line in pending:
        _count(line, activity)
        yield text(line)
    while lines is not None:
        line = await anyio.to_thread.run_sync(lines.get, abandon_on_cancel=True)
        if line is None:
            return
        _count(line, activity)
        yield text(line)


def _count(line: bytes, activity: Activity) -> None:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return
    if isinstance(message, dict) and "id" in message and "method" in message:
        activity.started()


async def _serve(
    server: Any,
    ctx: Any,
    replay: list[tuple[bytes, str | int | None, bytes | None]],
    pending: list[bytes],
    lines: queue.SimpleQueue[bytes | None] | None,
) -> None:
    from mcp.server.stdio import stdio_server

    from sap_devs.mcp.server import warm_up, warm_up_docs
    from sap_devs.mcp.stdio_edge import CheckedLines

    activity = Activity()
    expected = {private: reply for _, private, reply in replay if isinstance(private, str) and reply is not None}
    checked = CheckedLines(_lines([line for line, _, _ in replay], pending, lines, activity))

    async def warm() -> None:
        await activity.quiet(QUIET_BEFORE_WARM_UP)
        # the packs load without pauses: they load under a lock that a request may need too (and
        # most requests need the packs, so they would wait for them anyway)
        await anyio.to_thread.run_sync(lambda: ctx.knowledge, abandon_on_cancel=True)
        await anyio.to_thread.run_sync(warm_up_docs, abandon_on_cancel=True)  # without pauses, as the packs
        await anyio.to_thread.run_sync(run_while_idle, lambda: warm_up(ctx), activity.idle, abandon_on_cancel=True)

    # stdin is the front's (claimed at start); stdout is claimed here, as in the usual path
    async with stdio_server(stdin=checked) as (read_stream, write_stream):  # type: ignore[arg-type]
        filtered = Filtered(write_stream, expected, activity)
        checked.attach(filtered)
        async with anyio.create_task_group() as tg:
            tg.start_soon(warm)
            await server.run(read_stream, filtered, server.create_initialization_options())
            tg.cancel_scope.cancel()


def serve_after_front(
    built: tuple[Any, Any],
    replay: list[tuple[bytes, str | int | None, bytes | None]],
    pending: list[bytes],
    lines: queue.SimpleQueue[bytes | None] | None,
) -> int:
    """Serve the rest of the session with the SDK server; ``lines`` None when stdin already ended."""
    server, ctx = built
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(_serve, server, ctx, replay, pending, lines)
    return 0
