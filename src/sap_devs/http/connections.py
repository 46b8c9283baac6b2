"""Connection limits of the HTTP server, kept where connections are: in uvicorn's protocol.

An ASGI middleware only sees a request once its headers have arrived, so it cannot close a client
that never finishes them, and cannot keep the process below its open-file limit. Here every
accepted connection is counted, in total and per peer address:

- the headers of a request must arrive within ``header_timeout`` of the connection (or of the
  request's first byte on a kept-alive connection), and its body within ``body_timeout`` of the
  headers; a connection that misses either is closed;
- at most ``max_connections`` are open (below the descriptor limit, so ``accept`` never fails with
  "Too many open files") and at most ``max_per_peer`` from one address. At either limit the oldest
  connection that is not being answered (idle, or still sending its request) is closed to make room,
  so a flood of half-sent requests cannot lock out a caller who sends a whole one; only when every
  connection is busy being answered is the new one turned away;
- what was closed is logged as one line per interval, never a line (or traceback) per connection.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import time
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

import h11

from sap_devs.http.no_delay import NoDelayH11Protocol

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
LOG_INTERVAL = 60.0
DEFAULT_MAX_CONNECTIONS = 4096
DESCRIPTOR_RESERVE = 64
"""Descriptors kept free for everything else the server opens: pack and index files, the key file,
JWKS downloads, connections to ABAP systems, and the connections ``accept`` takes in one burst."""


def descriptor_limit() -> int | None:
    """The process's soft limit on open files; None where there is none to read (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY or soft <= 0 else int(soft)


def reserve(limit: int) -> int:
    return max(DESCRIPTOR_RESERVE, limit // 8)


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int
    max_per_peer: int
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT

    @classmethod
    def for_process(
        cls,
        max_connections: int | None = None,
        max_per_peer: int | None = None,
        *,
        header_timeout: float = HEADER_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
    ) -> ConnectionLimits:
        """The limits asked for, held below this process's descriptor limit."""
        limit = descriptor_limit()
        ceiling = DEFAULT_MAX_CONNECTIONS if limit is None else max(8, limit - reserve(limit))
        total = min(max_connections or ceiling, ceiling)
        per_peer = min(max_per_peer or max(1, total // 2), total)
        return cls(total, per_peer, header_timeout, body_timeout)

    def backlog(self) -> int:
        """The listen backlog: ``accept`` takes up to this many connections in one go before any of
        them can be closed, so it has to fit in the reserve."""
        limit = descriptor_limit()
        return 2048 if limit is None else max(16, min(2048, reserve(limit) // 2))


class _Report:
    """Counts what was closed and why; one log line per interval."""

    def __init__(self, interval: float = LOG_INTERVAL) -> None:
        self.interval = interval
        self.counts: Counter[str] = Counter()
        self.last = float("-inf")

    def note(self, what: str, detail: str = "") -> None:
        self.counts[what] += 1
        now = time.monotonic()
        if now - self.last < self.interval:
            return
        summary = ", ".join(f"{n} {kind}" for kind, n in self.counts.items())
        log.warning(
            "HTTP connections closed%s: %s (%s)",
            "" if self.last == float("-inf") else f" in the last {now - self.last:.0f} s",
            summary,
            detail,
        )
        self.counts.clear()
        self.last = now


class ConnectionGuard:
    """The open connections of one uvicorn server, oldest first, in total and per peer."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.open: dict[GuardedH11Protocol, None] = {}
        self.by_peer: dict[str, dict[GuardedH11Protocol, None]] = {}
        self.report = _Report()

    def admit(self, conn: GuardedH11Protocol) -> bool:
        peer = self.by_peer.setdefault(conn.peer, {})
        limits = self.limits
        if len(peer) >= limits.max_per_peer and not self._evict(peer, "per-address"):
            self._refuse(conn, f"{limits.max_per_peer} per address")
            return False
        if len(self.open) >= limits.max_connections and not self._evict(self.open, "total"):
            self._refuse(conn, f"{limits.max_connections} in total")
            return False
        self.open[conn] = None
        peer[conn] = None
        return True

    def release(self, conn: GuardedH11Protocol) -> None:
        self.open.pop(conn, None)
        peer = self.by_peer.get(conn.peer)
        if peer is not None:
            peer.pop(conn, None)
            if not peer:
                del self.by_peer[conn.peer]

    def _evict(self, among: dict[GuardedH11Protocol, None], which: str) -> bool:
        for victim in among:  # oldest first
            if victim.waiting():
                self.release(victim)
                victim.close()
                self.report.note(f"oldest unanswered closed at the {which} limit", self._limits_text())
                return True
        return False

    def _refuse(self, conn: GuardedH11Protocol, limit: str) -> None:
        self.report.note(f"refused (every connection busy, {limit})", self._limits_text())

    def _limits_text(self) -> str:
        limits = self.limits
        return (
            f"limits: {limits.max_connections} connections, {limits.max_per_peer} per address, headers within "
            f"{limits.header_timeout:g} s, body within {limits.body_timeout:g} s; {len(self.open)} open"
        )


_guards: weakref.WeakKeyDictionary[Any, ConnectionGuard] = weakref.WeakKeyDictionary()
CONFIG_ATTRIBUTE = "sap_devs_connection_limits"
"""Set on uvicorn's Config by ``run.uvicorn_config``. A ``--workers`` process, whose Config uvicorn
makes itself, uses ``worker_limits`` (set by ``run.worker_app`` from the same command line), else
the limits this process's descriptor limit allows."""
worker_limits: ConnectionLimits | None = None


def _guard_for(server_state: Any, config: Any) -> ConnectionGuard:
    guard = _guards.get(server_state)
    if guard is None:
        limits = getattr(config, CONFIG_ATTRIBUTE, None) or worker_limits or ConnectionLimits.for_process()
        guard = _guards[server_state] = ConnectionGuard(limits)
    return guard


class GuardedH11Protocol(NoDelayH11Protocol):
    """uvicorn's HTTP/1.1 protocol (with TCP_NODELAY) under the connection limits above."""

    def __init__(self, config: Any, server_state: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, server_state, *args, **kwargs)
        self.guard = _guard_for(server_state, config)
        self.peer = "?"
        self._phase = ""
        self._deadline: asyncio.TimerHandle | None = None
        self._closed = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else "?"
        if not self.guard.admit(self):
            self.close()
            return
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.release(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def waiting(self) -> bool:
        """Whether nothing is being answered on this connection: it is idle or its request is still
        arriving (so closing it loses no work)."""
        return not self._closed and self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def close(self) -> None:
        self._closed = True
        self._disarm()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _follow(self) -> None:
        """Which deadline applies now: headers (a request has begun), body (headers are in), none
        (the request is being answered, or the connection idles between requests under uvicorn's
        keep-alive timeout)."""
        if self._closed or self.transport is None or self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self.conn.trailing_data[0]:
                if self._phase != "headers":
                    self._arm("headers")
            elif self._phase == "headers" and self.cycle is not None:
                self._disarm()  # between requests: the keep-alive timeout applies
        elif state is h11.SEND_BODY:
            if self._phase != "body":
                self._arm("body")
        else:
            self._disarm()

    def _arm(self, phase: str) -> None:
        self._disarm()
        limits = self.guard.limits
        seconds = limits.header_timeout if phase == "headers" else limits.body_timeout
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self._expire, phase)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = ""

    def _expire(self, phase: str) -> None:
        self._deadline = None
        if self._closed or self._phase != phase:
            return
        limits = self.guard.limits
        seconds = limits.header_timeout if phase == "headers" else limits.body_timeout
        self.guard.report.note(f"{phase} not received within {seconds:g} s", self.guard._limits_text())
        self.close()


_RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def quiet_resource_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Out of descriptors or memory, asyncio reports every failed ``accept`` with a traceback;
    report them as one line per interval instead (everything else goes to the previous handler)."""
    previous = loop.get_exception_handler()
    report = _Report()

    def handler(the_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in _RESOURCE_ERRNOS:
            report.note(f"{os.strerror(exc.errno or 0)}: {context.get('message', 'error')}", "accepting paused")
            return
        if previous is not None:
            previous(the_loop, context)
        else:
            the_loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


PER_CONNECTION_MESSAGES = frozenset(
    {"Invalid HTTP request received.", "Unsupported upgrade request.", "Exceeded concurrency limit."}
)


class PerConnectionWarnings(logging.Filter):
    """uvicorn warns once per malformed request, so a client can write to stderr as fast as it can
    send; each of these warnings passes once per interval, with how many were held back."""

    def __init__(self, interval: float = LOG_INTERVAL) -> None:
        super().__init__()
        self.interval = interval
        self.last: dict[str, float] = {}
        self.held: Counter[str] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.msg
        if not isinstance(message, str) or message not in PER_CONNECTION_MESSAGES:
            return True
        now = time.monotonic()
        if now - self.last.get(message, float("-inf")) < self.interval:
            self.held[message] += 1
            return False
        held = self.held.pop(message, 0)
        if held:
            record.msg = f"{message} ({held} more in the last {now - self.last[message]:.0f} s)"
        self.last[message] = now
        return True


def quiet_per_connection_warnings() -> None:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, PerConnectionWarnings) for f in logger.filters):
        logger.addFilter(PerConnectionWarnings())
