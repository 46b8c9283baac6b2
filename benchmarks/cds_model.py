"""search_cds_model and check_cds on SAP's cap-sflight sample: the first call (compile), warm calls (the
cached model), check_cds, and the compiler alone for comparison.

Needs the CDS toolchain: SAP_DEVS_TOOLCHAIN_DIR pointing at a folder with node_modules/@sap/cds-compiler
and @sap/cds (the test cache ~/.cache/sap-devs-test-sap-tools works) and a Node 22.

Usage: python benchmarks/cds_model.py [rounds]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sap_devs.mcp.dispatch import invoke  # noqa: E402
from sap_devs.mcp.framework import ToolContext  # noqa: E402
from sap_devs.mcp.registry import Registry  # noqa: E402
from sap_devs.toolchain import locate  # noqa: E402
from sap_devs.toolchain.node import find_node  # noqa: E402

SAMPLE = ROOT / "tests" / "fixtures" / "cap" / "cap-sflight"
QUERIES = ["Travel", "TravelService", "booking supplement", "Airport", "FlightConnection"]


async def _timed(registry: Registry, name: str, args: dict[str, object], ctx: ToolContext) -> float:
    tool = registry.get(name)
    assert tool is not None
    started = time.perf_counter()
    outcome = await invoke(tool, args, ctx)
    elapsed = time.perf_counter() - started
    if outcome.is_error:
        raise SystemExit(f"{name} failed: {outcome.text}")
    return elapsed


def _compiler_alone(project: Path) -> float:
    """The same files compiled by cds-compiler in a plain Node process, without sap-devs."""
    compiler = locate.package_dir("@sap/cds-compiler")
    cds = locate.package_dir("@sap/cds")
    files = [*sorted(str(p) for p in project.rglob("*.cds")), str(cds / "srv" / "outbox.cds")]
    script = (
        "const c=require(process.argv[1]);"
        "c.compile(JSON.parse(process.argv[3]),process.argv[4],{messages:[],withLocations:true,cdsHome:process.argv[2]})"
        ".then(m=>process.stdout.write(String(JSON.stringify(m).length)))"
    )
    started = time.perf_counter()
    subprocess.run(
        [str(find_node((22, 0))), "-e", script, str(compiler), str(cds), json.dumps(files), str(project)],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


async def main(rounds: int) -> None:
    registry = Registry.default()
    firsts, warms, checks, alone = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SAP_DEVS_CACHE_DIR"] = str(Path(tmp) / "cache")
        for n in range(rounds):
            project = Path(tmp) / f"sflight{n}"
            shutil.copytree(SAMPLE, project)
            ctx = ToolContext(cwd=project)
            args = {"query": "Travel", "path": str(project)}
            firsts.append(await _timed(registry, "search_cds_model", args, ctx))
            for q in QUERIES:
                warms.append(await _timed(registry, "search_cds_model", {"query": q, "path": str(project)}, ctx))
            checks.append(await _timed(registry, "check_cds", {"path": str(project)}, ctx))
            (project / "srv" / "travel-service.cds").touch()  # a changed file: check_cds compiles again
            checks.append(await _timed(registry, "check_cds", {"path": str(project)}, ctx))
            alone.append(_compiler_alone(project))
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    print(f"cap-sflight (15 model files, 83 definitions), {rounds} round(s), medians:")
    print(f"  search_cds_model first call (compile):   {ms(firsts):8.0f} ms")
    print(f"  search_cds_model warm ({len(warms)} calls):       {ms(warms):8.1f} ms")
    print(f"  check_cds (cached / after a change):     {ms(checks[0::2]):8.1f} / {ms(checks[1::2]):.0f} ms")
    print(f"  cds-compiler alone in plain node:        {ms(alone):8.0f} ms")
    print(f"  first call / compiler alone:             {ms(firsts) / ms(alone):8.2f}x")


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 3)
