"""search_docs over stdio: the first query after server start, warm latency, and the server's memory.

Starts `sap-devs mcp serve`, answers the handshake, then times search_docs calls (the first one opens
the index) and reads the server's resident memory before and after. In-process latency per query is
printed by benchmarks/docs_relevance.py. Usage: python benchmarks/docs_latency.py [runs]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from responsiveness import Server

QUERIES = [
    "CDS association with an on condition",
    "destination to an on-premise system through cloud connector",
    "grant HDI container access to another schema",
    "RAP EML modify entities in local mode",
    "CPI HTTP receiver adapter basic auth",
    "fiori elements list report default filter value",
]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_run() -> tuple[float, float, float, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        server = Server(Path(tmp))
        try:
            server.request(
                "initialize",
                {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
            )
            server.notify("notifications/initialized")
            server.request("tools/list")
            ready = (time.perf_counter() - start) * 1000
            before = rss_mb(server.proc.pid)
            t = time.perf_counter()
            server.request("tools/call", {"name": "search_docs", "arguments": {"query": QUERIES[0]}})
            first = (time.perf_counter() - t) * 1000
            warm = []
            for _ in range(3):
                for q in QUERIES:
                    t = time.perf_counter()
                    server.request("tools/call", {"name": "search_docs", "arguments": {"query": q}})
                    warm.append((time.perf_counter() - t) * 1000)
            after = rss_mb(server.proc.pid)
        finally:
            server.close()
    return ready, first, after - before, warm


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    results = [one_run() for _ in range(runs)]
    warm = [w for r in results for w in r[3]]
    print(f"start to tools/list:              median {statistics.median(r[0] for r in results):7.0f} ms")
    print(f"first search_docs after start:    median {statistics.median(r[1] for r in results):7.0f} ms")
    print(
        f"warm search_docs over stdio:      p50 {statistics.median(warm):.1f} ms  p95 "
        f"{sorted(warm)[int(len(warm) * 0.95) - 1]:.1f} ms"
    )
    print(f"RSS growth from the docs queries: median {statistics.median(r[2] for r in results):7.1f} MB")


if __name__ == "__main__":
    main()
