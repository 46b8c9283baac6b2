"""The fast front's prepared answers (``sap_devs/mcp/front.json``), captured from the real SDK server.

The front (``fast_front``) answers the first messages of a stdio session before the ``mcp`` SDK has
loaded. It never builds an answer of its own: every byte it sends comes from this file, which holds
what the SDK server itself answered at build time for each protocol version and tools mode, cut into
pieces the front puts together for the user's tool set (per-tool wire forms, result templates).

Regenerate with ``python -m sap_devs.mcp.front_data`` after changing a tool, the server's wire
shapes or the ``mcp`` SDK; tests fail while the file is stale, and at run time a file that does
not match the installed SDK, package version or tool manifest is not used (the SDK answers).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from sap_devs.mcp.installed import sdk_fingerprint, server_sources_digest

DATA_PATH = Path(__file__).with_name("front.json")
FORMAT = 2  # 2: the tool-set keys carry the execute switch
INSTRUCTIONS = "\u0000instructions\u0000"
"""Stands in for the server instructions in a result template: they depend on the user's tool set."""
TOOLS = "\u0000tools\u0000"
"""Stands in for the listed tools in a tools/list result template."""


def _tool_sets(specs: list[Any]) -> dict[str, Any]:
    """The ordered tool names each combination of environment and ABAP switches registers, computed
    by the real Registry, so the front never decides itself which tools a user gets."""
    from sap_devs.mcp.framework import ENVIRONMENTS
    from sap_devs.mcp.registry import Registry

    sets: list[list[str]] = []
    keys: dict[str, int] = {}
    auto: dict[str, str] = {}
    for env, system, *flags in itertools.product(ENVIRONMENTS, *[(False, True)] * 5):
        writes, data, transports, execute = flags
        registry = Registry(
            specs,
            environment=env,
            system=system,
            writes=writes,
            data=data,
            transports=transports,
            execute=execute,
        )
        names = registry.names()
        if names not in sets:
            sets.append(names)
        key = combo_key(env, system, writes, data, transports, execute)
        keys[key] = sets.index(names)
        auto[key] = registry.resolve_mode("auto")
    return {"sets": sets, "keys": keys, "auto": auto}


def combo_key(environment: str, system: bool, writes: bool, data: bool, transports: bool, execute: bool) -> str:
    flags = (system, writes, data, transports, execute)
    return ",".join([environment, *("1" if flag else "0" for flag in flags)])


def _envelope(version: str) -> dict[str, Any]:
    from mcp_types import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY

    return {
        "_meta": {
            PROTOCOL_VERSION_META_KEY: version,
            CLIENT_CAPABILITIES_META_KEY: {},
            CLIENT_INFO_META_KEY: {"name": "sap-devs-build", "version": "1"},
        }
    }


async def exchange(server: Any, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send ``messages`` to ``server`` as a stdio client would and return its replies, as parsed wire
    JSON in request id order, once every request has one."""
    return [json.loads(line) for line in await exchange_lines(server, messages)]


async def exchange_lines(server: Any, messages: list[dict[str, Any]]) -> list[str]:
    """The replies as the SDK's stdio transport writes them, in request id order."""
    import anyio
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    expected = sum(1 for m in messages if "id" in m)
    to_server, server_reads = anyio.create_memory_object_stream[Any](100)
    server_writes, from_server = anyio.create_memory_object_stream[Any](100)
    replies: list[str] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.run, server_reads, server_writes, server.create_initialization_options())
        for message in messages:
            await to_server.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(message)))
        with anyio.fail_after(30):
            while len(replies) < expected:
                reply = await from_server.receive()
                replies.append(reply.message.model_dump_json(by_alias=True, exclude_unset=True))
        await to_server.aclose()
        tg.cancel_scope.cancel()
    return sorted(replies, key=lambda r: str(json.loads(r).get("id")))


def _server(specs: list[Any], mode: str) -> Any:
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry
    from sap_devs.mcp.server import build_server

    registry = Registry(specs, system=True, writes=True, data=True, transports=True, execute=True)
    # no warm-up: these servers only answer the opening messages, and ten warm-up threads still importing
    # when the command exits abort the interpreter ('exception not rethrown', exit 134) under load
    return build_server(registry, ToolContext(), mode=mode, warm_up_on_list=False)


def _legacy(version: str) -> list[dict[str, Any]]:
    return [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ]


def _modern(version: str) -> list[dict[str, Any]]:
    return [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": _envelope(version)},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": _envelope(version)},
        {"jsonrpc": "2.0", "id": 3, "method": "ping", "params": _envelope(version)},
    ]


def _template(result: dict[str, Any], key: str, marker: str) -> dict[str, Any]:
    if key not in result:
        raise RuntimeError(f"the SDK's result has no {key!r}: {sorted(result)}")
    return {**result, key: marker}


def render(manifest_text: str | None = None) -> str:
    """front.json as the installed SDK makes it for the tool manifest (the file on disk by default)."""
    import dataclasses

    import anyio
    from mcp_types import version as versions

    from sap_devs import package_version
    from sap_devs.mcp.framework import ToolSpec
    from sap_devs.mcp.manifest import MANIFEST_PATH
    from sap_devs.mcp.registry import DEFAULT_PINNED

    if manifest_text is None:
        manifest_text = MANIFEST_PATH.read_text(encoding="utf-8")
    specs = [ToolSpec.from_json(entry) for entry in json.loads(manifest_text)["tools"]]
    # every tool in one server: where a tool may run does not change how it is listed
    everywhere = [dataclasses.replace(s, available_in=frozenset({"any"})) for s in specs]
    by_version: dict[str, dict[str, Any]] = {}
    for version in (*versions.HANDSHAKE_PROTOCOL_VERSIONS, *versions.MODERN_PROTOCOL_VERSIONS):
        modern = version in versions.MODERN_PROTOCOL_VERSIONS
        tools: dict[str, Any] = {}
        entry: dict[str, Any] = {"tools": tools}
        for mode in ("full", "progressive"):
            replies = anyio.run(exchange, _server(everywhere, mode), _modern(version) if modern else _legacy(version))
            opening, listed, ping = replies
            if "result" not in opening or "result" not in listed:
                raise RuntimeError(f"the SDK server refused a build-time request: {replies[:2]}")
            for tool in listed["result"]["tools"]:
                if tools.setdefault(tool["name"], tool) != tool:
                    raise RuntimeError(f"tool {tool['name']} is listed differently in full and progressive mode")
            entry[f"open_{mode}"] = _template(opening["result"], "instructions", INSTRUCTIONS)
            listing = _template(listed["result"], "tools", TOOLS)
            if entry.setdefault("list", listing) != listing:
                raise RuntimeError("the tools/list result's envelope differs between modes")
            # the reply's body, result or error: ping is gone from the 2026-07-28 protocol
            entry["ping"] = {k: v for k, v in ping.items() if k in ("result", "error")}
        by_version[version] = entry
    forms: list[str] = []  # the tools' wire forms are the same in most versions: kept once
    for entry in by_version.values():
        text = json.dumps(entry["tools"], ensure_ascii=False)  # key order is part of the wire form
        if text not in forms:
            forms.append(text)
        entry["tools"] = forms.index(text)
    payload = {
        "format": FORMAT,
        "sap_devs": package_version(),
        "sdk": sdk_fingerprint(),  # the front answers only with the SDK these answers came from
        "manifest": hashlib.sha256(manifest_text.encode("utf-8")).hexdigest(),
        "code": server_sources_digest(),
        "handshake_versions": list(versions.HANDSHAKE_PROTOCOL_VERSIONS),
        "latest_handshake": versions.LATEST_HANDSHAKE_VERSION,
        "modern_versions": list(versions.MODERN_PROTOCOL_VERSIONS),
        "default_pinned": list(DEFAULT_PINNED),
        "tool_sets": _tool_sets(specs),
        "tool_forms": [json.loads(text) for text in forms],
        "versions": by_version,
    }
    return json.dumps(payload, indent=None, separators=(",", ":"), sort_keys=False, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[:1] == ["--check"]:
        current = DATA_PATH.read_text(encoding="utf-8") if DATA_PATH.is_file() else ""
        if current != text:
            print(f"{DATA_PATH} is out of date; run 'python -m sap_devs.mcp.front_data'.", file=sys.stderr)
            return 1
        print(f"{DATA_PATH} is up to date.")
        return 0
    DATA_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_PATH} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
