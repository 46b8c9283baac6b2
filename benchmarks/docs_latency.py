"""search_docs latency: in-process and over stdio, the first query after server start, and the server's memory.

Over stdio: starts `sap-devs mcp serve`, answers the handshake, then times search_docs calls (the first
one right after tools/list, while the server may still be loading; another server's first call after a
pause of PAUSE seconds, as an agent that reads the tool list first makes it) and reads the server's
resident memory before and after. In-process: ``DocsIndex.search`` on every query of the benchmark
sets (benchmarks/docs_queries_*.yaml, docs_passage_questions.yaml), each query once, after a warm-up on
QUERIES.

With ``--against REF`` the code of git commit REF runs beside the current code and every figure is
printed for both with the ratio of medians: in-process, the two ``DocsIndex`` classes search the same
file query by query, in alternating order; over stdio, servers of the two trees are started in turn (the
old tree is REF's ``src`` exported to a temporary folder and put first on PYTHONPATH, with this tree's
built index), so the machine's noise falls on both alike.

Usage: python benchmarks/docs_latency.py [runs] [--against REF] [--no-inprocess] [--no-stdio]
"""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_search_equivalence import ROOT, old_index_module, queries
from responsiveness import Server

QUERIES = [
    "CDS association with an on condition",
    "destination to an on-premise system through cloud connector",
    "grant HDI container access to another schema",
    "RAP EML modify entities in local mode",
    "CPI HTTP receiver adapter basic auth",
    "fiori elements list report default filter value",
]
PAUSE = 2.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _opened(server: Server) -> float:
    start = time.perf_counter()
    server.request(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
    )
    server.notify("notifications/initialized")
    server.request("tools/list")
    return (time.perf_counter() - start) * 1000


def _search(server: Server, query: str) -> float:
    start = time.perf_counter()
    reply = server.request("tools/call", {"name": "search_docs", "arguments": {"query": query}})
    if "result" not in reply or reply["result"].get("isError"):
        raise RuntimeError(f"search_docs failed: {str(reply)[:300]}")
    return (time.perf_counter() - start) * 1000


def one_run(env: dict[str, str] | None = None) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), env)
        try:
            ready = _opened(server)
            before = rss_mb(server.proc.pid)
            first = _search(server, QUERIES[0])
            warm = [_search(server, q) for _ in range(3) for q in QUERIES]
            after = rss_mb(server.proc.pid)
        finally:
            server.close()
        server = Server(Path(tmp), env)
        try:
            _opened(server)
            time.sleep(PAUSE)
            paused = _search(server, QUERIES[0])
        finally:
            server.close()
    return {"ready": ready, "first": first, "paused": paused, "rss": after - before, "warm": warm}


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def stdio(runs: int, trees: dict[str, dict[str, str] | None]) -> None:
    results: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
    for i in range(runs):
        order = list(trees) if i % 2 == 0 else list(reversed(trees))
        for name in order:
            results[name].append(one_run(trees[name]))
    medians: dict[str, dict[str, float]] = {}
    for name, rs in results.items():
        warm = [w for r in rs for w in r["warm"]]  # type: ignore[attr-defined]
        m = {k: statistics.median(r[k] for r in rs) for k in ("ready", "first", "paused", "rss")}  # type: ignore[misc]
        m["warm50"], m["warm95"] = statistics.median(warm), p95(warm)
        medians[name] = m
        print(f"[{name}] stdio, {runs} server starts")
        print(f"  start to tools/list:                 median {m['ready']:7.0f} ms")
        print(f"  first search_docs right after it:    median {m['first']:7.0f} ms")
        print(f"  first search_docs after {PAUSE:.0f} s pause:  median {m['paused']:7.0f} ms")
        print(f"  warm search_docs:                    p50 {m['warm50']:.1f} ms  p95 {m['warm95']:.1f} ms")
        print(f"  RSS growth from the docs queries:    median {m['rss']:7.1f} MB")
    if len(medians) == 2:
        new, old = medians["current"], medians[next(n for n in medians if n != "current")]
        print("  ratios current/old: " + ", ".join(f"{k} {new[k] / old[k]:.2f}" for k in new if old[k]))


def inprocess(against: str | None) -> None:
    from sap_devs.docs import store

    index = store.current()
    engines = {"current": index}
    if against:
        engines[against] = old_index_module(against).DocsIndex(index.path)
    for engine in engines.values():
        for q in QUERIES:
            engine.search(q)
    times: dict[str, list[float]] = {name: [] for name in engines}
    for i, (query, product) in enumerate(queries()):
        names = list(engines) if i % 2 == 0 else list(reversed(engines))
        for name in names:
            start = time.perf_counter()
            engines[name].search(query, product=product)
            times[name].append((time.perf_counter() - start) * 1000)
    for name, ts in times.items():
        print(
            f"[{name}] in-process, {len(ts)} searches: p50 {statistics.median(ts):.1f} ms  p95 {p95(ts):.1f} ms  "
            f"mean {statistics.mean(ts):.1f} ms"
        )
    if against:
        new, old = times["current"], times[against]
        print(
            f"  ratios current/old: p50 {statistics.median(new) / statistics.median(old):.2f}  "
            f"p95 {p95(new) / p95(old):.2f}  per-query median {statistics.median(a / b for a, b in zip(new, old, strict=True)):.2f}"
        )


def old_tree(ref: str, folder: Path) -> dict[str, str]:
    """Environment running REF's code: its src exported to ``folder``, with this tree's built index."""
    archive = subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    from sap_devs.docs import store

    data = folder / "src" / "sap_devs" / "docs" / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / store.INDEX_NAME).symlink_to(store.bundled_path())
    return {**os.environ, "PYTHONPATH": str(folder / "src")}


def main() -> None:
    args = sys.argv[1:]
    against = args[args.index("--against") + 1] if "--against" in args else None
    numbers = [a for a in args if a.isdigit()]
    runs = int(numbers[0]) if numbers else 5
    if "--no-inprocess" not in args:
        inprocess(against)
    if "--no-stdio" not in args:
        with tempfile.TemporaryDirectory() as tmp:
            trees: dict[str, dict[str, str] | None] = {"current": None}
            if against:
                trees[against] = old_tree(against, Path(tmp))
            stdio(runs, trees)


if __name__ == "__main__":
    main()
