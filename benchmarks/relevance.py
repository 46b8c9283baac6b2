"""Relevance of sap-devs search against the original sap-devs filters and plain BM25.

benchmarks/relevance_queries.yaml holds 70 queries (tutorials, known errors, resources) with the
ids that should come first; they were written while reading the data they measure and used
while tuning, so their figures are in-sample. benchmarks/relevance_queries_heldout.yaml holds
questions written before running the engine and never used for tuning (held-out). For each set
and corpus this prints MRR@10 and recall@5 for the sap-devs engine and, in the same run, for two
baselines: the original's filters (whole-query case-insensitive substring for resources and
known errors, all-words AND with title matches first for tutorials) and plain BM25 over the same
fields (benchmarks/bm25.py). Usage: python benchmarks/relevance.py [--misses]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from sap_devs.core import paths
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.queries import find_known_errors, find_resources
from sap_devs.live.tutorials import index as tutorials

QUERIES = Path(__file__).with_name("relevance_queries.yaml")
HELDOUT = Path(__file__).with_name("relevance_queries_heldout.yaml")
sys.path.insert(0, str(Path(__file__).parent))
from bm25 import BM25  # noqa: E402


def substring_filter(items: list, fields: Callable) -> Callable[[str], list[str]]:
    def run(query: str) -> list[str]:
        q = query.lower()
        return [item.id for item in items if any(q in (f or "").lower() for f in fields(item))]

    return run


def and_filter(index: list) -> Callable[[str], list[str]]:
    def run(query: str) -> list[str]:
        words = query.lower().split()
        hits = []
        for t in index:
            text = " ".join([t.title, t.description or "", t.slug, *t.tags]).lower()
            if all(w in text for w in words):
                hits.append(t)
        hits.sort(key=lambda t: 0 if any(w in t.title.lower() for w in words) else 1)
        return [t.slug for t in hits]

    return run


def scores(run: Callable[[str], list[str]], cases: list[dict]) -> tuple[float, float, list[tuple[str, list[str]]]]:
    rr = recall = 0.0
    misses = []
    for case in cases:
        ranked = run(case["q"])[:10]
        expected = set(case["expected"])
        rank = next((i + 1 for i, r in enumerate(ranked) if r in expected), None)
        rr += 1 / rank if rank else 0.0
        recall += len(expected & set(ranked[:5])) / min(len(expected), 5)
        if rank != 1:
            misses.append((case["q"], ranked[:3]))
    n = len(cases)
    return rr / n, recall / n, misses


def main() -> None:
    show_misses = "--misses" in sys.argv
    sets = {
        "in-sample": yaml.safe_load(QUERIES.read_text(encoding="utf-8")),
        "held-out": yaml.safe_load(HELDOUT.read_text(encoding="utf-8")),
    }
    kb = KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)])
    index = tutorials.load_index().items
    live = [t for t in index if t.live]
    errors = [e for _, e in kb.items("known_errors")]
    resources = [r for _, r in kb.items("resources")]
    engines = {
        "tutorials": (
            lambda q: [t.slug for t in tutorials.search(index, q)],
            and_filter(live),
            BM25([(t.slug, " ".join([t.title, t.description or "", t.slug, *t.tags])) for t in live]).search,
        ),
        "known_errors": (
            lambda q: [e.id for _, e in find_known_errors(kb, q)],
            substring_filter(errors, lambda e: (e.id, e.pattern, e.cause, e.fix, " ".join(e.tags))),
            BM25([(e.id, " ".join([e.pattern, " ".join(e.tags), e.id, e.cause])) for e in errors]).search,
        ),
        "resources": (
            lambda q: [r.id for _, r in find_resources(kb, q)],
            substring_filter(resources, lambda r: (r.id, r.title, r.type, " ".join(r.tags))),
            BM25(
                [(r.id, " ".join([r.title, " ".join(r.tags), r.id, r.type, r.description or ""])) for r in resources]
            ).search,
        ),
    }
    print(
        f"{'set':9} {'corpus':13} {'n':>3}  {'engine MRR@10':>13} {'recall@5':>8}  "
        f"{'original MRR@10':>15} {'recall@5':>8}  {'BM25 MRR@10':>11} {'recall@5':>8}"
    )
    for name, data in sets.items():
        total = {"engine": [0.0, 0.0], "original": [0.0, 0.0], "bm25": [0.0, 0.0]}
        n_all = 0
        for corpus, (engine, original, bm25) in engines.items():
            cases = data.get(corpus) or []
            if not cases:
                continue
            n = len(cases)
            n_all += n
            row = []
            misses: list[tuple[str, list[str]]] = []
            for key, run in (("engine", engine), ("original", original), ("bm25", bm25)):
                mrr, rec, missed = scores(run, cases)
                total[key][0] += mrr * n
                total[key][1] += rec * n
                row += [mrr, rec]
                if key == "engine":
                    misses = missed
            print(
                f"{name:9} {corpus:13} {n:>3}  {row[0]:>13.3f} {row[1]:>8.3f}  {row[2]:>15.3f} {row[3]:>8.3f}  "
                f"{row[4]:>11.3f} {row[5]:>8.3f}"
            )
            if show_misses:
                for query, top in misses:
                    print(f"    miss: {query!r} -> {top}")
        if n_all > 1:
            e, o, b = ([v / n_all for v in total[k]] for k in ("engine", "original", "bm25"))
            print(
                f"{name:9} {'all':13} {n_all:>3}  {e[0]:>13.3f} {e[1]:>8.3f}  {o[0]:>15.3f} {o[1]:>8.3f}  "
                f"{b[0]:>11.3f} {b[1]:>8.3f}"
            )


if __name__ == "__main__":
    main()
