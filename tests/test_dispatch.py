"""Failures inside a handler become tool errors; the session carries on."""

from __future__ import annotations

import pytest
from mcp import Client

from sap_devs.core.errors import SapDevsError
from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server

pytestmark = pytest.mark.anyio


class In(ToolInput):
    word: str = "x"


class Out(ToolOutput):
    word: str


async def explode(params: In, ctx: ToolContext) -> Out:
    raise RuntimeError("disk on fire")


async def refuse(params: In, ctx: ToolContext) -> Out:
    raise SapDevsError("Cannot do that.", hint="Try the other thing.")


async def wrong_shape(params: In, ctx: ToolContext) -> ToolOutput:
    return ToolOutput()


async def echo(params: In, ctx: ToolContext) -> Out:
    return Out(word=params.word)


def make(name: str, handler) -> Tool:
    return Tool(
        name=name,
        title=name,
        description="Test tool.",
        category="knowledge",
        input=In,
        output=Out,
        handler=handler,
    )


@pytest.fixture
def server(tmp_path):
    tools = [make("explode", explode), make("refuse", refuse), make("wrong_shape", wrong_shape), make("echo", echo)]
    return build_server(Registry(tools), ToolContext(cwd=tmp_path, layers=[]))


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_handler_failures_are_tool_errors_and_the_session_survives(server, mode: str, caplog) -> None:
    async with Client(server, mode=mode) as client:
        crashed = await client.call_tool("explode", {})
        assert crashed.is_error
        text = crashed.content[0].text
        assert "Internal error in explode: RuntimeError: disk on fire" in text and "bug in sap-devs" in text
        refused = await client.call_tool("refuse", {})
        assert refused.is_error and refused.content[0].text == "Cannot do that. Try the other thing."
        shaped = await client.call_tool("wrong_shape", {})
        assert shaped.is_error and "Internal error in wrong_shape" in shaped.content[0].text
        fine = await client.call_tool("echo", {"word": "still alive"})
        assert not fine.is_error and fine.structured_content == {"word": "still alive"}
    assert "tool explode failed" in caplog.text, "the traceback goes to the log (stderr), not the agent"


async def test_invalid_arguments_are_described_briefly_whatever_their_size(tmp_path) -> None:
    from sap_devs.mcp.dispatch import invoke

    tool = Tool(name="echo", title="E", description="d", category="meta", input=In, output=Out, handler=refuse)
    ctx = ToolContext(cwd=tmp_path)
    many = {f"{'k' * 5000}{i}": i for i in range(2000)}
    outcome = await invoke(tool, many, ctx)
    assert outcome.is_error and len(outcome.text) < 2000
    assert "is not a parameter of echo" in outcome.text and "and 1990 more" in outcome.text
    nested: object = "x"
    for _ in range(5000):
        nested = [nested]
    outcome = await invoke(tool, {"word": nested}, ctx)
    assert outcome.is_error and "'word'" in outcome.text and "a list of 1 item(s)" in outcome.text
