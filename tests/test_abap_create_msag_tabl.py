"""Creating database tables (create_object type=table) and message classes against the fake ADT server.

The request shapes follow sapcli (sap/adt/table.py, sap/adt/messageclass.py and its recorded
message class); the fake server enforces the message locks the way it enforces object locks.
"""

from __future__ import annotations

import pytest

from tests.fake_adt import FakeAdt
from tests.test_abap_tools import PASSWORD, call, context, ok

pytestmark = pytest.mark.anyio

TABLE = (
    "@EndUserText.label : 'Sales order items'\n"
    "@AbapCatalog.tableCategory : #TRANSPARENT\n"
    "@AbapCatalog.deliveryClass : #A\n"
    "define table zsales_item {\n"
    "  key client : abap.clnt not null;\n"
    "  key item_id : abap.numc(6) not null;\n"
    "}\n"
)
MSAG_URI = "/sap/bc/adt/messageclass/zsales_msg"
MESSAGES = [{"number": "001", "text": "Sales order &1 not found"}, {"number": "002", "text": "Item <&1> & co"}]


@pytest.fixture
def adt():
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


async def test_create_table_writes_its_source_and_activates(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx, "create_object", type="table", name="ZSALES_ITEM", package="$TMP", description="Items", source=TABLE
    )
    assert out["uri"] == "/sap/bc/adt/ddic/tables/zsales_item" and out["activated"] is True
    created = next(r for r in adt.requests if r.method == "POST" and r.path == "/sap/bc/adt/ddic/tables")
    assert created.headers["content-type"] == "application/vnd.sap.adt.tables.v2+xml"
    assert 'adtcore:type="TABL/DT"' in adt.create_bodies[-1] and "blue:blueSource" in adt.create_bodies[-1]
    assert adt.objects[out["uri"]].source == TABLE and adt.locks == {}
    assert "zsales_item" in adt.activated[-1]
    read = await ok(ctx, "get_table", name="ZSALES_ITEM")
    assert "define table zsales_item" in read["source"]


async def test_a_system_without_table_sources_is_told_and_nothing_is_created(adt, tmp_path) -> None:
    adt.table_sources = False
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx, "create_object", type="table", name="ZSALES_ITEM", package="$TMP", description="Items", source=TABLE
    )
    assert outcome.is_error and "This system cannot create a table over ADT" in outcome.text
    assert "SE11" in outcome.text and "nothing was created" in outcome.text
    assert adt.created == [] and adt.changes() == []


@pytest.mark.parametrize(
    ("package", "transport", "message"),
    [
        ("SAP_BASIS", None, "package SAP_BASIS is not in the allowed packages"),
        ("ZPROD", None, "a transport request is required"),
    ],
)
async def test_create_table_follows_the_safety_policy(adt, tmp_path, package, transport, message) -> None:
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx, "create_object", type="table", name="ZSALES_ITEM", package=package, description="x", source=TABLE
    )
    assert outcome.is_error and message in outcome.text
    assert adt.created == [] and adt.requests == [] and adt.changes() == []


async def test_create_table_in_a_transportable_package_sends_the_transport(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    args = {"name": "ZSALES_ITEM", "package": "ZPROD", "description": "Items", "source": TABLE}
    out = await ok(ctx, "create_object", type="table", transport="DEVK900123", **args)
    assert out["transport"] == "DEVK900123" and adt.objects[out["uri"]].package == "ZPROD"
    changing = [r for r in adt.requests if r.method == "PUT" or r.path == "/sap/bc/adt/ddic/tables"]
    assert changing and all(r.query.get("corrNr") == ["DEVK900123"] for r in changing)


async def test_create_message_class_with_its_messages(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx, "create_message_class", name="zsales_msg", package="$TMP", description="Sales", messages=MESSAGES
    )
    assert out == {"name": "ZSALES_MSG", "uri": MSAG_URI, "package": "$TMP", "messages": 2}
    create = adt.create_bodies[-1]
    assert 'adtcore:type="MSAG/N"' in create and "<mc:messages" not in create, "created empty"
    msg_locks = [r for r in adt.requests if r.query.get("_action") == ["LOCK_MSG"]]
    assert [r.path for r in msg_locks] == [f"{MSAG_URI}/messages/001", f"{MSAG_URI}/messages/002"]
    class_lock = next(r for r in adt.requests if r.path == MSAG_URI and r.query.get("_action") == ["LOCK"])
    assert class_lock.query["msgNo"] == ["002"] and class_lock.query["onSave"] == ["X"]
    assert all(r.headers.get("x-sap-adt-sessiontype") == "stateful" for r in [*msg_locks, class_lock])
    written = adt.objects[MSAG_URI].metadata.decode()
    assert 'mc:msgno="001" mc:msgtext="Sales order &amp;1 not found"' in written
    assert 'mc:msgtext="Item &lt;&amp;1&gt; &amp; co"' in written
    unlock_all = next(r for r in adt.requests if r.query.get("_action") == ["UNLOCK_ALL"])
    assert unlock_all.path == f"{MSAG_URI}/messages/002"
    assert adt.locks == {} and adt.message_locks == {}, "every lock given back"
    assert not any(r.path == "/sap/bc/adt/activation" for r in adt.requests), "messages need no activation"


async def test_a_message_class_without_messages_takes_no_lock(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(ctx, "create_message_class", name="ZSALES_MSG", package="$TMP", description="Sales")
    assert out["messages"] == 0 and MSAG_URI in adt.objects
    assert not [r for r in adt.requests if "_action" in r.query]


async def test_message_locks_are_given_back_when_the_class_lock_fails(adt, tmp_path) -> None:
    from sap_devs.adt.messageclass import MessageText, write_messages

    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "create_message_class", name="ZSALES_MSG", package="$TMP", description="Sales")
    adt.locked_by_other.add(MSAG_URI)
    with pytest.raises(Exception, match="currently being edited by OTHERUSER"):
        await write_messages(ctx.adt(), ctx.policy(), "ZSALES_MSG", [MessageText("001", "x")])
    assert adt.message_locks == {} and any(r.query.get("_action") == ["UNLOCK_ALL"] for r in adt.requests)
    assert not [r for r in adt.requests if r.method == "PUT"]


async def test_a_class_created_but_not_filled_says_so(adt, tmp_path) -> None:
    adt.locked_by_other.add(MSAG_URI)  # someone opens the new class before its messages are written
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx, "create_message_class", name="ZSALES_MSG", package="$TMP", description="Sales", messages=MESSAGES
    )
    assert outcome.is_error and "ZSALES_MSG was created in $TMP, but its messages were not written" in outcome.text
    assert "OTHERUSER" in outcome.text and MSAG_URI in adt.objects
    assert adt.message_locks == {} and not [r for r in adt.requests if r.method == "PUT"]


async def test_a_message_class_moved_out_of_the_allowed_packages_meanwhile_is_not_written(adt, tmp_path) -> None:
    from sap_devs.adt.messageclass import MessageText, write_messages

    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "create_message_class", name="ZSALES_MSG", package="$TMP", description="Sales")
    adt.moves_at_lock[MSAG_URI] = "SAP_BASIS"
    with pytest.raises(Exception, match="Refused after locking ZSALES_MSG"):
        await write_messages(ctx.adt(), ctx.policy(), "ZSALES_MSG", [MessageText("001", "x")])
    assert adt.locks == {} and adt.message_locks == {} and not [r for r in adt.requests if r.method == "PUT"]


@pytest.mark.parametrize(
    ("package", "transport", "message"),
    [
        ("SAP_BASIS", None, "package SAP_BASIS is not in the allowed packages"),
        ("ZPROD", None, "a transport request is required"),
    ],
)
async def test_create_message_class_follows_the_safety_policy(adt, tmp_path, package, transport, message) -> None:
    assert context(adt, tmp_path).registry.get("create_message_class") is None, "listed only with writes"
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx, "create_message_class", name="ZSALES_MSG", package=package, description="x", messages=MESSAGES
    )
    assert outcome.is_error and message in outcome.text
    assert adt.requests == [] and adt.changes() == []


async def test_create_message_class_in_a_transportable_package(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "create_message_class",
        name="ZSALES_MSG",
        package="ZPROD",
        description="Sales",
        messages=MESSAGES[:1],
        transport="DEVK900123",
    )
    assert out["transport"] == "DEVK900123"
    changing = [r for r in adt.requests if r.method == "PUT" or r.path == "/sap/bc/adt/messageclass"]
    assert len(changing) == 2 and all(r.query.get("corrNr") == ["DEVK900123"] for r in changing)
    assert adt.locks == {} and adt.message_locks == {}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"name": "ZSALES_MESSAGES_OF_2026"}, "at most 20 characters"),
        ({"messages": [{"number": "001", "text": "a"}, {"number": "001", "text": "b"}]}, "001 is given twice"),
        ({"messages": [{"number": "1", "text": "a"}]}, "number"),
        ({"messages": [{"number": "001", "text": "x" * 74}]}, "text"),
        ({"name": "SALES_MSG"}, "not a customer name"),
    ],
)
async def test_bad_message_class_input_is_refused_before_anything_is_sent(adt, tmp_path, args, message) -> None:
    ctx = context(adt, tmp_path, writes=True)
    base = {"name": "ZSALES_MSG", "package": "$TMP", "description": "Sales"}
    outcome = await call(ctx, "create_message_class", **{**base, **args})
    assert outcome.is_error and message in outcome.text and "Traceback" not in outcome.text
    assert adt.requests == []
