"""A real HTTP server on 127.0.0.1 for tests: routes answer with recorded bodies, delays or faults."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Route:
    status: int = 200
    body: bytes | Callable[[], bytes] = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    times: int | None = None  # answer this way only N times, then fall through to the next route for the path
    no_length: bool = False  # omit Content-Length: the body ends when the connection closes


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@contextmanager
def serve(answer: Callable[[BaseHTTPRequestHandler], None]) -> Iterator[ThreadingHTTPServer]:
    """A threaded HTTP server on a free 127.0.0.1 port; every request method goes to ``answer``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            answer(self)

        do_POST = do_PUT = do_DELETE = do_HEAD = do_GET

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class Loopback:
    def __init__(self) -> None:
        self.routes: dict[str, list[Route]] = {}
        self.requests: list[Recorded] = []
        self._server: ThreadingHTTPServer | None = None

    @property
    def base(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def add(self, path: str, route: Route | None = None, **kwargs: object) -> None:
        self.routes.setdefault(path, []).append(route or Route(**kwargs))  # type: ignore[arg-type]

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("content-length") or 0)
        body = handler.rfile.read(length) if length else b""
        self.requests.append(Recorded(handler.command, handler.path, dict(handler.headers), body))
        candidates = self.routes.get(handler.path) or self.routes.get(handler.path.split("?", 1)[0]) or []
        route = next((r for r in candidates if r.times is None or r.times > 0), None)
        if route is None:
            handler.send_response(404)
            handler.send_header("content-length", "0")
            handler.end_headers()
            return
        if route.times is not None:
            route.times -= 1
        if route.delay:
            time.sleep(route.delay)
        payload = route.body() if callable(route.body) else route.body
        handler.send_response(route.status)
        for key, value in route.headers.items():
            handler.send_header(key, value)
        if not route.no_length and "content-length" not in {k.lower() for k in route.headers}:
            handler.send_header("content-length", str(len(payload)))
        handler.end_headers()
        with suppress(BrokenPipeError, ConnectionResetError):
            handler.wfile.write(payload)

    @contextmanager
    def running(self) -> Iterator[Loopback]:
        with serve(self._answer) as server:
            self._server = server
            yield self
