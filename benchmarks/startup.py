"""Cold start over stdio: process start to the tools/list response, and to the first tools/call's.

Runs, interleaved so machine noise hits all alike, each of: `sap-devs mcp serve` in every tools mode
(full, progressive, with an ABAP system, with --allow-writes), the same without the fast front
(SAP_DEVS_FAST_FRONT=0, the SDK answering from the first message), a bare `mcp` SDK low-level server
with one tool, `python -c pass` (process start to exit) and, when installed, the reference Node server
`@modelcontextprotocol/server-everything` (npm install --prefix /tmp/mcp-everything
@modelcontextprotocol/server-everything; never into the repository). Prints min/median/max per target,
the ratio of medians to the bare SDK server, and the import time left on the front's critical path.

Usage: python benchmarks/startup.py [runs, default 11] [--node PATH-TO-server-everything-JS]
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

OPENING = [
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
FIRST_CALL = {"name": "get_known_errors", "arguments": {"query": "CDS compilation failed: no such artifact"}}
SEARCH_CALL = {"name": "search_docs", "arguments": {"query": "CDS association with on condition"}}
ABAP = {"SAP_URL": "http://127.0.0.1:9", "SAP_USER": "DEVELOPER", "SAP_PASSWORD": "bench"}
NODE_DEFAULT = Path("/tmp/mcp-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js")


def _read_reply(proc: subprocess.Popen[bytes], request_id: int) -> bytes:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{proc.args} closed stdout before answering request {request_id}")
        if json.loads(line).get("id") == request_id:
            return line


def time_session(
    argv: list[str], env: dict[str, str], cwd: str, call: dict | None
) -> tuple[float, float | None, bytes]:
    """Seconds from process start to the tools/list reply and (with ``call``) to the reply of a
    tools/call sent as soon as the list arrived, as an eager client would."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in OPENING))
        proc.stdin.flush()
        listed = _read_reply(proc, 2)
        to_list = time.perf_counter() - start
        to_call = None
        if call is not None:
            proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}).encode())
            proc.stdin.write(b"\n")
            proc.stdin.flush()
            reply = json.loads(_read_reply(proc, 3))
            if "error" in reply or reply["result"].get("isError"):
                raise RuntimeError(f"the first tools/call failed: {str(reply)[:300]}")
            to_call = time.perf_counter() - start
        return to_list, to_call, listed
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a server that does not stop at end of input
            proc.kill()
            proc.wait()


def time_call_after(pause: float, argv: list[str], env: dict[str, str], cwd: str) -> float:
    """Seconds the session's first search_docs call takes when sent ``pause`` seconds after the reply to
    the first tools/call (the search indexes warm up once the session has been quiet for 0.25 s)."""
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    assert proc.stdin is not None
    timings = []
    try:
        proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in OPENING))
        proc.stdin.flush()
        calls = [(3, FIRST_CALL, 0.0), (4, SEARCH_CALL, pause)]
        _read_reply(proc, 2)
        for request_id, call, pause in calls:
            time.sleep(pause)
            start = time.perf_counter()
            message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": call}
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
            _read_reply(proc, request_id)
            timings.append(time.perf_counter() - start)
        return timings[1]
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def time_exit(argv: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, check=True)
    return time.perf_counter() - start


def critical_path_imports(env: dict[str, str], cwd: str) -> list[tuple[int, str]]:
    """The slowest top-level imports (microseconds, cumulative) of what the front does before its
    first answer, from -X importtime."""
    code = (
        "from pathlib import Path\n"
        "import sap_devs.cli.entry\n"
        "from sap_devs.mcp import fast_front, front_plan\n"
        "o = fast_front.stdio_options(['mcp', 'serve'])\n"
        "p = front_plan.plan(o, front_plan.load_data(), Path.cwd())\n"
        "p.body('open', '2025-11-25'), p.body('list', '2025-11-25')\n"
    )
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], env=env, cwd=cwd, capture_output=True, text=True, check=True
    )
    rows = []
    for line in out.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[1].strip().isdigit() and not parts[2].startswith("  "):
            rows.append((int(parts[1]), parts[2].strip()))
    return sorted(rows, reverse=True)


def _row(name: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"  {name:44} min {ms[0]:6.0f}   median {statistics.median(ms):6.0f}   max {ms[-1]:6.0f} ms"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 11
    node = Path(sys.argv[sys.argv.index("--node") + 1]) if "--node" in sys.argv else NODE_DEFAULT
    from sap_devs.mcp import front_plan

    if front_plan.load_data() is None:
        print("warning: front.json does not fit this checkout (run `sap-devs tools docs`): the front stays off")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        for var in ("SAP_DEVS_CONFIG_DIR", "SAP_DEVS_CACHE_DIR", "SAP_DEVS_DATA_DIR"):
            env[var] = str(Path(tmp) / var.lower())
        for var in ("SAP_URL", "SAP_DEVS_SYSTEM", "SAP_DEVS_TOOLS", "SAP_DEVS_FAST_FRONT"):
            env.pop(var, None)
        bare = Path(tmp) / "bare_server.py"
        bare.write_text(BARE_SERVER)
        serve = [sys.executable, "-m", "sap_devs", "mcp", "serve"]
        targets: dict[str, tuple[list[str], dict[str, str], dict | None]] = {
            "sap-devs, full": (serve, env, FIRST_CALL),
            "sap-devs, progressive": ([*serve, "--tools", "progressive"], env, FIRST_CALL),
            "sap-devs, ABAP system (auto: progressive)": (serve, {**env, **ABAP}, FIRST_CALL),
            "sap-devs, ABAP system, --allow-writes, full": (
                [*serve, "--allow-writes", "--tools", "full"],
                {**env, **ABAP},
                FIRST_CALL,
            ),
            "sap-devs without the front (SDK only)": (serve, {**env, "SAP_DEVS_FAST_FRONT": "0"}, FIRST_CALL),
            "bare mcp SDK server (1 tool)": ([sys.executable, str(bare)], env, None),
        }
        if node.is_file():
            targets["server-everything (Node)"] = (["node", str(node), "stdio"], env, None)
        else:
            print(f"note: {node} not found; the Node reference server is left out")
        to_list: dict[str, list[float]] = {name: [] for name in targets}
        to_call: dict[str, list[float]] = {name: [] for name in targets if targets[name][2] is not None}
        passes: list[float] = []
        sizes: dict[str, int] = {}
        for argv, target_env, _ in targets.values():  # warm the OS file cache once
            time_session(argv, target_env, tmp, None)
        for _ in range(runs):
            for name, (argv, target_env, call) in targets.items():
                listed, called, reply = time_session(argv, target_env, tmp, call)
                to_list[name].append(listed)
                if called is not None:
                    to_call[name].append(called)
                sizes[name] = len(json.loads(reply)["result"]["tools"])
            passes.append(time_exit([sys.executable, "-c", "pass"], env, tmp))
        imports = critical_path_imports(env, tmp)
        around_warm_up = [
            (time_call_after(0.1, serve, env, tmp), time_call_after(0.35, serve, env, tmp))
            for _ in range(max(3, runs // 2))
        ]
    print(f"process start -> tools/list response over stdio, {runs} interleaved runs")
    for name, times in to_list.items():
        print(_row(name, times) + f"   ({sizes[name]} tools)")
    print(_row("python -c pass (start to exit)", passes))
    bare_median = statistics.median(to_list["bare mcp SDK server (1 tool)"])
    for name, times in to_list.items():
        if name.startswith("sap-devs"):
            print(f"  ratio {name} / bare SDK server: {statistics.median(times) / bare_median:.3f}")
    print(f"process start -> first tools/call response ({FIRST_CALL['name']}, sent when the list arrives)")
    for name, times in to_call.items():
        print(_row(name, times))
    early = [a for a, _ in around_warm_up]
    late = [b for _, b in around_warm_up]
    print(f"the first search_docs call, {len(around_warm_up)} sessions each (sap-devs full)")
    print(_row("0.1 s after the first call's reply (no warm-up)", early))
    print(_row("0.35 s after (the indexes may be warming up)", late))
    print("import time on the front's critical path (cumulative, slowest first)")
    for micros, module in imports[:10]:
        print(f"  {micros / 1000:6.1f} ms  {module}")


if __name__ == "__main__":
    main()
