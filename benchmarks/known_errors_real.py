"""Hit rate of get_known_errors on real error messages collected from public issue threads.

benchmarks/real_errors_tuning.yaml holds 35 messages from other public threads and SAP Community
posts, labelled by reading the entries before any search was run; ranking changes are tuned on it.
benchmarks/real_errors.yaml holds 20 messages as users pasted them (with their own names, paths
and numbers) and, per message, `expected`: the bundled entry ids that answer it, assigned by
reading the entries, not by running the search. 15 of its ids were added in the same commit as
the set, so its figures are in-sample. benchmarks/real_errors_heldout.yaml holds messages from
other public threads, collected and labelled before running the search and never used for tuning
or for writing entries (held-out). benchmarks/real_errors_validation.yaml holds 32 messages from
further public threads, labelled by reading the entries before any run and without seeing the
held-out set; it is a validation set, never tuned against. A message whose `expected` is empty
has no bundled answer and counts as a miss. Next to the engine, plain BM25 over the same fields
(pattern, tags, id, cause; benchmarks/bm25.py) as a baseline.
Usage: python benchmarks/known_errors_real.py [--detail] [set ...]
(sets: tuning, in-sample, held-out, validation; all by default)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from sap_devs.core import paths
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.queries import find_known_errors

sys.path.insert(0, str(Path(__file__).parent))
from bm25 import BM25

SETS = {
    "tuning": Path(__file__).with_name("real_errors_tuning.yaml"),
    "in-sample": Path(__file__).with_name("real_errors.yaml"),
    "held-out": Path(__file__).with_name("real_errors_heldout.yaml"),
    "validation": Path(__file__).with_name("real_errors_validation.yaml"),
}


def hits(run: Callable[[str], list[str]], cases: list[dict], known: set[str], detail: bool) -> tuple[int, int]:
    top1 = top3 = 0
    for case in cases:
        expected = set(case.get("expected") or [])
        unknown = expected - known
        if unknown:
            raise SystemExit(f"expected ids not in the bundled packs: {sorted(unknown)}")
        ranked = run(case["message"])
        rank = next((i + 1 for i, eid in enumerate(ranked) if eid in expected), None)
        top1 += rank == 1
        top3 += rank is not None and rank <= 3
        if detail:
            shown = "-" if rank is None else str(rank)
            print(f"  {shown:>4}  {case['area']:6} {','.join(sorted(expected)) or '(no entry)'} -> {ranked[:3]}")
    return top1, top3


def main() -> None:
    detail = "--detail" in sys.argv
    chosen = [a for a in sys.argv[1:] if not a.startswith("--")] or list(SETS)
    unknown_sets = set(chosen) - set(SETS)
    if unknown_sets:
        raise SystemExit(f"unknown set(s) {sorted(unknown_sets)}; choose from {list(SETS)}")
    kb = KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)])
    errors = [e for p in kb.packs for e in p.known_errors]
    known = {e.id for e in errors}
    engines = {
        "engine": lambda q: [e.id for _, e in find_known_errors(kb, q)],
        "BM25": BM25([(e.id, " ".join([e.pattern, " ".join(e.tags), e.id, e.cause])) for e in errors]).search,
    }
    print(f"{'set':9} {'n':>3} {'answerable':>10}  {'ranker':7} {'top-1':>12} {'top-3':>12}")
    for name in chosen:
        path = SETS[name]
        cases = yaml.safe_load(path.read_text(encoding="utf-8"))
        n = len(cases)
        answerable = sum(1 for c in cases if c.get("expected"))
        for ranker, run in engines.items():
            if detail:
                print(f"{name} / {ranker}: rank  area   expected -> top 3")
            top1, top3 = hits(run, cases, known, detail)
            print(
                f"{name:9} {n:>3} {answerable:>10}  {ranker:7} {f'{top1}/{n} ({top1 / n:.0%})':>12} "
                f"{f'{top3}/{n} ({top3 / n:.0%})':>12}"
            )


if __name__ == "__main__":
    main()
