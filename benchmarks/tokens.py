"""Size of tools/list in bytes and tokens, in full and progressive mode, with and without the ABAP tools.

Tokens are counted with tiktoken's cl100k_base when it is installed, else estimated as bytes / 4.
To show how each mode scales, the run also adds 200 synthetic operations shaped like the real ones.
Usage: python benchmarks/tokens.py
"""

from __future__ import annotations

import json

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


async def measure(registry: Registry, mode: str) -> tuple[int, int, int, int]:
    server = build_server(registry, ToolContext(), mode=mode)
    instructions = tokens(server.instructions or "")
    async with Client(server, mode="legacy") as client:
        listed = (await client.list_tools()).tools
    # compact separators: the SDK writes JSON-RPC messages without spaces
    text = json.dumps(
        [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed], separators=(",", ":")
    )
    return len(listed), len(text.encode()), tokens(text), instructions


async def main() -> None:
    print(f"token counting: {METHOD}")
    print("tokens/tool is tools/list alone; instr. is the server instructions, sent once at initialize")
    print(f"{'registry':38} {'mode':12} {'listed':>6} {'bytes':>8} {'tokens':>7} {'tokens/tool':>11} {'instr.':>7}")
    for label, registry in (
        ("knowledge tools (no SAP_URL)", Registry(discover())),
        ("+ ABAP read tools (SAP_URL set)", Registry(discover(), system=True)),
        ("+ ABAP write tools (--allow-writes)", Registry(discover(), system=True, writes=True)),
        ("+ 200 synthetic operations", Registry([*discover(), *synthetic(200)], system=True, writes=True)),
    ):
        for mode in ("full", "progressive"):
            listed, size, count, instr = await measure(registry, mode)
            print(f"{label:38} {mode:12} {listed:>6} {size:>8} {count:>7} {count / listed:>11.0f} {instr:>7}")


if __name__ == "__main__":
    anyio.run(main)
