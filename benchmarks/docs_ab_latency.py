"""In-process search_docs latency of two index files, interleaved query by query so that the load of a
shared machine falls on both alike: median and p95 per index, and their ratio.

Usage: python benchmarks/docs_ab_latency.py INDEX_A INDEX_B [rounds]
(the queries: those of benchmarks/docs_queries_tuning.yaml and docs_queries_ui5_api_tuning.yaml)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import yaml

from sap_devs.docs.index import DocsIndex

HERE = Path(__file__).resolve().parent
SETS = ("docs_queries_tuning.yaml", "docs_queries_ui5_api_tuning.yaml")


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    indexes = [DocsIndex(Path(sys.argv[1])), DocsIndex(Path(sys.argv[2]))]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    queries = [q["query"] for name in SETS for q in yaml.safe_load((HERE / name).read_text(encoding="utf-8"))]
    for index in indexes:  # warm: the first query opens the file's pages in the OS cache
        index.search(queries[0])
    times: list[list[float]] = [[], []]
    for _ in range(rounds):
        for query in queries:
            for i, index in enumerate(indexes):
                start = time.perf_counter()
                index.search(query, limit=10)
                times[i].append((time.perf_counter() - start) * 1000)
    for path, values in zip(sys.argv[1:3], times, strict=True):
        p95 = sorted(values)[int(len(values) * 0.95) - 1]
        print(f"{path}: {len(values)} searches, p50 {statistics.median(values):.1f} ms, p95 {p95:.1f} ms")
    print(f"p50 ratio B/A: {statistics.median(times[1]) / statistics.median(times[0]):.2f}")


if __name__ == "__main__":
    main()
