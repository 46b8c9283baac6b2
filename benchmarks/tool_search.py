"""How often search_tools puts the right operation in its top 3, for the tasks in tool_tasks.json.

Runs with every tool registered (as with SAP_URL set and --allow-writes). Usage: python benchmarks/tool_search.py
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry, discover

TASKS = json.loads(Path(__file__).with_name("tool_tasks.json").read_text(encoding="utf-8"))["tasks"]


async def main() -> None:
    registry = Registry(discover(), system=True, writes=True, data=True, transports=True)
    ctx = ToolContext(registry=registry)
    search = next(t for t in discover() if t.name == "search_tools")
    top1 = top3 = 0
    misses = []
    for case in TASKS:
        outcome = await invoke(search, {"query": case["task"], "limit": 10}, ctx)
        names = [r["name"] for r in outcome.structured["results"]]
        rank = names.index(case["tool"]) + 1 if case["tool"] in names else None
        top1 += rank == 1
        top3 += rank is not None and rank <= 3
        if rank != 1:
            misses.append((case["task"], case["tool"], rank, names[:3]))
    n = len(TASKS)
    print(f"operations: {len(registry.operations())}   tasks: {n}")
    print(f"top-1: {top1}/{n} ({top1 / n:.0%})   top-3: {top3}/{n} ({top3 / n:.0%})")
    for task, tool, rank, shown in misses:
        print(f"  rank {rank or '-'}: {task!r} -> want {tool}, got {shown}")


if __name__ == "__main__":
    anyio.run(main)
