"""Creating and releasing transport requests: a separate opt-in on top of writes."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from sap_devs.mcp.registry import Registry
from tests.fake_adt import FakeAdt
from tests.test_abap_tools import ALL, PASSWORD, call, context, ok

pytestmark = pytest.mark.anyio
TOOLS = {"create_transport", "release_transport"}
TM = "{http://www.sap.com/cts/adt/tm}"


@pytest.fixture
def adt():
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


def test_transport_tools_need_writes_and_transports() -> None:
    assert not TOOLS & set(Registry(ALL, system=True, writes=True).names())
    assert not TOOLS & set(Registry(ALL, system=True, transports=True).names()), "transports alone are not writes"
    assert set(Registry(ALL, system=True, writes=True, transports=True).names()) >= TOOLS


async def test_create_transport_returns_the_new_number(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True, transports=True)
    ctx.registry = Registry(ALL, system=True, writes=True, transports=True)
    result = await ok(ctx, "create_transport", description='Fix "sales" <orders> & more')
    assert result["number"] == "DEVK900125" and result["owner"] == "DEVELOPER"
    [body] = adt.transport_bodies
    assert 'tm:useraction="newrequest"' in body and 'tm:target="LOCAL"' in body
    request = ElementTree.fromstring(body).find(f"{TM}request")
    assert request is not None and request.get(f"{TM}desc") == 'Fix "sales" <orders> & more'
    assert request.find(f"{TM}task").get(f"{TM}owner") == "DEVELOPER"


async def test_release_reports_success_and_refuses_a_failed_release(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True, transports=True)
    ctx.registry = Registry(ALL, system=True, writes=True, transports=True)
    done = await ok(ctx, "release_transport", number="DEVK900124")
    assert done["released"] is True and "successfully released" in done["messages"][0]
    failed = await call(ctx, "release_transport", number="DEVK900123")
    assert failed.is_error and "DEVK900123 was not released" in failed.text
    missing = await call(ctx, "release_transport", number="DEVK999999")
    assert missing.is_error and "does not exist" in missing.text
    assert adt.released == ["DEVK900124", "DEVK900123"]


async def test_policy_refuses_even_when_the_tool_is_called_directly(adt, tmp_path) -> None:
    """Belt and braces: a registry built by hand still cannot release without the transports switch."""
    ctx = context(adt, tmp_path, writes=True)
    ctx.registry = Registry(ALL, system=True, writes=True, transports=True)
    outcome = await call(ctx, "release_transport", number="DEVK900124")
    assert outcome.is_error and "SAP_DEVS_ADT_TRANSPORTS=1" in outcome.text
    assert adt.released == [] and adt.transport_bodies == []
