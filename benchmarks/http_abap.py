"""What a per-request ADT logon costs: ABAP tools over HTTP (each request brings its caller's SAP
credentials and opens its own ADT session) against the same tool with one long-lived session.

Fake ADT server and sap-devs HTTP server both on 127.0.0.1; sequential calls; prints medians (ms)
and the ratio. Usage: python benchmarks/http_abap.py [rounds, default 200]
"""

from __future__ import annotations

import base64
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_adt import FakeAdt  # noqa: E402
from tests.http_helpers import sap_devs_http  # noqa: E402

from sap_devs.adt.config import AdtConfig  # noqa: E402
from sap_devs.adt.safety import SafetyPolicy  # noqa: E402
from sap_devs.http.app import HttpSettings  # noqa: E402
from sap_devs.http.run import open_http_session  # noqa: E402
from sap_devs.mcp.dispatch import invoke  # noqa: E402
from sap_devs.mcp.framework import ToolContext  # noqa: E402
from sap_devs.mcp.registry import Registry, discover  # noqa: E402
from sap_devs.mcp.server import build_server  # noqa: E402

HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
}


def call(name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def over_http(base: str, body: dict, headers: dict[str, str], rounds: int) -> list[float]:
    times = []
    with httpx.Client(headers={**HEADERS, **headers}, timeout=30) as http:
        http.post(base + "/mcp", json=body)  # warm
        for _ in range(rounds):
            start = time.perf_counter()
            answer = http.post(base + "/mcp", json=body)
            times.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200 and '"isError":false' in answer.text.replace(" ", ""), answer.text[:300]
    return times


async def in_process(fake: FakeAdt, rounds: int) -> list[float]:
    config = AdtConfig(url=fake.url, client="100", user=fake.user, password=fake.password)
    registry = Registry(discover(), system=True)
    ctx = ToolContext(adt_config=config, safety=SafetyPolicy(), registry=registry)
    tool = registry.get("get_program")
    await invoke(tool, {"name": "ZTEST_PROGRAM"}, ctx)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        await invoke(tool, {"name": "ZTEST_PROGRAM"}, ctx)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(rounds: int) -> None:
    with FakeAdt().running() as fake, tempfile.TemporaryDirectory() as cwd:
        os.environ.update(SAP_URL=fake.url, SAP_CLIENT="100")
        for name in ("SAP_USER", "SAP_PASSWORD", "SAP_BEARER_TOKEN", "SAP_JWT_TOKEN", "SAP_SERVICE_KEY"):
            os.environ.pop(name, None)
        registry, ctx = open_http_session(None, None, Path(cwd), abap=True)
        logon = "Basic " + base64.b64encode(f"{fake.user}:{fake.password}".encode()).decode()
        with sap_devs_http(build_server(registry, ctx), HttpSettings(), ctx) as base:
            abap = over_http(
                base, call("get_program", {"name": "ZTEST_PROGRAM"}), {"X-SAP-Authorization": logon}, rounds
            )
            knowledge = over_http(base, call("get_known_errors", {"query": "SQL error 258"}), {}, rounds)
        direct = anyio.run(in_process, fake, rounds)
    rows = [
        ("get_program over HTTP, ADT session per request", abap),
        ("get_program in process, one ADT session", direct),
        ("get_known_errors over HTTP (no ADT)", knowledge),
    ]
    print(f"median of {rounds} sequential calls (ms):")
    for label, times in rows:
        print(f"  {label:48} {statistics.median(times):7.2f}  p99 {statistics.quantiles(times, n=100)[98]:7.2f}")
    overhead = statistics.median(abap) - statistics.median(knowledge)
    print(
        f"  ABAP over HTTP / in process: {statistics.median(abap) / statistics.median(direct):.1f}x; "
        f"ABAP call over HTTP minus a knowledge call over HTTP: {overhead:.2f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
