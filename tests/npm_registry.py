"""A stand-in for the npm registry on 127.0.0.1: packuments and tarballs of tiny packages written by the test.

npm asks ``GET /<name>`` (``/@scope%2fname`` for scoped names) for the packument and then fetches
``dist.tarball``; both are served from memory, so installs run the real npm without the internet.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import unquote

from tests.loopback import serve


def tarball(files: dict[str, bytes | str], *, modes: dict[str, int] | None = None) -> bytes:
    """An npm package tarball: every file under ``package/``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            info.mode = (modes or {}).get(name, 0o644)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@dataclass
class Registry:
    base: str = ""
    packuments: dict[str, dict] = field(default_factory=dict)
    tarballs: dict[str, bytes] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)

    def publish(
        self, name: str, version: str, *, files: dict[str, bytes | str] | None = None, meta: dict | None = None
    ) -> None:
        manifest = {"name": name, "version": version, **(meta or {})}
        content = {"package.json": json.dumps(manifest), **(files or {})}
        modes = {n: 0o755 for n in content if n.startswith("bin/")}
        data = tarball(content, modes=modes)
        path = f"/{name}/-/{name.split('/')[-1]}-{version}.tgz"
        self.tarballs[path] = data
        integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        doc = self.packuments.setdefault(name, {"name": name, "versions": {}, "dist-tags": {}})
        doc["versions"][version] = {
            **manifest,
            "dist": {"tarball": self.base + path, "shasum": hashlib.sha1(data).hexdigest(), "integrity": integrity},
        }
        doc["dist-tags"]["latest"] = version

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        path = unquote(handler.path.split("?")[0])
        self.requests.append(path)
        if path in self.tarballs:
            body, kind = self.tarballs[path], "application/octet-stream"
        elif path.lstrip("/") in self.packuments:
            body, kind = json.dumps(self.packuments[path.lstrip("/")]).encode(), "application/json"
        else:
            body, kind = b'{"error":"Not found"}', "application/json"
            handler.send_response(404)
            handler.send_header("Content-Type", kind)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
            return
        handler.send_response(200)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)


@contextmanager
def npm_registry() -> Iterator[Registry]:
    registry = Registry()
    with serve(registry.answer) as server:
        registry.base = f"http://127.0.0.1:{server.server_address[1]}"
        yield registry
