"""The registry: automatic discovery, unique names, environment filtering."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from sap_devs.mcp.framework import Tool, ToolInput, ToolOutput
from sap_devs.mcp.registry import Registry, RegistryError, discover

EXPECTED_TOOLS = {
    "list_packs",
    "get_context",
    "get_tip",
    "search_resources",
    "get_known_errors",
    "get_samples",
    "check_tools",
    "check_project",
    "search_events",
    "search_tutorials",
    "get_recent_news",
    "search_discovery",
    "get_news_detail",
    "search_learning_journeys",
    "search_videos",
    "search_tools",
    "get_tool_schemas",
    "call_tool",
}


class _In(ToolInput):
    pass


class _Out(ToolOutput):
    ok: bool = True


async def _handler(_params: _In, _ctx: object) -> _Out:
    return _Out()


def _tool(name: str, envs: set[str]) -> Tool:
    return Tool(
        name=name,
        title=name,
        description="A test tool that exists only in this test module.",
        category="abap",
        input=_In,
        output=_Out,
        handler=_handler,
        available_in=frozenset(envs),
    )


def test_discovers_every_tool_module() -> None:
    names = {t.name for t in discover()}
    assert names >= EXPECTED_TOOLS


def test_each_tool_lives_in_a_module_named_after_it() -> None:
    for tool in discover():
        module = sys.modules[tool.handler.__module__]
        assert Path(module.__file__ or "").stem == tool.name
        assert f".tools.{tool.category}." in tool.handler.__module__


def test_duplicate_names_fail() -> None:
    with pytest.raises(RegistryError, match=r"Two tools are named 'dup_tool'"):
        Registry([_tool("dup_tool", {"any"}), _tool("dup_tool", {"cloud"})])


def test_environment_filter_hides_tools_at_registration() -> None:
    tools = [_tool("onprem_only", {"onprem", "legacy"}), _tool("cloud_only", {"cloud"}), _tool("everywhere", {"any"})]
    assert Registry(tools, environment="cloud").names() == ["cloud_only", "everywhere"]
    onprem = Registry(tools, environment="onprem")
    assert "cloud_only" not in onprem and onprem.get("cloud_only") is None
    assert onprem.names() == ["everywhere", "onprem_only"]


def test_unknown_environment_is_a_clear_error() -> None:
    with pytest.raises(RegistryError, match=r"Unknown SAP system environment 'saas'.*onprem, cloud, legacy"):
        Registry([], environment="saas")


def test_module_named_differently_from_its_tool_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "fake_tools_pkg" / "knowledge"
    pkg.mkdir(parents=True)
    (tmp_path / "fake_tools_pkg" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "some_module.py").write_text(
        textwrap.dedent(
            """
            from sap_devs.mcp.framework import Tool, ToolInput, ToolOutput

            async def handle(params, ctx):
                return ToolOutput()

            TOOL = Tool(
                name="another_name", title="t", description="d", category="knowledge",
                input=ToolInput, output=ToolOutput, handler=handle,
            )
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match=r"must be named after its tool"):
        discover("fake_tools_pkg")
