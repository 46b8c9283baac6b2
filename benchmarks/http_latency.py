"""sap-devs over Streamable HTTP on loopback: requests/s and latency at 1, 8 and 32 concurrent clients.

Starts `sap-devs mcp serve --transport http` (1 and 2 uvicorn workers) with an API key, waits for
/readyz, then sends stateless JSON-RPC POSTs to /mcp from N concurrent clients (each its own
kept-alive connection) for a fixed time per method: tools/list, tools/call get_known_errors,
tools/call search_docs. Prints throughput, p50/p99 latency, the server's and this load generator's
CPU per request, the 1 -> 2 worker ratio and the resident memory of each worker. On a machine with
few CPUs the load generator shares them with the workers: the CPU columns say how much.
Usage: python benchmarks/http_latency.py [seconds per cell, default 5] [workers, default "1,2"]
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
EXE = ROOT / ".venv" / "bin" / "sap-devs"
HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
}
CALLS = {
    "tools/list": {"method": "tools/list", "params": {}},
    "get_known_errors": {
        "method": "tools/call",
        "params": {"name": "get_known_errors", "arguments": {"query": "SQL error 258: insufficient privilege"}},
    },
    "search_docs": {
        "method": "tools/call",
        "params": {"name": "search_docs", "arguments": {"query": "CDS association with an on condition", "limit": 5}},
    },
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the server processes: per request, a figure other load barely moves."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class Connection:
    """One kept-alive HTTP/1.1 connection writing each request in one send with TCP_NODELAY: a load
    generator that costs the shared CPUs a fraction of what httpx does, so the figures are the server's."""

    def __init__(self, port: int, headers: dict[str, str]) -> None:
        self.port = port
        self.head = "".join(f"{k}: {v}\r\n" for k, v in {"host": f"127.0.0.1:{port}", **headers}.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        assert self.reader is not None
        self.writer.write(f"POST {path} HTTP/1.1\r\n{self.head}content-length: {len(body)}\r\n\r\n".encode() + body)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def load(port: int, key: str, body: dict, clients: int, seconds: float) -> tuple[int, int, list[float]]:
    latencies: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds
    headers = {**HEADERS, "authorization": f"Bearer {key}"}

    async def client() -> None:
        nonlocal errors
        connection = Connection(port, headers)
        try:
            i = 0
            while time.perf_counter() < stop:
                i += 1
                payload = json.dumps({"jsonrpc": "2.0", "id": i, **body}).encode()
                start = time.perf_counter()
                status, answer = await connection.post("/mcp", payload)
                latencies.append(time.perf_counter() - start)
                if status != 200 or b'"error"' in answer[:200] or b'"isError":true' in answer.replace(b" ", b""):
                    errors += 1
        finally:
            connection.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return len(latencies), errors, latencies


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1000 if len(values) > 1 else values[0] * 1000


def run(workers: int, seconds: float) -> dict[tuple[str, int], float]:
    cfg = tempfile.mkdtemp(prefix="sap-devs-bench-")
    env = {**os.environ, "SAP_DEVS_CONFIG_DIR": cfg, "SAP_DEVS_TOOL_TIMEOUT": "60"}
    key = subprocess.run([EXE, "keys", "create", "bench"], env=env, capture_output=True, text=True, check=True)
    port = free_port()
    proc = subprocess.Popen(
        [
            EXE,
            "mcp",
            "serve",
            "--transport",
            "http",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--max-concurrent",
            "64",
        ],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    rates: dict[tuple[str, int], float] = {}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("server did not become ready")
            time.sleep(0.2)
        for body in CALLS.values():  # warm every worker (first search_docs opens the index)
            asyncio.run(load(port, key.stdout.strip(), body, 4 * workers, 1.0))
        print(f"\n{workers} worker(s), load {os.getloadavg()[0]:.1f}")
        pids = children(proc.pid) if workers > 1 else [proc.pid]
        worker_pids = [p for p in pids if rss_mb(p) > 40] or pids
        print(
            f"{'call':18} {'clients':>7} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'CPU ms/req':>10}"
            f" {'client CPU':>10}"
        )
        for name, body in CALLS.items():
            for clients in (1, 8, 32):
                cpu, own = cpu_seconds(worker_pids), time.process_time()
                n, errors, lat = asyncio.run(load(port, key.stdout.strip(), body, clients, seconds))
                cpu_ms = (cpu_seconds(worker_pids) - cpu) * 1000 / max(n, 1)
                client_ms = (time.process_time() - own) * 1000 / max(n, 1)
                rates[(name, clients)] = n / seconds
                print(
                    f"{name:18} {clients:7d} {n / seconds:8.0f} {pct(lat, 50):8.1f} {pct(lat, 99):8.1f} {errors:6d}"
                    f" {cpu_ms:10.2f} {client_ms:10.2f}"
                )
        print("worker RSS MB: " + ", ".join(f"{rss_mb(p):.0f}" for p in worker_pids))
    finally:
        proc.terminate()
        proc.wait(30)
    return rates


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    counts = [int(w) for w in (sys.argv[2] if len(sys.argv) > 2 else "1,2").split(",")]
    print(f"sap-devs HTTP benchmark, {seconds:g} s per cell, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    results = {w: run(w, seconds) for w in counts}
    if 1 in results and 2 in results:
        print("\nthroughput ratio 2 workers / 1 worker")
        for cell, rate in results[1].items():
            print(f"{cell[0]:18} {cell[1]:7d} {results[2][cell] / rate:8.2f}")


if __name__ == "__main__":
    main()
