"""Relevance of sap-devs search against the original sap-devs filters, on a public query set.

benchmarks/relevance_queries.yaml holds 70 queries (tutorials, known errors, resources) with the
ids that should come first. For each corpus this prints MRR@10 and recall@5 for the sap-devs
engine and, in the same run, for the original's filters re-implemented as a baseline:
whole-query case-insensitive substring (resources, known errors) and all-words AND with title
matches first (tutorials). Usage: python benchmarks/relevance.py [--misses]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from sap_devs.core import paths
from sap_devs.knowledge import tutorials
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.queries import find_known_errors, find_resources

QUERIES = Path(__file__).with_name("relevance_queries.yaml")


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
    data = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    kb = KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)])
    index = tutorials.load_index().items
    errors = [e for _, e in kb.items("known_errors")]
    resources = [r for _, r in kb.items("resources")]
    engines = {
        "tutorials": (
            lambda q: [t.slug for t in tutorials.search(index, q)],
            and_filter([t for t in index if t.live]),
        ),
        "known_errors": (
            lambda q: [e.id for _, e in find_known_errors(kb, q)],
            substring_filter(errors, lambda e: (e.id, e.pattern, e.cause, e.fix, " ".join(e.tags))),
        ),
        "resources": (
            lambda q: [r.id for _, r in find_resources(kb, q)],
            substring_filter(resources, lambda r: (r.id, r.title, r.type, " ".join(r.tags))),
        ),
    }
    total = {"engine": [0.0, 0.0], "baseline": [0.0, 0.0]}
    n_all = 0
    print(f"{'corpus':13} {'n':>3}  {'engine MRR@10':>13} {'recall@5':>8}  {'baseline MRR@10':>15} {'recall@5':>8}")
    for corpus, (engine, baseline) in engines.items():
        cases = data[corpus]
        e_mrr, e_rec, misses = scores(engine, cases)
        b_mrr, b_rec, _ = scores(baseline, cases)
        n = len(cases)
        n_all += n
        for key, (m, r) in (("engine", (e_mrr, e_rec)), ("baseline", (b_mrr, b_rec))):
            total[key][0] += m * n
            total[key][1] += r * n
        print(f"{corpus:13} {n:>3}  {e_mrr:>13.3f} {e_rec:>8.3f}  {b_mrr:>15.3f} {b_rec:>8.3f}")
        if show_misses:
            for query, top in misses:
                print(f"    miss: {query!r} -> {top}")
    e_mrr, e_rec = (v / n_all for v in total["engine"])
    b_mrr, b_rec = (v / n_all for v in total["baseline"])
    print(f"{'all':13} {n_all:>3}  {e_mrr:>13.3f} {e_rec:>8.3f}  {b_mrr:>15.3f} {b_rec:>8.3f}")
    print(f"MRR@10 ratio engine / baseline: {e_mrr / b_mrr if b_mrr else float('inf'):.2f}x")


if __name__ == "__main__":
    main()
