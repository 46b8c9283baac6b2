"""get_known_errors on a 60 KB pasted trace, in process: p50 and p95 of the tool's handler.

Two pastes of 60,000 characters of CAP Java start-up log around a stack trace: one whose error line
has an entry (HANA [258], answered from the packs) and one whose error has none (a CDS compiler
duplicate definition, answered with the documentation fallback, so the docs search is timed too).
The first call of each builds the indexes and is reported apart; the figures are over the calls after it.
Usage: python benchmarks/known_errors_paste.py [--runs 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import anyio

from sap_devs.core import paths
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.tools.knowledge.get_known_errors import Input, handle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_pasted_traces import JAVA_TRACE, sixty_kb  # the same pastes the test uses

NO_ENTRY = "Error[duplicate-definition]: Duplicate definition of artifact “Books”\n   |\n  db/schema.cds:3:8-13"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    ctx = ToolContext(layers=[Layer("bundled", paths.bundled_root(), strict=True)])
    for name, error in (("with an entry", JAVA_TRACE), ("without an entry", NO_ENTRY)):
        pasted = sixty_kb(error)
        start = time.perf_counter()
        out = anyio.run(handle, Input(query=pasted), ctx)
        first = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            anyio.run(handle, Input(query=pasted), ctx)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        top = f"{out.results[0].id} ({out.results[0].strength})" if out.results else "-"
        print(
            f"{name:17} {len(pasted):,} chars: p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms "
            f"(first call {first:.0f} ms; {runs} runs); top {top}, {len(out.docs)} docs sections"
        )


if __name__ == "__main__":
    main()
