"""The typed Python API over the same tools the MCP server exposes."""

from __future__ import annotations

import pytest

from sap_devs import tools
from sap_devs.mcp.framework import Envelope


def test_call_returns_the_output_model() -> None:
    result = tools.call("get_known_errors", query="SQL error 258: insufficient privilege", limit=2)
    assert isinstance(result, Envelope)
    assert result.results[0].id == "cap/hana-insufficient-privilege-258" and result.count <= 2


def test_errors_raise_with_the_agent_message() -> None:
    with pytest.raises(tools.ToolCallError, match="'verbosity'"):
        tools.call("get_context", verbosity="loud")
    with pytest.raises(tools.ToolCallError, match="Unknown tool 'call_tool'"):
        tools.call("call_tool", name="list_packs")


def test_search_and_schema_mirror_the_mcp_tools() -> None:
    found = tools.search("find a tutorial about CAP")
    assert "search_tutorials" in [r.name for r in found.results[:3]]
    schema = tools.schema("search_tutorials")
    assert schema.input_schema["required"] == ["query"] and schema.example.name == "search_tutorials"
    assert "get_known_errors" in tools.names() and "search_tools" not in tools.names()
