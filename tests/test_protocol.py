"""The server through the SDK's own client, in both protocol eras."""

from __future__ import annotations

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
from sap_devs.mcp.schema_compact import described_once
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.loopback import Loopback

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]  # legacy = initialize handshake; auto = 2026-07-28 server/discover
REGISTRY = Registry.default()
RECORDED = Path(__file__).parent / "data" / "recorded"

# Each invalid call and what the error must say: the parameter at fault and the rule it broke, so
# an agent can correct its call (any error, or any text containing "must be", is not enough).
INVALID_ARGS: dict[str, tuple[dict[str, Any], str]] = {
    "list_packs": ({"limit": 0}, "'limit': Input should be greater than or equal to 1"),
    "get_context": ({"verbosity": "everything"}, "'verbosity': Input should be 'minimal', 'standard' or 'full'"),
    "get_tip": ({"topic": ""}, "'topic': String should have at least 1 character"),
    "search_resources": ({}, "'query' is required"),
    "get_known_errors": ({"query": 42}, "'query': Input should be a valid string"),
    "get_samples": ({"limit": "many"}, "'limit': Input should be a valid integer"),
    "check_tools": ({"limit": 1000}, "'limit': Input should be less than or equal to 100"),
    "check_project": ({"path": "relative/path"}, "relative/path does not exist"),
    "search_events": ({"scope": "galactic"}, "'scope': Input should be 'local', 'regional', 'global' or 'virtual'"),
    "search_tutorials": ({"query": "cap", "level": "expert"}, "'level': Input should be 'beginner'"),
    "get_recent_news": ({"limit": 51}, "'limit': Input should be less than or equal to 50"),
    "search_discovery": ({"query": "hana", "type": "planets"}, "'type': Input should be 'missions' or 'services'"),
    "get_news_detail": ({"community_url": "file:///etc/passwd"}, "community_url must be an https://community.sap.com/"),
    "search_learning_journeys": ({"query": ""}, "'query': String should have at least 1 character"),
    "search_videos": ({"limit": 0}, "'limit': Input should be greater than or equal to 1"),
    "search_docs": ({"query": "cds", "product": "sap-gui"}, "'product': Input should be 'cap'"),
    "read_doc": (
        {"id": "cap-js/docs:cds/cdl.md", "url": "https://cap.cloud.sap/docs/cds/cdl"},
        "give exactly one of: id, url",
    ),
    "check_released_api": ({"names": []}, "'names': List should have at least 1 item"),
    "get_ui5_api": ({"name": "x" * 201}, "'name': String should have at most 200 characters"),
    "search_cds_model": ({"query": "Books", "kind": "table"}, "'kind': Input should be 'entity'"),
    "check_cds": ({"limit": 0}, "'limit': Input should be greater than or equal to 1"),
    "run_ui5_linter": ({"path": "relative/app"}, "relative/app does not exist"),
    "check_abap_code": (
        {"source": "WRITE 'x'.", "language_version": "abap7"},
        "'language_version': Input should be 'cloud' or 'standard'",
    ),
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
        else:  # every field but the hint and the envelope's counts, which the instructions describe once
            assert tool.output_schema["type"] == "object" and set(tool.output_schema["properties"]) == set(
                full["properties"]
            ) - described_once(full["properties"])
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.description and tool.title


# example calls whose answer is legitimately empty offline: learning journeys come only from a sync
EMPTY_OFFLINE = {"search_learning_journeys"}


def _every_call_valid(tool_name: str, args: dict[str, Any], result: Any) -> None:
    tool = REGISTRY.get(tool_name)
    assert tool is not None
    if tool.category == "project":
        # SAP's compilers and linters are not installed in a test's data folder: the answer is the one
        # line that says what to install (tests/test_project_linters.py runs them for real)
        text = result.content[0].text
        assert result.is_error and "\n" not in text and "`sap-devs toolchain install " in text, text
        return
    assert not result.is_error, result.content[0].text
    Draft202012Validator(tool.output_schema).validate(result.structured_content)
    answer = result.structured_content
    if "results" in answer:  # the shared envelope: the page, its size, the total and the limit agree
        limit = args.get("limit", tool.input_schema["properties"].get("limit", {}).get("default", 10**6))
        assert answer["count"] == len(answer["results"]) <= limit, tool_name
        assert answer["count"] <= answer["total"], tool_name
        if answer["total"] > answer["count"]:
            assert answer["hint"], f"{tool_name}: a truncated page says how to see more"
        if tool_name not in EMPTY_OFFLINE:
            assert answer["count"] >= 1, f"{tool_name}: its documented example finds nothing"
    else:
        assert any(v not in (None, "", [], {}) for v in answer.values()), tool_name


@pytest.mark.parametrize("mode", ERAS)
async def test_every_tool_with_valid_arguments(server, mode: str) -> None:
    async with Client(server, mode=mode) as client:
        for tool in REGISTRY.operations():
            result = await client.call_tool(tool.name, tool.example)
            _every_call_valid(tool.name, tool.example, result)


@pytest.mark.parametrize("mode", ERAS)
async def test_every_tool_with_invalid_arguments(server, mode: str) -> None:
    assert set(INVALID_ARGS) == {t.name for t in REGISTRY.operations()}, "every tool needs an invalid-arguments case"
    async with Client(server, mode=mode) as client:
        for name, (args, says) in INVALID_ARGS.items():
            result = await client.call_tool(name, args)
            assert result.is_error, name
            assert result.structured_content is None
            text = result.content[0].text
            assert says in text, text
            if says.startswith("'"):  # a schema violation names the tool and lists its parameters
                assert text.startswith(f"Invalid arguments for {name}: {says}"), text
                assert "Parameters: " in text, text


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
