"""get_known_errors on the corpus of messages SAP's tools really print (tests/data/real_messages, issue 28).

The corpus was captured from the real tools by scripts/capture_real_messages.py (or quoted from SAP's
documentation). About a quarter is held out: chosen by a seeded hash of each fixture's name before any
entry was written, and never used to tune entries or ranking. Entries were written, and their wording
adjusted, against the rest (the tuned part). Messages with `expect: null` deliberately have no entry;
they show what the tool answers for a message it cannot know (the no-match signal is calibrated on them).
Next to the engine, plain BM25 over the same fields (pattern, tags, id, cause; benchmarks/bm25.py).
Usage: python benchmarks/real_messages.py [--detail]
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

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "real_messages"


def load() -> list[dict]:
    items = []
    for path in sorted(CORPUS.glob("*.yaml")):
        items += [{**i, "file": path.stem} for i in yaml.safe_load(path.read_text(encoding="utf-8")) or []]
    return items


def ranks(run: Callable[[str], list[str]], items: list[dict], detail: bool) -> tuple[int, int]:
    top1 = top3 = 0
    for item in items:
        ranked = run(item["message"])
        rank = ranked.index(item["expect"]) + 1 if item["expect"] in ranked else None
        top1 += rank == 1
        top3 += rank is not None and rank <= 3
        if detail and rank != 1:
            print(f"    {rank or '-':>2}  {item['file']}/{item['scenario']}: {item['expect']} -> {ranked[:3]}")
    return top1, top3


def main() -> None:
    detail = "--detail" in sys.argv
    kb = KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)])
    errors = [e for p in kb.packs for e in p.known_errors]
    engines = {
        "engine": lambda q: [e.id for _, e in find_known_errors(kb, q)],
        "BM25": BM25([(e.id, " ".join([e.pattern, " ".join(e.tags), e.id, e.cause])) for e in errors]).search,
    }
    items = load()
    print(f"{len(items)} fixtures, {len({i['message'] for i in items})} distinct messages, {len(errors)} entries")
    parts = {
        "tuned": [i for i in items if i["expect"] and not i["heldout"]],
        "held-out": [i for i in items if i["expect"] and i["heldout"]],
    }
    print(f"{'part':9} {'n':>4}  {'ranker':7} {'top-1':>13} {'top-3':>13}")
    for name, part in parts.items():
        n = len(part)
        for ranker, run in engines.items():
            if detail:
                print(f"  {name} / {ranker}, not first:")
            top1, top3 = ranks(run, part, detail)
            print(f"{name:9} {n:>4}  {ranker:7} {f'{top1} ({top1 / n:.0%})':>13} {f'{top3} ({top3 / n:.0%})':>13}")
    without = [i for i in items if i["expect"] is None]
    answered = sum(1 for i in without if find_known_errors(kb, i["message"]))
    held = sum(1 for i in without if i["heldout"])
    print(f"no entry: {len(without)} messages ({held} held out); the engine returns results for {answered} of them")


if __name__ == "__main__":
    main()
