"""Half-sent requests against the HTTP server under a low open-file limit (issue 25, item 5).

Starts ``sap-devs mcp serve --transport http`` with an API key on 127.0.0.1 under ``ulimit -n LIMIT``,
holds CONNECTIONS connections that send part of their headers and then nothing (re-opening those the
server closes, as an attacker would), and meanwhile sends one authenticated ``tools/list`` a second.
Prints the latency of those calls (p50, max, how many got no answer within 30 s) and how much the
server's stderr grew.

    .venv/bin/python benchmarks/http_slowloris.py [--connections 2000] [--limit 1024] [--seconds 30]
    .venv/bin/python benchmarks/http_slowloris.py --src /path/to/other/checkout/src   # compare a build
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

MODERN = "io.modelcontextprotocol/"
LIST = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/list",
    "params": {
        "_meta": {
            f"{MODERN}protocolVersion": "2026-07-28",
            f"{MODERN}clientCapabilities": {},
            f"{MODERN}clientInfo": {"name": "bench", "version": "1"},
        }
    },
}
HALF = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(home: Path, port: int, limit: int, src: str | None) -> tuple[subprocess.Popen[bytes], Path, str]:
    env = {
        **os.environ,
        "SAP_DEVS_CONFIG_DIR": str(home / "cfg"),
        "SAP_DEVS_CACHE_DIR": str(home / "cache"),
        "SAP_DEVS_DATA_DIR": str(home / "data"),
        "SAP_DEVS_ACCESS_LOG": "0",
    }
    if src:
        env["PYTHONPATH"] = src
    keys = home / "api-keys.json"
    created = subprocess.run(
        [sys.executable, "-m", "sap_devs.cli.entry", "keys", "create", "bench", "--file", str(keys)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    key = created.stdout.strip()
    stderr = home / "stderr"

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sap_devs.cli.entry",
            "mcp",
            "serve",
            "--transport",
            "http",
            "--port",
            str(port),
            "--api-keys",
            str(keys),
        ],
        stdout=subprocess.DEVNULL,
        stderr=stderr.open("wb"),
        env=env,
        cwd=home,
        preexec_fn=low_limit,
    )
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server did not start: {stderr.read_text()[-2000:]}")
        time.sleep(0.2)
    return server, stderr, key


class Flood:
    """Keeps ``count`` half-sent connections open, re-opening what the server closes."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.socks: list[socket.socket] = []
        self.opened = self.failed = self.closed_by_server = 0
        self.stop = threading.Event()

    def _open(self) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=1)
            sock.sendall(HALF)
            sock.setblocking(False)
            self.socks.append(sock)
            self.opened += 1
        except OSError:
            self.failed += 1

    def run(self) -> None:
        while not self.stop.is_set():
            while len(self.socks) < self.count and not self.stop.is_set():
                self._open()
            poller = select.poll()  # select() stops at descriptor 1024
            by_fd = {sock.fileno(): sock for sock in self.socks}
            for fd in by_fd:
                poller.register(fd, select.POLLIN)
            for fd, _event in poller.poll(500):
                sock = by_fd[fd]
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self.closed_by_server += 1
                    self.socks.remove(sock)
                    sock.close()
        for sock in self.socks:
            sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--limit", type=int, default=1024, help="the server's open-file limit")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--src", help="PYTHONPATH for the server (another checkout's src folder)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.connections + 256)), hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server, stderr, key = start(Path(tmp), port, args.limit, args.src)
        try:
            before = stderr.stat().st_size
            flood = Flood(port, args.connections)
            thread = threading.Thread(target=flood.run, daemon=True)
            thread.start()
            time.sleep(2)  # let the flood fill up
            latencies: list[float] = []
            unanswered = 0
            statuses: dict[int, int] = {}
            headers = {
                "content-type": "application/json",
                "accept": "application/json, text/event-stream",
                "authorization": f"Bearer {key}",
                "mcp-protocol-version": "2026-07-28",
                "mcp-method": "tools/list",
            }
            ends = time.monotonic() + args.seconds
            while time.monotonic() < ends:
                started = time.perf_counter()
                try:
                    answer = httpx.post(f"http://127.0.0.1:{port}/mcp", json=LIST, headers=headers, timeout=30)
                    statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                    if answer.status_code == 200:
                        latencies.append(time.perf_counter() - started)
                    else:
                        unanswered += 1
                except httpx.HTTPError:
                    unanswered += 1
                time.sleep(max(0.0, 1.0 - (time.perf_counter() - started)))
            flood.stop.set()
            thread.join(10)
            grown = stderr.stat().st_size - before
            text = stderr.read_text(errors="replace")
        finally:
            server.terminate()
            try:
                server.wait(timeout=40)
            except subprocess.TimeoutExpired:
                server.kill()
    ms = sorted(x * 1000 for x in latencies)
    print(f"server: ulimit -n {args.limit}; {args.connections} half-sent connections held for {args.seconds:g} s")
    print(f"flood: {flood.opened} opened, {flood.failed} failed to open, {flood.closed_by_server} closed by the server")
    print(f"authenticated tools/list: {len(ms)} answered 200, {unanswered} not (statuses {json.dumps(statuses)})")
    if ms:
        print(f"  latency p50 {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms")
    print(f"server stderr grew by {grown:,} bytes ({text.count('Traceback')} tracebacks)")
    last = [line for line in text.splitlines() if line.strip()][-3:]
    for line in last:
        print(f"  stderr: {line[:200]}")


if __name__ == "__main__":
    main()
