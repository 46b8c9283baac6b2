"""Hit rate of get_known_errors on 20 real error messages collected from public issue threads.

benchmarks/real_errors.yaml holds the messages as users pasted them (with their own names, paths
and numbers) and, per message, `expected`: the bundled entry ids that answer it, assigned by
reading the entries, not by running the search. A message whose `expected` is empty has no
bundled answer and counts as a miss. Usage: python benchmarks/known_errors_real.py
"""

from __future__ import annotations

from pathlib import Path

import yaml

from sap_devs.core import paths
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.queries import find_known_errors

SET = Path(__file__).with_name("real_errors.yaml")


def main() -> None:
    cases = yaml.safe_load(SET.read_text(encoding="utf-8"))
    kb = KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)])
    known = {e.id for p in kb.packs for e in p.known_errors}
    top1 = top3 = 0
    print(f"{'rank':>4}  {'area':6} expected -> top 3")
    for case in cases:
        expected = set(case.get("expected") or [])
        unknown = expected - known
        if unknown:
            raise SystemExit(f"expected ids not in the bundled packs: {sorted(unknown)}")
        ranked = [e.id for _, e in find_known_errors(kb, case["message"])]
        rank = next((i + 1 for i, eid in enumerate(ranked) if eid in expected), None)
        top1 += rank == 1
        top3 += rank is not None and rank <= 3
        shown = "-" if rank is None else str(rank)
        print(f"{shown:>4}  {case['area']:6} {','.join(sorted(expected)) or '(no entry)'} -> {ranked[:3]}")
    n = len(cases)
    print(f"\ntop-1: {top1}/{n} ({top1 / n:.0%})   top-3: {top3}/{n} ({top3 / n:.0%})")


if __name__ == "__main__":
    main()
