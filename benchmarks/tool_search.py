"""How often search_tools puts the right operation first and in its top 3.

tool_tasks.json holds the tasks written while tuning the tool descriptions and ranking
(in-sample); tool_tasks_heldout.json holds tasks written before running search_tools on them and
never used for tuning (held-out). Next to search_tools, plain BM25 over each operation's name,
title and description (benchmarks/bm25.py) as a baseline. Runs with every tool registered (as
with SAP_URL set and --allow-writes). Usage: python benchmarks/tool_search.py [--misses | --all]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio

from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry, discover

sys.path.insert(0, str(Path(__file__).parent))
from bm25 import BM25

SETS = {
    "in-sample": Path(__file__).with_name("tool_tasks.json"),
    "held-out": Path(__file__).with_name("tool_tasks_heldout.json"),
    # issue 26's new tools: plain requests written before their descriptions, since tuned on (seen)
    "held-out-26": Path(__file__).with_name("tool_tasks_heldout_26.json"),
    # written before the descriptions were shortened in the session that tuned on held-out-26
    "held-out-26b": Path(__file__).with_name("tool_tasks_heldout_26b.json"),
    # issue 27's get_ui5_api: plain requests written before its description
    "held-out-27": Path(__file__).with_name("tool_tasks_heldout_27.json"),
}


async def main() -> None:
    show_misses = "--misses" in sys.argv
    show_all = "--all" in sys.argv  # every task's rank and top 3, not only the misses
    registry = Registry(discover(), system=True, writes=True, data=True, transports=True, execute=True)
    ctx = ToolContext(registry=registry)
    search = next(t for t in discover() if t.name == "search_tools")
    operations = registry.operations()
    names = {t.name for t in operations}
    bm25 = BM25([(t.name, " ".join([t.name.replace("_", " "), t.title, t.description])) for t in operations])

    async def engine(task: str) -> list[str]:
        outcome = await invoke(search, {"query": task, "limit": 10}, ctx)
        return [r["name"] for r in outcome.structured["results"]]

    async def baseline(task: str) -> list[str]:
        return bm25.search(task)

    print(f"operations: {len(operations)}")
    print(f"{'set':11} {'n':>3}  {'ranker':12} {'top-1':>12} {'top-3':>12}")
    for set_name, path in SETS.items():
        tasks = json.loads(path.read_text(encoding="utf-8"))["tasks"]
        unknown = {c["tool"] for c in tasks} - names
        if unknown:
            raise SystemExit(f"{path.name}: tools not registered: {sorted(unknown)}")
        n = len(tasks)
        for ranker, run in (("search_tools", engine), ("BM25", baseline)):
            top1 = top3 = 0
            misses = []
            for case in tasks:
                ranked = await run(case["task"])
                rank = ranked.index(case["tool"]) + 1 if case["tool"] in ranked[:10] else None
                top1 += rank == 1
                top3 += rank is not None and rank <= 3
                if rank != 1 or show_all:
                    misses.append((case["task"], case["tool"], rank, ranked[:3]))
            print(
                f"{set_name:11} {n:>3}  {ranker:12} {f'{top1}/{n} ({top1 / n:.0%})':>12} "
                f"{f'{top3}/{n} ({top3 / n:.0%})':>12}"
            )
            if (show_misses or show_all) and ranker == "search_tools":
                for task, tool, rank, shown in misses:
                    print(f"    rank {rank or '-'}: {task!r} -> want {tool}, got {shown}")


if __name__ == "__main__":
    anyio.run(main)
