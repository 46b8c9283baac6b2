"""Progressive disclosure: search_tools, get_tool_schemas and call_tool, in both protocol eras."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.registry import Registry, discover
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]


class _In(ToolInput):
    pass


class _Out(ToolOutput):
    secret: str


async def _secret(_p: _In, _c: object) -> _Out:
    return _Out(secret="cloud only")


CLOUD_ONLY = Tool(
    name="cloud_only_probe",
    title="Cloud-only probe",
    description="A tool only available on SAP BTP ABAP environment systems; hidden elsewhere.",
    category="abap",
    input=_In,
    output=_Out,
    handler=_secret,
    available_in=frozenset({"cloud"}),
)


def make(tmp_path, mode: str, environment: str = "onprem"):
    registry = Registry([*discover(), CLOUD_ONLY], environment=environment)
    return build_server(registry, ToolContext(cwd=tmp_path, layers=[bundled_layer()]), mode=mode), registry


@pytest.mark.parametrize("era", ERAS)
async def test_progressive_lists_three_tools_and_the_pinned_ones(tmp_path, era: str) -> None:
    server, _ = make(tmp_path, "progressive")
    async with Client(server, mode=era) as client:
        names = sorted(t.name for t in (await client.list_tools()).tools)
        assert names == [
            "call_tool",
            "get_context",
            "get_known_errors",
            "get_tool_schemas",
            "search_docs",
            "search_tools",
        ]
        caps = client.server_capabilities
        assert caps.experimental == {"libraryDiscovery": {"version": "0.1.0"}}
        assert "search_tools" in client.instructions and "call_tool" in client.instructions
        assert "Use search_docs before answering an SAP how-to question from memory" in client.instructions


@pytest.mark.parametrize("era", ERAS)
async def test_full_mode_does_not_advertise_or_accept_the_meta_tools(tmp_path, era: str) -> None:
    server, _ = make(tmp_path, "full")
    async with Client(server, mode=era) as client:
        assert not client.server_capabilities.experimental
        with pytest.raises(MCPError, match="Unknown tool"):
            await client.call_tool("search_tools", {"query": "tutorial"})


@pytest.mark.parametrize("era", ERAS)
async def test_search_schema_call_round_trip(tmp_path, era: str) -> None:
    server, _ = make(tmp_path, "progressive")
    async with Client(server, mode=era) as client:
        found = (await client.call_tool("search_tools", {"query": "find a tutorial about CAP"})).structured_content
        assert "search_tutorials" in [r["name"] for r in found["results"][:3]]
        first = found["results"][0]
        assert {"name", "summary", "category", "action", "risk", "environments", "input_type"} <= set(first)
        assert sum(found["facets"]["category"].values()) == found["total"]

        schemas = (await client.call_tool("get_tool_schemas", {"names": ["search_tutorials"]})).structured_content
        [schema] = schemas["schemas"]
        assert "query" in schema["input_schema"]["properties"] and schema["example"]["name"] == "search_tutorials"

        for name, args in (
            ("search_tutorials", {"query": "deploy CAP to Cloud Foundry", "limit": 3}),
            ("get_known_errors", {"query": "SQL error 258"}),
            ("search_discovery", {"query": "SAP HANA Cloud", "type": "services"}),
            ("list_packs", {}),
        ):
            direct = await client.call_tool(name, args)
            via = await client.call_tool("call_tool", {"name": name, "arguments": args})
            assert via.is_error == direct.is_error is False
            assert via.structured_content == direct.structured_content
            assert via.content[0].text == direct.content[0].text


@pytest.mark.parametrize("era", ERAS)
async def test_errors_name_the_problem(tmp_path, era: str) -> None:
    server, _ = make(tmp_path, "progressive")
    async with Client(server, mode=era) as client:
        bad = await client.call_tool("call_tool", {"name": "get_known_errors", "arguments": {"querry": "x"}})
        assert bad.is_error and "'querry' is not a parameter of get_known_errors" in bad.content[0].text
        unknown = await client.call_tool("get_tool_schemas", {"names": ["search_tutorial"]})
        assert unknown.is_error and "Closest names: search_tutorials" in unknown.content[0].text
        nested = await client.call_tool("call_tool", {"name": "call_tool", "arguments": {}})
        assert nested.is_error and "Unknown tool 'call_tool'" in nested.content[0].text


@pytest.mark.parametrize("era", ERAS)
async def test_hidden_tools_cannot_be_reached(tmp_path, era: str) -> None:
    server, registry = make(tmp_path, "progressive", environment="onprem")
    assert "cloud_only_probe" not in registry
    async with Client(server, mode=era) as client:
        via = await client.call_tool("call_tool", {"name": "cloud_only_probe", "arguments": {}})
        assert via.is_error and "Unknown tool" in via.content[0].text
        found = (await client.call_tool("search_tools", {"query": "cloud-only probe"})).structured_content
        assert "cloud_only_probe" not in [r["name"] for r in found["results"]]
    cloud_server, _ = make(tmp_path, "progressive", environment="cloud")
    async with Client(cloud_server, mode=era) as client:
        via = await client.call_tool("call_tool", {"name": "cloud_only_probe", "arguments": {}})
        assert not via.is_error and via.structured_content == {"secret": "cloud only"}


async def test_search_tools_filters_and_pages(tmp_path) -> None:
    server, _ = make(tmp_path, "progressive")
    async with Client(server, mode="legacy") as client:
        page1 = (await client.call_tool("search_tools", {"action": "search", "limit": 2})).structured_content
        assert page1["count"] == 2 and page1["has_more"] and all(r["action"] == "search" for r in page1["results"])
        page2 = (
            await client.call_tool("search_tools", {"action": "search", "limit": 2, "offset": 2})
        ).structured_content
        assert not {r["name"] for r in page1["results"]} & {r["name"] for r in page2["results"]}
        doctor = (await client.call_tool("search_tools", {"category": "doctor"})).structured_content
        assert {r["name"] for r in doctor["results"]} == {"check_tools", "check_project"}


def test_auto_mode_switches_past_forty_operations() -> None:
    def fake(i: int) -> Tool:
        return Tool(
            name=f"fake_op_{i:02d}",
            title="f",
            description="d",
            category="abap",
            input=_In,
            output=_Out,
            handler=_secret,
        )

    assert Registry(discover()).resolve_mode("auto") == "full"
    many = Registry([*discover(), *(fake(i) for i in range(30))])
    assert len(many.operations()) > 40 and many.resolve_mode("auto") == "progressive"
