"""What tools/list says about a write tool: the hints that differ from MCP's defaults, and no output schema."""

from __future__ import annotations

import pytest
from mcp import Client

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry, discover
from sap_devs.mcp.server import build_server

pytestmark = pytest.mark.anyio


async def test_write_tools_list_only_the_hints_a_client_would_not_assume() -> None:
    registry = Registry(discover(), system=True, writes=True)
    async with Client(build_server(registry, ToolContext(), mode="full"), mode="legacy") as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    create = listed["create_class"].annotations
    # readOnly false, idempotent false and openWorld true are what a client assumes when a hint is absent
    assert create.model_dump(exclude_none=True) == {"destructive_hint": False}
    assert listed["write_source"].annotations.model_dump(exclude_none=True) == {"idempotent_hint": True}
    assert listed["delete_object"].annotations.model_dump(exclude_none=True) == {}, "destructive is the default"
    assert listed["get_program"].annotations.model_dump(exclude_none=True) == {
        "read_only_hint": True,
        "open_world_hint": False,
    }
    assert listed["create_class"].output_schema is None and listed["get_class"].output_schema is not None
