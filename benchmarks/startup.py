"""Cold start: process start to the tools/list response over stdio.

Runs `sap-devs mcp serve` and, in the same run, a bare `mcp` SDK low-level server with one tool,
each N times (default 5), and prints the medians, their ratio, the number of tools and the size of
the tools/list response. Usage: python benchmarks/startup.py [runs]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

BARE_SERVER = textwrap.dedent(
    """
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    TOOL = types.Tool(
        name="echo",
        description="Echo the text back.",
        input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    )

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[TOOL])

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(type="text", text=params.arguments["text"])])

    server = Server("bare", version="1", on_list_tools=list_tools, on_call_tool=call_tool)

    async def main():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
    """
)

MESSAGES = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def time_to_tools_list(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, bytes]:
    payload = b"".join(json.dumps(m).encode() + b"\n" for m in MESSAGES)
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(payload)
    proc.stdin.flush()
    try:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{argv} closed stdout before answering tools/list")
            message = json.loads(line)
            if message.get("id") == 2:
                elapsed = time.perf_counter() - start
                return elapsed, line
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        for var in ("SAP_DEVS_CONFIG_DIR", "SAP_DEVS_CACHE_DIR", "SAP_DEVS_DATA_DIR"):
            env[var] = str(Path(tmp) / var.lower())
        bare = Path(tmp) / "bare_server.py"
        bare.write_text(BARE_SERVER)
        targets = {
            "bare mcp SDK server (1 tool)": [sys.executable, str(bare)],
            "sap-devs mcp serve": [sys.executable, "-m", "sap_devs", "mcp", "serve"],
        }
        results: dict[str, list[float]] = {name: [] for name in targets}
        responses: dict[str, bytes] = {}
        time_to_tools_list(targets["sap-devs mcp serve"], env, tmp)  # warm the OS file cache once
        for _ in range(runs):
            for name, argv in targets.items():  # interleaved so machine noise hits both alike
                elapsed, line = time_to_tools_list(argv, env, tmp)
                results[name].append(elapsed)
                responses[name] = line
    print(f"process start -> tools/list response over stdio, median of {runs} runs")
    medians = {name: statistics.median(times) for name, times in results.items()}
    for name, med in medians.items():
        spread = ", ".join(f"{t * 1000:.0f}" for t in results[name])
        print(f"  {name:32} {med * 1000:7.0f} ms   (runs: {spread})")
    ratio = medians["sap-devs mcp serve"] / medians["bare mcp SDK server (1 tool)"]
    print(f"  ratio sap-devs / bare: {ratio:.2f}x")
    listed = json.loads(responses["sap-devs mcp serve"])["result"]["tools"]
    print(f"sap-devs tools: {len(listed)}; tools/list response: {len(responses['sap-devs mcp serve'])} bytes")


if __name__ == "__main__":
    main()
