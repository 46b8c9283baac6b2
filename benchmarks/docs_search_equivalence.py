"""Does a change to the documentation search's execution path leave every answer as it was?

Runs every query of benchmarks/docs_queries_*.yaml and benchmarks/docs_passage_questions.yaml through
``DocsIndex.search`` twice (no filter, and filtered by the query's product when the index knows it) and
records what a user sees of the top 10: source, path, section, score (rounded to 6 decimals), the
answering sections, snippet, strength, flavours and the total. ``write FILE`` saves that dump, ``check
FILE`` compares the current code with it (exit status 1 and the first differences when it differs), and
``against REF`` compares the current code with the code of git commit REF, both run here on the same
index, so no file from another index is needed.

Usage: python benchmarks/docs_search_equivalence.py write|check FILE
       python benchmarks/docs_search_equivalence.py against REF
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from sap_devs.docs import store
from sap_devs.docs.sources import PRODUCTS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SETS = [*sorted(HERE.glob("docs_queries_*.yaml")), HERE / "docs_passage_questions.yaml"]
K = 10


def queries() -> list[tuple[str, str | None]]:
    """(query, product filter) pairs, each query once unfiltered and once with its product."""
    found: list[tuple[str, str | None]] = []
    for path in SETS:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
            found.append((entry["query"], None))
            if entry.get("product") in PRODUCTS:
                found.append((entry["query"], entry["product"]))
    return list(dict.fromkeys(found))


def dump(index: Any) -> list[dict]:
    rows = []
    for query, product in queries():
        hits, total = index.search(query, product=product, limit=K)
        rows.append(
            {
                "query": query,
                "product": product,
                "total": total,
                "hits": [
                    [
                        h.source,
                        h.path,
                        h.section,
                        round(h.score, 6),
                        list(h.sections),
                        h.snippet,
                        h.strength,
                        list(h.flavours),
                        h.anchor,
                        h.url,
                    ]
                    for h in hits
                ],
            }
        )
    return rows


def old_index_module(ref: str) -> ModuleType:
    """src/sap_devs/docs/index.py as it was at ``ref``, loaded beside the current one."""
    source = subprocess.run(
        ["git", "show", f"{ref}:src/sap_devs/docs/index.py"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="sap-devs-old-index-"))
    path = folder / "old_docs_index.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_docs_index", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_docs_index"] = module
    spec.loader.exec_module(module)
    return module


def differences(before: list[dict], after: list[dict]) -> list[str]:
    if len(before) != len(after):
        return [f"{len(before)} queries before, {len(after)} now"]
    found = []
    for a, b in zip(before, after, strict=True):
        if a != b:
            found.append(f"{a['query'][:70]!r} (product {a['product']}):\n  before {a}\n  now    {b}")
    return found


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "check", "against"):
        print(__doc__)
        return 2
    mode, arg = sys.argv[1:]
    index = store.current()
    if mode == "against":
        old = old_index_module(arg).DocsIndex(index.path)
        before = dump(old)
    elif mode == "check":
        before = json.loads(Path(arg).read_text(encoding="utf-8"))
    now = dump(index)
    if mode == "write":
        Path(arg).write_text(json.dumps(now, ensure_ascii=False, indent=0), encoding="utf-8")
        print(f"{len(now)} queries written to {arg}")
        return 0
    diff = differences(before, now)
    for line in diff[:5]:
        print(line)
    print(f"{len(now)} queries, {len(diff)} differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
