"""Size of tools/list in bytes and tokens per environment, in full and progressive mode.

Environments: the knowledge tools alone (no SAP_URL), then each ABAP system environment (onprem,
cloud, legacy) read-only, with --allow-writes, and with every opt-in (writes, table data,
transports, execution). Issue 16 keeps full mode at or below 200 tokens per tool.

"model sees" counts only what Claude Code puts in front of the model (name, description, input
schema; see anthropics/claude-code#54197): titles, annotations and output schemas serve the client.
Tokens are counted with tiktoken's cl100k_base when it is installed, else estimated as bytes / 4.
To show how each mode scales, the run also adds 200 synthetic operations shaped like the real ones.
Usage: python benchmarks/tokens.py [--per-tool [NAME ...]]

--per-tool prints each tool's own tools/list entry in tokens for every ABAP environment read-only and
with every opt-in (writes, data, transports, execution); "-" where the tool is not listed there.
Without names it shows the tools issue 26 added.
"""

from __future__ import annotations

import json
import sys

import anyio
from mcp import Client
from pydantic import BaseModel, Field

from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.registry import Registry, discover
from sap_devs.mcp.server import build_server

try:
    import tiktoken

    _enc = tiktoken.get_encoding("cl100k_base")

    def tokens(text: str) -> int:
        return len(_enc.encode(text))

    METHOD = "tiktoken cl100k_base"
except Exception:  # not installed, or its encoding file cannot be fetched here

    def tokens(text: str) -> int:
        return len(text.encode()) // 4

    METHOD = "bytes / 4 (tiktoken not available)"


class _In(ToolInput):
    name: str = Field(min_length=1, description="Name of the ABAP object, e.g. ZCL_SALES_ORDER.")
    limit: int = limit_field(SEARCH_LIMIT, "results")


class _Item(BaseModel):
    name: str
    type: str
    package: str | None = None


async def _noop(params: _In, ctx: ToolContext) -> Envelope[_Item]:
    return Envelope[_Item].build([], limit=params.limit, entity="objects")


def synthetic(n: int) -> list[Tool]:
    return [
        Tool(
            name=f"abap_op_{i:03d}",
            title=f"ABAP operation {i}",
            description="Read an ABAP repository object through ADT and return its metadata and source.",
            category="abap",
            input=_In,
            output=Envelope[_Item],
            handler=_noop,
            available_in=frozenset({"onprem", "cloud"}),
        )
        for i in range(n)
    ]


def _json(value: object) -> str:
    # compact separators: the SDK writes JSON-RPC messages without spaces
    return json.dumps(value, separators=(",", ":"))


async def measure(registry: Registry, mode: str) -> tuple[int, int, int, int, int]:
    server = build_server(registry, ToolContext(), mode=mode)
    instructions = tokens(server.instructions or "")
    async with Client(server, mode="legacy") as client:
        listed = [
            t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in (await client.list_tools()).tools
        ]
    text = _json(listed)
    seen = _json([{k: t[k] for k in ("name", "description", "inputSchema")} for t in listed])
    return len(listed), len(text.encode()), tokens(text), tokens(seen), instructions


def environments() -> list[tuple[str, Registry]]:
    tools = discover()
    rows = [("knowledge tools (no SAP_URL)", Registry(tools))]
    for env in ("onprem", "cloud", "legacy"):
        rows += [
            (f"{env}: ABAP read", Registry(tools, environment=env, system=True)),
            (f"{env}: + --allow-writes", Registry(tools, environment=env, system=True, writes=True)),
            (
                f"{env}: + data, transports, exec",
                Registry(tools, environment=env, system=True, writes=True, data=True, transports=True, execute=True),
            ),
        ]
    rows.append(("onprem + 200 synthetic operations", Registry([*tools, *synthetic(200)], system=True, writes=True)))
    return rows


ISSUE_26 = (
    "run_console_class",
    "write_class_include",
    "create_function_group",
    "get_function_group",
    "create_function_module",
    "get_function_module",
    "write_function_module",
    "check_transport",
    "format_source",
    "complete_code",
    "get_element_info",
    "get_keyword_docs",
    "get_quick_fixes",
    "apply_quick_fix",
)


async def listed_entries(registry: Registry) -> dict[str, int]:
    """Tokens of each tool's entry as the full-mode tools/list sends it."""
    server = build_server(registry, ToolContext(), mode="full")
    async with Client(server, mode="legacy") as client:
        tools = (await client.list_tools()).tools
    return {t.name: tokens(_json(t.model_dump(by_alias=True, mode="json", exclude_none=True))) for t in tools}


async def per_tool(names: list[str]) -> None:
    tools = discover()
    columns = []
    for env in ("onprem", "cloud", "legacy"):
        columns.append((f"{env} reads", Registry(tools, environment=env, system=True)))
        every = {"writes": True, "data": True, "transports": True, "execute": True}
        columns.append((f"{env} writes", Registry(tools, environment=env, system=True, **every)))
    sizes = [(label, await listed_entries(registry)) for label, registry in columns]
    print(f"token counting: {METHOD}; full-mode tools/list entry per tool")
    print(f"{'tool':24} " + " ".join(f"{label:>14}" for label, _ in sizes))
    for name in names:
        print(f"{name:24} " + " ".join(f"{found.get(name, '-')!s:>14}" for _, found in sizes))
    for label, found in sizes:
        print(f"{label}: {len(found)} tools, mean {sum(found.values()) / len(found):.0f}, max {max(found.values())}")


async def main() -> None:
    if "--per-tool" in sys.argv:
        await per_tool(sys.argv[sys.argv.index("--per-tool") + 1 :] or list(ISSUE_26))
        return
    print(f"token counting: {METHOD}")
    print("tokens/tool is tools/list alone; instr. is the server instructions, sent once at initialize")
    header = f"{'registry':34} {'mode':12} {'listed':>6} {'bytes':>7} {'tokens':>7} {'tokens/tool':>11}"
    print(f"{header} {'model sees/tool':>15} {'instr.':>6}")
    for label, registry in environments():
        for mode in ("full", "progressive"):
            listed, size, count, seen, instr = await measure(registry, mode)
            row = f"{label:34} {mode:12} {listed:>6} {size:>7} {count:>7} {count / listed:>11.0f}"
            print(f"{row} {seen / listed:>15.0f} {instr:>6}")


if __name__ == "__main__":
    anyio.run(main)
