"""Where a warm search_docs spends its time: per phase medians over every benchmark query.

Runs ``DocsIndex.search`` on every query of the benchmark sets (the queries docs_latency.py times, each once
unfiltered and once with its product), after a warm-up pass over the same queries, and times each phase of
every search on its own (exclusive of the phases it calls): the query analysis, the term groups (section
counts, typo and split alternatives), the FTS5 MATCH with bm25 and the candidates' page rows, the pages a
question names, the coverage checks, the ranking loop in Python, duplicates and twins, and the snippets. SQL
statements are timed by kind as well, through a connection wrapper that fetches each result at once. Prints
per phase the median and mean per search and the share of the total.

Usage: python benchmarks/docs_search_phases.py [--cprofile]
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_search_equivalence import queries
from sap_devs.docs import flavours, hints, index, store

PHASES = {
    "_frequencies": "term groups (df, typos, splits)",
    "_typo_candidates": "term groups (df, typos, splits)",
    "_split_candidates": "term groups (df, typos, splits)",
    "_candidates": "bm25 candidates (term arrays), their rows",
    "_named": "named symbols, their rows",
    "_named_rows": "named symbols, their rows",
    "_spelled": "named symbols, their rows",
    "_asked": "written questions (asked)",
    "_phrased": "word pairs side by side",
    "_held": "coverage checks",
    "_rank_pages": "ranking loop (Python)",
    "_title_terms": "ranking loop (Python)",
    "_one_per_page": "duplicates and twins",
    "_finished": "snippets and strength",
}


class Clock:
    """Exclusive time per phase for the current search: a phase's time leaves out the phases it calls."""

    def __init__(self) -> None:
        self.stack: list[list[Any]] = []  # [phase, start, time spent in callees]
        self.spent: dict[str, float] = defaultdict(float)

    def wrap(self, phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            frame = [phase, time.perf_counter(), 0.0]
            self.stack.append(frame)
            try:
                return fn(*args, **kwargs)
            finally:
                self.stack.pop()
                took = time.perf_counter() - frame[1]
                self.spent[phase] += took - frame[2]
                if self.stack:
                    self.stack[-1][2] += took

        return timed


class TimedConnection:
    """sqlite3 connection stand-in: each statement is run and fetched at once, its time kept by kind."""

    def __init__(self, con: Any, sql_times: dict[str, float]) -> None:
        self._con = con
        self._times = sql_times

    def execute(self, sql: str, params: Any = ()) -> Any:
        start = time.perf_counter()
        rows = self._con.execute(sql, params).fetchall()
        self._times[_kind(sql)] += time.perf_counter() - start
        return _Rows(rows)


class _Rows(list):
    def fetchall(self) -> list[Any]:
        return list(self)

    def fetchone(self) -> Any:
        return self[0] if self else None


def _kind(sql: str) -> str:
    if "FROM postings" in sql:
        return "sql: stored term arrays"
    if "FROM asked" in sql:
        return "sql: written questions"
    if "bm25" in sql and "s.page IN" in sql:
        return "sql: bm25 of named pages"
    if "bm25" in sql:
        return "sql: FTS MATCH + bm25 ORDER BY LIMIT"
    if "FROM sections s JOIN pages" in sql:
        return "sql: candidates' page rows"
    if "rowid IN" in sql:
        return "sql: coverage rowid IN"
    if "WHERE fts MATCH ?" in sql:
        return "sql: FTS5 doclist"
    if "FROM vocab" in sql:
        return "sql: vocab"
    if "body FROM sections" in sql:
        return "sql: snippet body"
    if "twins" in sql:
        return "sql: twins"
    return "sql: other"


def main() -> None:
    docs = store.current()
    qs = queries()
    for query, product in qs:  # warm: caches of section counts, titles, twins, the term-array scorers, page cache
        docs.search(query, product=product)
    if "--cprofile" in sys.argv:
        profile = cProfile.Profile()
        profile.enable()
        for query, product in qs:
            docs.search(query, product=product)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    clock = Clock()
    for name, phase in PHASES.items():
        setattr(docs, name, clock.wrap(phase, getattr(docs, name)))
    real_analyze = index.analyze
    index.analyze = clock.wrap("query analysis", real_analyze)
    real_flavours, real_hints = flavours.of_query, hints.of_query
    flavours.of_query = clock.wrap("query analysis", real_flavours)
    hints.of_query = clock.wrap("query analysis", real_hints)
    sql_times: dict[str, float] = defaultdict(float)
    docs._con = TimedConnection(docs._con, sql_times)  # type: ignore[assignment]
    per_phase: dict[str, list[float]] = defaultdict(list)
    sql_rows: list[dict[str, float]] = []
    totals: list[float] = []
    search = clock.wrap("search itself", docs.search)
    try:
        for query, product in qs:
            clock.spent.clear()
            sql_times.clear()
            start = time.perf_counter()
            search(query, product=product)
            totals.append(time.perf_counter() - start)
            for phase in {*PHASES.values(), "query analysis", "search itself"}:
                per_phase[phase].append(clock.spent.get(phase, 0.0))
            sql_rows.append(dict(sql_times))
    finally:
        index.analyze = real_analyze
        flavours.of_query, hints.of_query = real_flavours, real_hints
    per_sql = {kind: [row.get(kind, 0.0) for row in sql_rows] for kind in {k for row in sql_rows for k in row}}
    total = sum(totals)
    print(
        f"{len(totals)} searches: p50 {statistics.median(totals) * 1000:.1f} ms, mean {total / len(totals) * 1000:.1f} ms"
    )
    print(f"{'phase (exclusive)':42} {'p50 ms':>8} {'mean ms':>8} {'share':>6}")
    for phase, ts in sorted(per_phase.items(), key=lambda x: -sum(x[1])):
        print(
            f"{phase:42} {statistics.median(ts) * 1000:8.2f} {statistics.mean(ts) * 1000:8.2f} {sum(ts) / total:6.1%}"
        )
    print(f"{'SQL statements (inside the phases)':42} {'p50 ms':>8} {'mean ms':>8} {'share':>6}")
    for kind, ts in sorted(per_sql.items(), key=lambda x: -sum(x[1])):
        print(f"{kind:42} {statistics.median(ts) * 1000:8.2f} {statistics.mean(ts) * 1000:8.2f} {sum(ts) / total:6.1%}")


if __name__ == "__main__":
    main()
