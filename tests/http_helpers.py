"""The sap-devs HTTP app on a real uvicorn server on 127.0.0.1, in a background thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from sap_devs.http.app import HttpSettings, build_app
from sap_devs.http.run import uvicorn_config


@contextmanager
def uvicorn_running(app: Any, settings: HttpSettings | None = None) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn_config(app, settings or HttpSettings(port=port))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(60)  # uvicorn's graceful shutdown waits for open connections, up to 30 s
        sock.close()
        if thread.is_alive():  # a test reading logs or secrets after this must not race a running server
            raise RuntimeError("uvicorn did not stop within 60 s")


@contextmanager
def sap_devs_http(server: Any, settings: HttpSettings, ctx: Any = None) -> Iterator[str]:
    with uvicorn_running(build_app(server, settings, ctx=ctx), settings) as base:
        yield base
