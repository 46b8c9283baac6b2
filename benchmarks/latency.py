"""Search latency: p50/p99 per search tool in-process and over stdio, first-query cost, index memory.

In-process calls go through the same dispatcher the MCP server uses (validation, handler,
serialisation). Usage: python benchmarks/latency.py [rounds]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import anyio
import yaml

QUERIES = yaml.safe_load(Path(__file__).with_name("relevance_queries.yaml").read_text(encoding="utf-8"))
TOOLS = {
    "search_tutorials": [{"query": c["q"]} for c in QUERIES["tutorials"]],
    "get_known_errors": [{"query": c["q"]} for c in QUERIES["known_errors"]],
    "search_resources": [{"query": c["q"]} for c in QUERIES["resources"]],
    "get_samples": [{"query": q} for q in ("multitenant", "RAP flight", "CAP Java", "terraform", "fiori tools")],
    "search_events": [{"query": q, "include_past": True} for q in ("TechEd", "CodeJam", "virtual")],
    "search_discovery": [{"query": q, "type": "services"} for q in ("SAP HANA Cloud", "destination", "event mesh")],
    "search_videos": [{"query": q} for q in ("ABAP", "CAP", "Joule", "integration")],
}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def first_query_cost() -> None:
    code = (
        "import time, anyio\n"
        "import mcp.server.lowlevel, mcp.server.stdio  # a running server has these loaded already\n"
        "{setup}"
        "t0 = time.perf_counter()\n"
        "from sap_devs.mcp.registry import Registry\n"
        "from sap_devs.mcp.dispatch import invoke\n"
        "from sap_devs.mcp.framework import ToolContext\n"
        "r = Registry.default(); ctx = ToolContext()\n"
        "t1 = time.perf_counter()\n"
        "anyio.run(invoke, r.get('{tool}'), {args!r}, ctx)\n"
        "t2 = time.perf_counter()\n"
        "print(f'{{(t2 - t1) * 1000:.0f}}')\n"
    )

    def cold(tool: str, args: dict[str, str], setup: str = "") -> float:
        script = code.format(tool=tool, args=args, setup=setup)
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
        return float(out.stdout.strip())

    for tool, args in (("get_known_errors", {"query": "SQL error 258"}), ("search_tutorials", {"query": "deploy CAP"})):
        runs = [cold(tool, args) for _ in range(5)]
        print(
            f"  first {tool} call in-process, cold (content load + index build): median {statistics.median(runs):.0f} ms"
        )
    # the parsed snapshot of the bundled YAML against parsing it, runs interleaved so noise hits both
    no_snapshot = "import sap_devs.knowledge.parsed_yaml as p; p.lookup = lambda path, raw: (False, None)\n"
    args = {"query": "SQL error 258"}
    pairs = [(cold("get_known_errors", args), cold("get_known_errors", args, no_snapshot)) for _ in range(8)]
    with_snap = statistics.median(a for a, _ in pairs)
    without = statistics.median(b for _, b in pairs)
    print(
        f"  first get_known_errors, cold: {with_snap:.0f} ms with the parsed-YAML snapshot, {without:.0f} ms "
        f"parsing YAML ({with_snap / without:.2f}x)"
    )


def index_memory() -> None:
    from sap_devs.knowledge.base import KnowledgeBase
    from sap_devs.live.tutorials import index as tutorials
    from sap_devs.search import Field, Index

    index = tutorials.load_index().items
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    built = Index(
        index,
        [Field("title", 3.0), Field("slug", 2.0), Field("tags", 1.5), Field("description", 1.0)],
        lambda t: {"title": t.title, "slug": t.slug, "tags": t.tag_words(), "description": t.description or ""},
    )
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert built.records is index
    print(f"  tutorial index ({len(index)} records): {(after - before) / 1024 / 1024:.1f} MiB")
    kb = KnowledgeBase.load()
    print(f"  known errors: {len(kb.records('known_errors'))} records; resources: {len(kb.records('resources'))}")


async def in_process(rounds: int) -> None:
    from sap_devs.mcp.dispatch import invoke
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry

    registry = Registry.default()
    ctx = ToolContext()
    print(f"in-process, {rounds} rounds over each tool's queries (ms):")
    for name, calls in TOOLS.items():
        tool = registry.get(name)
        for args in calls:  # warm: content loaded, indexes built
            await invoke(tool, args, ctx)
        times = []
        for _ in range(rounds):
            for args in calls:
                start = time.perf_counter()
                await invoke(tool, args, ctx)
                times.append((time.perf_counter() - start) * 1000)
        print(f"  {name:18} p50 {statistics.median(times):6.2f}   p99 {pct(times, 99):6.2f}   ({len(times)} calls)")


async def first_call_over_stdio() -> None:
    """Start the server, list tools, then call at once: the warm-up started by tools/list may still run."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "sap_devs", "mcp", "serve"])
    for name, args in (("get_known_errors", {"query": "SQL error 258"}), ("search_tutorials", {"query": "deploy CAP"})):
        runs = []
        for _ in range(5):
            async with Client(params, mode="legacy") as client:
                await client.list_tools()
                start = time.perf_counter()
                await client.call_tool(name, args)
                runs.append((time.perf_counter() - start) * 1000)
        print(f"  first {name} call over stdio right after tools/list: median {statistics.median(runs):.0f} ms")


async def over_stdio(rounds: int) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "sap_devs", "mcp", "serve"])
    print(f"over stdio, {rounds} rounds (ms, includes JSON-RPC and process hop):")
    async with Client(params, mode="legacy") as client:
        for name, calls in TOOLS.items():
            for args in calls:
                await client.call_tool(name, args)
            times = []
            for _ in range(rounds):
                for args in calls:
                    start = time.perf_counter()
                    await client.call_tool(name, args)
                    times.append((time.perf_counter() - start) * 1000)
            print(f"  {name:18} p50 {statistics.median(times):6.2f}   p99 {pct(times, 99):6.2f}")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    anyio.run(in_process, rounds)
    anyio.run(over_stdio, max(3, rounds // 4))
    print("first query and memory:")
    first_query_cost()
    anyio.run(first_call_over_stdio)
    index_memory()


if __name__ == "__main__":
    main()
