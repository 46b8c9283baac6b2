"""get_ui5_api: the first call in a fresh process (loading the bundled data; the first word search also
builds its index), warm p50 per kind of request, the size of the bundled data, and reading a
project's @sapui5/types (cold and cached) when SAPUI5_TYPES points at one.

Usage: python benchmarks/ui5_api.py [rounds]
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sap_devs.knowledge.ui5_api import catalog  # noqa: E402

REQUESTS: list[tuple[str, dict[str, str]]] = [
    ("exact name", {"name": "sap.m.Button"}),
    ("module path", {"name": "sap/m/Table"}),
    ("short name", {"name": "DateRangeSelection"}),
    ("ambiguous", {"name": "Table"}),
    ("inherited member", {"name": "sap.m.Table", "member": "growing"}),
    ("method member", {"name": "sap.ui.core.Control", "member": "addStyleClass"}),
    ("words", {"name": "date range picker"}),
    ("words", {"name": "growing table"}),
]

FIRST_CALL = """
import time, anyio
t0 = time.perf_counter()
from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
registry = Registry.default()
tool = registry.get("get_ui5_api")
ctx = ToolContext(registry=registry)
t1 = time.perf_counter()
async def main():
    out = await invoke(tool, {ARGS}, ctx)
    assert not out.is_error, out.text
anyio.run(main)
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1000:.0f} {(t2 - t1) * 1000:.0f}")
"""


def first_call(args: dict[str, str]) -> tuple[float, float]:
    code = FIRST_CALL.replace("{ARGS}", repr(args))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    registry_ms, call_ms = out.stdout.split()
    return float(registry_ms), float(call_ms)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    import anyio

    from sap_devs.mcp.dispatch import invoke
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry

    packed = catalog.BUNDLED_PATH.stat().st_size
    raw = gzip.decompress(catalog.BUNDLED_PATH.read_bytes())
    data = json.loads(raw)
    print(f"bundled data: {packed / 1e6:.2f} MB in the wheel and installed (gzip), {len(raw) / 1e6:.2f} MB JSON")
    print(f"  {len(data['symbols'])} symbols, {len(data['libraries'])} libraries, {data['source']}")

    print("first call in a fresh process (median of 3; the registry start is not part of it):")
    for label, args in (("exact name", {"name": "sap.m.Button"}), ("words", {"name": "date range picker"})):
        runs = [first_call(args) for _ in range(3)]
        print(f"  {label:18} {statistics.median(r[1] for r in runs):7.0f} ms")

    registry = Registry.default()
    tool = registry.get("get_ui5_api")
    assert tool is not None
    ctx = ToolContext(registry=registry, cwd=Path("/"))

    async def run() -> None:
        for _, args in REQUESTS:  # warm everything once: data, index
            await invoke(tool, args, ctx)
        print(f"warm p50 over {rounds} rounds:")
        for label, args in REQUESTS:
            times = []
            for _ in range(rounds):
                started = time.perf_counter()
                out = await invoke(tool, args, ctx)
                times.append((time.perf_counter() - started) * 1000)
                assert not out.is_error, out.text
            print(
                f"  {label:18} {args['name'][:22]:22} p50 {statistics.median(times):6.1f} ms  max {max(times):6.1f} ms"
            )

    anyio.run(run)

    sapui5 = os.environ.get("SAPUI5_TYPES")
    if sapui5:
        project = Path(sapui5)
        started = time.perf_counter()
        found = catalog.project_types(project, catalog.bundled().libraries, budget=120)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        catalog.project_types(project, catalog.bundled().libraries, budget=120)
        warm = time.perf_counter() - started
        libs = len(found.libraries) if found else 0
        print(f"@sapui5/types in {project}: {libs} libraries read in {cold:.1f} s cold, {warm * 1000:.0f} ms cached")


if __name__ == "__main__":
    main()
