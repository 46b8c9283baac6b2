"""Median latency of ABAP tools against the fake ADT server on 127.0.0.1 (real HTTP, in-process dispatch).

Usage: python benchmarks/adt_latency.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_adt import FakeAdt  # noqa: E402

from sap_devs.adt.config import AdtConfig  # noqa: E402
from sap_devs.adt.safety import SafetyPolicy  # noqa: E402
from sap_devs.mcp.dispatch import invoke  # noqa: E402
from sap_devs.mcp.framework import ToolContext  # noqa: E402
from sap_devs.mcp.registry import Registry, discover  # noqa: E402

CALLS = [
    ("get_class", {"name": "ZCL_SAMPLE_CLASS"}),
    ("get_program", {"name": "ZTEST_PROGRAM"}),
    ("search_objects", {"query": "Z*"}),
    ("syntax_check", {"name": "ZCL_SAMPLE_CLASS", "kind": "class"}),
]


async def main(rounds: int) -> None:
    with FakeAdt().running() as fake:
        config = AdtConfig(url=fake.url, client="100", user=fake.user, password=fake.password)
        registry = Registry(discover(), system=True)
        ctx = ToolContext(adt_config=config, safety=SafetyPolicy(), registry=registry)
        print(f"median over {rounds} calls against the fake ADT server (ms):")
        for name, args in CALLS:
            tool = registry.get(name)
            await invoke(tool, args, ctx)  # connection and CSRF warm
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                outcome = await invoke(tool, args, ctx)
                times.append((time.perf_counter() - start) * 1000)
                assert not outcome.is_error, outcome.text
            print(f"  {name:16} {statistics.median(times):6.2f}")


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 30)
