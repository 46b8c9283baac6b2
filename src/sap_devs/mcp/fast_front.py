"""What ``sap-devs mcp serve`` answers over stdio before the ``mcp`` SDK has loaded.

Agents start every configured MCP server when a session opens and wait for its tool list; importing
the SDK takes far longer than everything else the server does at start. So the server first works
out the user's tool set from the prepared answers in ``front.json`` (captured from the SDK server
itself, see ``front_data``), starts loading the SDK and building the real server on a thread, and
meanwhile answers the opening messages it can answer exactly as the SDK would: ``initialize``,
``notifications/initialized``, ``ping`` and ``tools/list`` of the handshake era, ``server/discover``
and ``tools/list`` of the 2026-07-28 era. The first message it is not sure of, and every message
after it, waits for the SDK server, which then serves the session (``front_handoff``).

Nothing here imports pydantic or the SDK. When the prepared answers do not match this installation
(another SDK, package version or tool manifest) or the configuration is one the front does not
cover, the SDK answers from the first message, as it always did.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from pathlib import Path
from typing import Any

from sap_devs.mcp.front_plan import Options, load_data, plan
from sap_devs.mcp.front_rules import Front


def stdio_options(argv: list[str]) -> Options | None:
    """The options of a plain ``mcp serve`` on stdio, parsed as ``sap_devs.cli.serve.fast_path`` parses
    them; None for anything else (help, --transport, an unknown option: the usual path answers)."""
    if argv[:2] != ["mcp", "serve"] or os.environ.get("SAP_DEVS_FAST_FRONT", "").strip().lower() in _OFF:
        return None
    if any(a in ("-h", "--help") or a == "--transport" or a.startswith("--transport=") for a in argv[2:]):
        return None
    from sap_devs.cli.serve import stdio_parser

    args, unknown = stdio_parser().parse_known_args(argv[2:])
    if unknown:
        return None
    return Options(args.profile, args.environment, args.tools_mode, args.pin, args.allow_writes, args.system)


_OFF = ("0", "false", "no", "off")


def claim_stdin() -> int | None:
    """A private descriptor for the protocol's stdin, with fd 0 pointed at the null device, so no
    child process or stray read can take protocol bytes (as the SDK's stdio transport does)."""
    if sys.platform == "win32":
        return None
    try:
        import fcntl

        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        return None
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
    except OSError:
        pass  # serving the private copy still works; only the diversion is lost
    return private


def split_lines(chunk: bytes) -> list[bytes]:
    """One line of the binary stream (up to a LF) as the lines the SDK's text reader sees: it reads
    with universal newlines, so a lone CR ends a line too (JSON text never holds a raw CR but as
    whitespace between tokens)."""
    if b"\r" not in chunk:
        return [chunk]
    parts = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n").splitlines(keepends=True)
    return parts


def _read_lines(fd: int, lines: queue.SimpleQueue[bytes | None]) -> None:
    with os.fdopen(fd, "rb", buffering=65536, closefd=False) as stream:
        try:
            for chunk in stream:
                for line in split_lines(chunk):
                    lines.put(line)
        except (OSError, ValueError):
            pass
    lines.put(None)  # end of input


def _write(data: bytes) -> None:
    view = memoryview(data)
    try:
        while view:
            written = os.write(1, view)
            view = view[written:]
    except BrokenPipeError:
        os._exit(0)  # the client has gone: there is no one left to answer


FRONT_SWITCH_INTERVAL = 0.001
READY = b"\x00ready"  # put in the line queue when the SDK server is ready to take over


def serve(options: Options) -> int | None:
    """Serve the session with the front ahead of the SDK; None when the front does not apply (the
    caller then starts the SDK server the usual way)."""
    if sys.stdin is None or sys.stdin.isatty():
        return None  # a person at a terminal gets the ready line from the usual path
    loaded = load_data()
    if loaded is None:
        return None
    the_plan = plan(options, loaded, Path(os.getcwd()))
    if the_plan is None:
        return None
    fd = claim_stdin()
    if fd is None:
        return None
    if the_plan.problem is not None:
        print(f"sap-devs: ABAP tools unavailable: {the_plan.problem}", file=sys.stderr, flush=True)
    lines: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    # the SDK imports on a thread meanwhile; a short switch interval lets the answers through quickly
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(FRONT_SWITCH_INTERVAL)
    threading.Thread(target=_read_lines, args=(fd, lines), name="sap-devs-stdin", daemon=True).start()
    built: dict[str, Any] = {}

    def load() -> None:
        from sap_devs.mcp.front_handoff import build

        try:
            built["server"] = build(options, the_plan)
        except BaseException as exc:  # reported on the main thread
            built["error"] = exc
        lines.put(READY)

    threading.Thread(target=load, name="sap-devs-load", daemon=True).start()
    front = Front(the_plan, replay_prefix=f"sap-devs-front-{os.getpid()}-{os.urandom(4).hex()}-")
    pending: list[bytes] = []
    ended = False
    while True:
        line = lines.get()
        if line is READY:
            break
        if line is None:
            ended = True
            if not pending:
                # every message was answered and the client has gone: nothing is left for the SDK,
                # and the thread still importing it must not hold up (or trouble) the exit
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(0)
            continue
        reply = front.answer(line)
        if reply is None:
            pending.append(line)
        elif isinstance(reply, bytes):
            _write(reply)
    if "error" in built:
        error = built["error"]
        if isinstance(error, SystemExit):
            return int(error.code or 0)
        raise error
    from sap_devs.mcp.front_handoff import serve_after_front

    sys.setswitchinterval(switch_interval)
    return serve_after_front(built["server"], front.replay, pending, None if ended else lines)
