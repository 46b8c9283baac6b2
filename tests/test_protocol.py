"""The server through the SDK's own client, in both protocol eras."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError

from sap_devs import package_version
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.loopback import Loopback

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]  # legacy = initialize handshake; auto = 2026-07-28 server/discover
REGISTRY = Registry.default()
RECORDED = Path(__file__).parent / "data" / "recorded"

INVALID_ARGS: dict[str, dict[str, Any]] = {
    "list_packs": {"limit": 0},
    "get_context": {"verbosity": "everything"},
    "get_tip": {"topic": ""},
    "search_resources": {},
    "get_known_errors": {"query": 42},
    "get_samples": {"limit": "many"},
    "check_tools": {"limit": 1000},
    "check_project": {"path": "relative/path"},
    "search_events": {"scope": "galactic"},
    "search_tutorials": {"query": "cap", "level": "expert"},
    "get_recent_news": {"limit": 51},
    "search_discovery": {"query": "hana", "type": "planets"},
    "get_news_detail": {"community_url": "file:///etc/passwd"},
    "search_learning_journeys": {"query": ""},
    "search_videos": {"limit": 0},
    "search_docs": {"query": "cds", "product": "sap-gui"},
    "read_doc": {"id": "cap-js/docs:cds/cdl.md", "url": "https://cap.cloud.sap/docs/cds/cdl"},
    "check_released_api": {"names": []},
}


@pytest.fixture
def server(tmp_path):
    """The real server; SAP Community is a loopback server answering the get_news_detail example."""
    example = REGISTRY.get("get_news_detail").example["community_url"]  # type: ignore[union-attr]
    with Loopback().running() as community:
        community.add(urlsplit(example).path, body=(RECORDED / "developer-news-post.html").read_bytes())
        ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()], endpoints={"community": community.base})
        yield build_server(REGISTRY, ctx)


@pytest.mark.parametrize("mode", ERAS)
async def test_handshake_identity_and_instructions(server, mode: str) -> None:
    async with Client(server, mode=mode) as client:
        expected = "2026-07-28" if mode == "auto" else None
        if expected:
            assert client.protocol_version == expected
        else:
            assert client.protocol_version < "2026"
        assert client.server_info is not None and client.server_info.name == "sap-devs"
        assert client.server_info.version == package_version()
        instructions = client.instructions or ""
        assert "ALWAYS prefer these tools" in instructions
        for tool in REGISTRY.operations():
            if tool.instruction:
                assert tool.name in instructions
        assert "search_tools" not in instructions, "full mode does not mention tools it does not list"


@pytest.mark.parametrize("mode", ERAS)
async def test_tools_list_has_every_tool_with_schemas_and_annotations(server, mode: str) -> None:
    async with Client(server, mode=mode) as client:
        listed = (await client.list_tools()).tools
    assert sorted(t.name for t in listed) == sorted(t.name for t in REGISTRY.operations())
    for tool in listed:
        assert tool.input_schema["type"] == "object"
        full = REGISTRY.get(tool.name).output_schema  # type: ignore[union-attr]
        if set(full["properties"]) == {"count", "total", "results", "hint"}:
            assert tool.output_schema is None, "the shared envelope is described once, in the instructions"
        else:
            assert tool.output_schema["type"] == "object" and set(tool.output_schema["properties"]) == set(
                full["properties"]
            )
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.description and tool.title


def _every_call_valid(tool_name: str, result: Any) -> None:
    assert not result.is_error, result.content[0].text
    schema = REGISTRY.get(tool_name).output_schema  # type: ignore[union-attr]
    Draft202012Validator(schema).validate(result.structured_content)
    assert json.loads(result.content[0].text) == result.structured_content


@pytest.mark.parametrize("mode", ERAS)
async def test_every_tool_with_valid_arguments(server, mode: str) -> None:
    async with Client(server, mode=mode) as client:
        for tool in REGISTRY.operations():
            result = await client.call_tool(tool.name, tool.example)
            _every_call_valid(tool.name, result)


@pytest.mark.parametrize("mode", ERAS)
async def test_every_tool_with_invalid_arguments(server, mode: str) -> None:
    assert set(INVALID_ARGS) == {t.name for t in REGISTRY.operations()}, "every tool needs an invalid-arguments case"
    async with Client(server, mode=mode) as client:
        for name, args in INVALID_ARGS.items():
            result = await client.call_tool(name, args)
            assert result.is_error, name
            assert result.structured_content is None
            text = result.content[0].text
            assert text.startswith(f"Invalid arguments for {name}") or "must be" in text, text


@pytest.mark.parametrize("mode", ERAS)
async def test_unknown_tool_is_a_protocol_error(server, mode: str) -> None:
    async with Client(server, mode=mode) as client:
        with pytest.raises(MCPError) as info:
            await client.call_tool("get_knwon_errors", {"query": "x"})
    assert info.value.code == -32602 and "Unknown tool" in info.value.message


@pytest.mark.parametrize("mode", ERAS)
async def test_real_cap_error_returns_bundled_entry_first(server, mode: str) -> None:
    async with Client(server, mode=mode) as client:
        result = await client.call_tool("get_known_errors", {"query": "bash: cds: command not found"})
    assert result.structured_content["results"][0]["id"] == "cap/cds-command-not-found"
