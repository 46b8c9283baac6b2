"""The stdio transport's edge: every line a client sends gets an answer or is a valid notification.

The SDK's stdio reader silently drops lines it cannot parse or validate, so a client that sends
malformed JSON, a request with ``"params": 5``, very deep nesting or a lone UTF-16 surrogate waits
forever for a reply. Here each line is checked with the same validator the SDK uses before the SDK
sees it; lines that would be dropped are answered with a JSON-RPC error instead (-32700 when the
line is not JSON, -32600 with the request id when one can be read) and the server goes on serving.
Lone surrogates are refused rather than replaced, so no tool (writes included) ever acts on text
that differs from what the client sent.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from io import TextIOWrapper
from typing import Any, BinaryIO

import anyio

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_BOM = "\ufeff"


def check_line(line: str) -> tuple[str | None, dict[str, Any] | None]:
    """(line to hand to the SDK, None) for a usable line; (None, error) for a line to answer with
    an error; (None, None) for a blank line, which is ignored."""
    text = line.strip().removeprefix(_BOM)
    if not text:
        return None, None
    import mcp_types as types

    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError:  # pydantic's ValidationError is a ValueError
        return None, _diagnose(text)
    if isinstance(message, types.JSONRPCNotification) and '"id"' in text:
        # A request whose id is not a string or integer (true, 1.5, null) validates as a
        # notification and would never be answered: the client expects an answer, so refuse it.
        parsed = _parse(text)
        if isinstance(parsed, dict) and "id" in parsed:
            return None, _error(INVALID_REQUEST, "Invalid Request: id must be a string or an integer.", None)
    return text + "\n", None


_UNPARSABLE = object()
_TOO_DEEP = object()


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _UNPARSABLE
    except RecursionError:
        return _TOO_DEEP


def _diagnose(text: str) -> dict[str, Any]:
    """The error for a line the SDK's validator refused, with the id when one can be read."""
    obj = _parse(text)
    if obj is _UNPARSABLE:
        return _error(PARSE_ERROR, "Parse error: the line is not valid JSON (one JSON-RPC message per line).", None)
    if obj is _TOO_DEEP:
        return _error(PARSE_ERROR, "Parse error: the message is nested too deeply to parse.", None)
    raw_id = obj.get("id") if isinstance(obj, dict) else None
    request_id = raw_id if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else None
    return _error(INVALID_REQUEST, f"Invalid Request: {_reason(obj)}", request_id)


def _reason(obj: Any) -> str:
    if not isinstance(obj, dict):
        return "a message must be a JSON object (batches are not supported)."
    if obj.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0".'
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "a string contains a lone UTF-16 surrogate (such as \\ud800), which is not valid Unicode."
    except (ValueError, RecursionError):
        return "the message is nested too deeply."
    if "method" in obj:
        if not isinstance(obj["method"], str):
            return "method must be a string."
        if "params" in obj and not isinstance(obj["params"], dict):
            return "params must be an object."
        if "id" in obj and (isinstance(obj["id"], bool) or not isinstance(obj["id"], str | int)):
            return "id must be a string or an integer."
    elif "result" not in obj and "error" not in obj:
        return "a message needs a method (request or notification) or a result or error (response)."
    if _depth_over(obj, 100):
        return "the message is nested too deeply."
    return "the message does not have the shape of a JSON-RPC request, notification or response."


def _depth_over(obj: Any, limit: int) -> bool:
    """Iterative, so a deep message cannot exhaust the interpreter's stack while being measured."""
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def _error(code: int, message: str, request_id: str | int | None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


class CheckedLines:
    """The client's lines as the SDK's stdio reader iterates them, minus the ones answered here.

    Errors go out through the SDK's own write stream (so they never interleave with another frame
    on stdout), and are handed over before the next line is read: an error for the last line
    before end of input is still written."""

    def __init__(self, source: AsyncIterable[str]) -> None:
        self._source = source
        self._write_stream: Any = None
        self._attached = anyio.Event()

    def attach(self, write_stream: Any) -> None:
        self._write_stream = write_stream
        self._attached.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._source:
            usable, error = check_line(line)
            if usable is not None:
                yield usable
            elif error is not None:
                log.info("answered an unusable line with JSON-RPC error %d", error["error"]["code"])
                await self._answer(error)

    async def _answer(self, error: dict[str, Any]) -> None:
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        await self._attached.wait()
        message = types.jsonrpc_message_adapter.validate_python(error, by_name=False)
        try:
            await self._write_stream.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            log.debug("the server stopped before an error reply could be written")


@contextlib.contextmanager
def claimed_stdin() -> Iterator[BinaryIO]:
    """The protocol's stdin as a private descriptor, with fd 0 pointed at the null device while
    serving, so a child process or a stray read cannot consume protocol bytes; fd 0 comes back on
    exit. Where descriptors cannot be moved (Windows, an unusual stdin), stdin is used in place."""
    try:
        fd = sys.stdin.buffer.fileno()
    except (AttributeError, OSError, ValueError):
        yield sys.stdin.buffer
        return
    if fd != 0 or sys.platform == "win32":
        yield sys.stdin.buffer
        return
    try:
        import fcntl

        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        yield sys.stdin.buffer
        return
    diverted = False
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
            diverted = True
        finally:
            os.close(null)
    except OSError:
        log.debug("stdin could not be diverted; serving it in place")
    try:
        # closefd=False and the descriptor is never closed: a worker thread may still be blocked
        # reading it after the transport exits, and a recycled number would feed it another file.
        yield os.fdopen(private, "rb", closefd=False)
    finally:
        if diverted:
            with contextlib.suppress(OSError):
                os.dup2(private, 0)


class _KeepOpen(TextIOWrapper):
    """A text layer whose close leaves the binary stream (possibly sys.stdin's) open."""

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.detach()


async def serve_checked(server: Any) -> None:
    """Serve ``server`` over stdio with every unusable line answered (see the module docstring)."""
    from mcp.server.stdio import stdio_server

    with claimed_stdin() as raw:
        text = anyio.wrap_file(_KeepOpen(raw, encoding="utf-8", errors="replace"))
        lines = CheckedLines(text)
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.attach(write_stream)
            await server.run(read_stream, write_stream, server.create_initialization_options())
