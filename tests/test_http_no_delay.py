"""Responses are not held back by Nagle's algorithm on any listening socket uvicorn may be given.

uvicorn binds the socket for ``--workers N`` itself with protocol number 0, and asyncio leaves
Nagle on for such sockets: each response body then waited ~40 ms for the client's delayed ACK of
the head. The server's HTTP protocol turns Nagle off on every connection it accepts.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn
from starlette.types import Receive, Scope, Send

from sap_devs.http.app import HttpSettings
from sap_devs.http.run import uvicorn_config


async def _hello(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


@contextmanager
def _serving_on(sock: socket.socket) -> Iterator[uvicorn.Server]:
    server = uvicorn.Server(uvicorn_config(_hello, HttpSettings(port=sock.getsockname()[1])))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def _nodelay_of_accepted_connections(server: uvicorn.Server) -> list[int]:
    return [
        conn.transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        for conn in server.server_state.connections
    ]


def test_connections_on_a_socket_bound_like_uvicorns_workers_have_nagle_off() -> None:
    sock = socket.socket(family=socket.AF_INET)  # as uvicorn's Config.bind_socket does for --workers
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    assert sock.proto == 0  # the case asyncio does not cover by itself
    with _serving_on(sock) as server, httpx.Client(base_url=f"http://127.0.0.1:{sock.getsockname()[1]}") as http:
        assert http.get("/").text == "hello"  # the connection stays open (keep-alive) for the check
        assert _nodelay_of_accepted_connections(server) == [1]
