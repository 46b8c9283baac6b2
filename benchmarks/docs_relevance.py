"""Documentation search relevance: MRR@10 and hit@10 against a plain BM25 over the same pages.

Two query sets, written before the engine was tuned: benchmarks/docs_queries_tuning.yaml (tune on
it) and benchmarks/docs_queries_heldout.yaml (report only; never tune against it). The baseline is
SQLite FTS5's own BM25 with its default tokenizer over the same sections, the query's words OR-ed,
the best section per page: what an index without SAP-aware analysis would give.

Each set's questions name the page or two their writer found; a sibling page that answers as well
counts as a miss. benchmarks/docs_queries_flavours.yaml (held out) asks for one flavour where the
other flavour's page shares the words; figures per flavour. benchmarks/docs_judgments_pooled.yaml adds the pages a blind judge graded as
answering among both systems' top 10 (benchmarks/docs_pool.py): figures are printed with the
set's own judgments ("as written") and with the pooled ones, for both systems alike.

benchmarks/docs_queries_heldout_new.yaml (held out) asks about the sources added for issue 29;
benchmarks/docs_queries_tuning_new.yaml asks about the same sources and is the one to tune on;
benchmarks/docs_queries_tuning_weak.yaml (tune on it too) was written later, as blind, for the new sources that
ranked worst (best practices, AI Core, Identity Services, Service Manager, Kyma, the Cloud SDK).
benchmarks/docs_queries_ui5_api.yaml (held out) asks questions the OpenUI5 API reference pages answer, with
figures split by whether the question names the symbol; benchmarks/docs_queries_ui5_api_tuning.yaml is
that set's tuning companion.

Usage: python benchmarks/docs_relevance.py [tuning|heldout|flavours|heldout_new|tuning_new|tuning_weak|ui5_api|ui5_api_tuning|tuning_real1|tuning_real2|tuning_real3|tuning_real4|all]
       [--details]
"""

from __future__ import annotations

import re
import sqlite3
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

import yaml

from sap_devs.docs.store import current

HERE = Path(__file__).resolve().parent
SETS = {
    "tuning": HERE / "docs_queries_tuning.yaml",
    "heldout": HERE / "docs_queries_heldout.yaml",
    "flavours": HERE / "docs_queries_flavours.yaml",  # held out too: written before the flavour ranking ran
    "heldout_new": HERE / "docs_queries_heldout_new.yaml",  # held out: issue 29's new sources, written before tuning
    "tuning_new": HERE / "docs_queries_tuning_new.yaml",  # tune on it: issue 29's new sources, written before tuning
    "tuning_weak": HERE / "docs_queries_tuning_weak.yaml",  # tune on it: the new sources that ranked worst, blind
    "ui5_api": HERE / "docs_queries_ui5_api.yaml",  # held out: the API reference pages, written before they existed
    "ui5_api_tuning": HERE / "docs_queries_ui5_api_tuning.yaml",  # tune on it: the API reference pages
    "tuning_real1": HERE / "docs_queries_tuning_real1.yaml",  # tune on it: real questions, new sources, blind
    "tuning_real2": HERE / "docs_queries_tuning_real2.yaml",  # tune on it: real questions, new sources, blind
    "tuning_real3": HERE / "docs_queries_tuning_real3.yaml",  # tune on it: real questions, the products ranking worst
    "tuning_real4": HERE / "docs_queries_tuning_real4.yaml",  # tune on it: real questions, new sources, blind
}
POOLED = HERE / "docs_judgments_pooled.yaml"
GRADES = HERE / "docs_judgments_pooled_grades.tsv"
K = 10


def load(name: str) -> list[dict]:
    return yaml.safe_load(SETS[name].read_text(encoding="utf-8"))


def pooled(name: str) -> dict[str, list[dict]]:
    """query -> the pages the pooled judgments add to it (none when the file is absent)."""
    if not POOLED.is_file():
        return {}
    entries = yaml.safe_load(POOLED.read_text(encoding="utf-8")) or []
    return {e["query"]: e["also_relevant"] for e in entries if e["set"] == name}


def _page_key(source: str, path: str) -> tuple[str, str]:
    # SAP-docs publishes some pages in two guides (Integration Suite's ci/ and ISuite_Integrations_APIs/):
    # the same file name, ending in the same loio, is the same page
    return source.lower(), path.rsplit("/", 1)[-1]


# capire pages the query sets name at their 2025 paths that moved without a redirect rule, mapped by title
MOVED = {
    "guides/data-privacy/audit-logging.md": "guides/security/dpp-audit-logging.md",
    "guides/data-privacy/annotations.md": "guides/security/dpp-annotations.md",
    "advanced/hana.md": "guides/databases/hana-native.md",
}


def _resolved(entry: dict) -> tuple[str, str]:
    """A relevant page as the index knows it now: capire moved from cap-js/docs, and pages moved since the
    query sets were written resolve through capire's redirects."""
    path = MOVED.get(entry["path"], entry["path"]) if entry["source"] == "cap-js/docs" else entry["path"]
    found = current().find_page(page_id=f"{entry['source']}:{path}")
    return (found[1], found[2]) if found else (entry["source"], entry["path"])


def rank_of(results: list, relevant: list[dict]) -> int | None:
    """The rank of the first result that is a relevant page; a result is a (source, path) or, for sap-devs,
    the list of the pages it stands for (the page and the twins it names as published elsewhere too)."""
    wanted = {_page_key(*_resolved(r)) for r in relevant}
    for i, result in enumerate(results[:K], start=1):
        pages = result if isinstance(result, list) else [result]
        if any(_page_key(source, path) in wanted for source, path in pages):
            return i
    return None


def pages_of(hit) -> list[tuple[str, str]]:
    """A sap-devs hit as the pages it stands for: itself and the same page published elsewhere."""
    return [(hit.source, hit.path), *((source, path) for source, path, _ in hit.also)]


def build_baseline(index_path: Path, out: Path) -> None:
    src = sqlite3.connect(f"{index_path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    con = sqlite3.connect(out)
    con.executescript(
        "CREATE TABLE pages(id INTEGER PRIMARY KEY, source TEXT, path TEXT);"
        "CREATE VIRTUAL TABLE fts USING fts5(page UNINDEXED, title, body);"
    )
    con.executemany("INSERT INTO pages VALUES (?,?,?)", src.execute("SELECT id, source, path FROM pages"))
    rows = src.execute("SELECT s.page, p.title, s.heading, s.body FROM sections s JOIN pages p ON p.id = s.page")
    con.executemany(
        "INSERT INTO fts(page, title, body) VALUES (?,?,?)",
        ((page, title, heading + "\n" + zlib.decompress(body).decode()) for page, title, heading, body in rows),
    )
    con.commit()
    con.close()
    src.close()


_WORD = re.compile(r"\w+")


def baseline_search(con: sqlite3.Connection, query: str) -> list[tuple[str, str]]:
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))
    if not words:
        return []
    match = " OR ".join(f'"{w}"' for w in words)
    rows = con.execute(
        "SELECT p.source, p.path, bm25(fts) AS score FROM fts JOIN pages p ON p.id = fts.page "
        "WHERE fts MATCH ? ORDER BY score LIMIT 300",
        (match,),
    ).fetchall()
    seen: dict[tuple[str, str], None] = {}
    for source, path, _ in rows:
        seen.setdefault((source, path), None)
    return list(seen)


def graded() -> dict[tuple[str, str, tuple[str, str]], list[str]]:
    """(set, query, page key) -> its row in the grades file (kind, grade, set, source, path, query, reason),
    for every page a pooled judge graded, whatever the grade."""
    if not GRADES.is_file():
        return {}
    rows = [line.split("\t") for line in GRADES.read_text(encoding="utf-8").splitlines()[1:]]
    return {(r[2], r[5], _page_key(r[3], r[4])): r for r in rows if len(r) >= 6}


def judged(name: str) -> set[tuple[str, tuple[str, str]]]:
    """(query, page) pairs of one set a pooled judge graded."""
    return {(query, page) for set_name, query, page in graded() if set_name == name}


def mrr(ranks: list[int | None]) -> float:
    return sum(1 / r for r in ranks if r) / len(ranks)


def hit(ranks: list[int | None]) -> float:
    return sum(1 for r in ranks if r) / len(ranks)


def evaluate(name: str, baseline: sqlite3.Connection, details: bool) -> None:
    index = current()
    queries = load(name)
    more = pooled(name)
    graded = judged(name)
    unjudged = 0
    ours: list[int | None] = []
    base: list[int | None] = []
    ours_pooled: list[int | None] = []
    base_pooled: list[int | None] = []
    times: list[float] = []
    tops: list[list[tuple[str, str]]] = []
    for q in queries:
        start = time.perf_counter()
        hits, _ = index.search(q["query"], limit=K)
        times.append((time.perf_counter() - start) * 1000)
        got = [pages_of(h) for h in hits]
        tops.append(got)
        theirs = baseline_search(baseline, q["query"])
        ours.append(rank_of(got, q["relevant"]))
        base.append(rank_of(theirs, q["relevant"]))
        ours_pooled.append(rank_of(got, q["relevant"] + more.get(q["query"], [])))
        named = {_page_key(*_resolved(r)) for r in q["relevant"]}
        unjudged += sum(
            1
            for pages in got[:K]
            if not any(_page_key(*p) in named or (q["query"], _page_key(*p)) in graded for p in pages)
        )
        base_pooled.append(rank_of(theirs, q["relevant"] + more.get(q["query"], [])))
        if details and ours_pooled[-1] != 1:
            top = [f"{h.source}:{h.path}" for h in hits[:3]]
            print(
                f"  rank {ours[-1]}/{ours_pooled[-1]} (bm25 {base[-1]}/{base_pooled[-1]}) "
                f"[{q['product']}] {q['query']}\n      got {top}"
            )

    print(
        f"{name:8s} {len(queries):3d} queries | as written: sap-devs MRR@10 {mrr(ours):.3f} hit@10 {hit(ours):.3f}, "
        f"plain BM25 MRR@10 {mrr(base):.3f} hit@10 {hit(base):.3f} | "
        f"search p50 {statistics.median(times):.1f} ms p95 {sorted(times)[int(len(times) * 0.95) - 1]:.1f} ms"
    )
    if more:
        print(
            f"{'':8s} {len(more):3d} with pooled judgments | pooled: sap-devs MRR@10 {mrr(ours_pooled):.3f} "
            f"hit@10 {hit(ours_pooled):.3f}, plain BM25 MRR@10 {mrr(base_pooled):.3f} hit@10 {hit(base_pooled):.3f} "
            f"| sap-devs top-10 pages nobody judged: {unjudged} (re-pool with docs_pool.py when this grows)"
        )
    by_origin: dict[str, list[int | None]] = {}
    for q, r in zip(queries, ours_pooled, strict=True):
        by_origin.setdefault("real" if str(q.get("origin", "")).startswith("real") else "written", []).append(r)
    print(  # the sets' writers and the writers of the indexed page questions are both helper sessions
        "         by origin (pooled): "
        + ", ".join(f"{o} MRR@10 {mrr(r):.3f} hit@10 {hit(r):.3f} ({len(r)})" for o, r in sorted(by_origin.items()))
    )
    by_flavour: dict[str, list[int | None]] = {}
    other_first = 0
    for q, r, got in zip(queries, ours, tops, strict=True):
        if "flavour" in q:
            by_flavour.setdefault(q["flavour"], []).append(r)
            other = rank_of(got, [q["other"]]) if q.get("other") else None
            other_first += bool(other and (r is None or other < r))
    if by_flavour:
        print(
            "         by flavour (as written): "
            + ", ".join(
                f"{f} MRR@10 {mrr(r):.2f} hit@10 {hit(r):.2f} ({len(r)})" for f, r in sorted(by_flavour.items())
            )
        )
        print(f"         the other flavour's page ranked above the named one: {other_first} of {len(queries)}")
    if any("names_symbol" in q for q in queries):
        named_ranks: dict[bool, list[tuple[int | None, int | None]]] = {True: [], False: []}
        for q, r, theirs_r in zip(queries, ours, base, strict=True):
            named_ranks[bool(q.get("names_symbol"))].append((r, theirs_r))
        print(
            "         by naming the symbol (as written): "
            + ", ".join(
                f"{'names it' if k else 'does not'}: sap-devs MRR@10 {mrr([a for a, _ in v]):.3f} "
                f"hit@10 {hit([a for a, _ in v]):.3f}, plain BM25 MRR@10 {mrr([b for _, b in v]):.3f} ({len(v)})"
                for k, v in named_ranks.items()
                if v
            )
        )
    by_product: dict[str, list[int | None]] = {}
    for q, r in zip(queries, ours, strict=True):
        by_product.setdefault(q["product"], []).append(r)
    print(
        "         by product (as written): "
        + ", ".join(f"{p} {mrr(r):.2f}/{len(r)}" for p, r in sorted(by_product.items()))
    )


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "tuning"
    details = "--details" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "baseline.sqlite"
        build_baseline(current().path, path)
        baseline = sqlite3.connect(path)
        for name in ("tuning", "heldout", "flavours") if which in ("both", "all") else (which,):
            evaluate(name, baseline, details)


if __name__ == "__main__":
    main()
