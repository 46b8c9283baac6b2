"""ABAP tools that behave as the reference clients do on a real system (issue 26): each test here
describes an answer or a rule of real systems that the fake now reproduces, and what sap-devs must
do with it. The dumps feed and coverage children are covered in test_abap_quality."""

from __future__ import annotations

import httpx
import pytest

from sap_devs.adt.config import AdtConfig
from tests.fake_adt import FakeAdt
from tests.test_abap_tools import PASSWORD, call, context, ok

pytestmark = pytest.mark.anyio
CLASS = "/sap/bc/adt/oo/classes/zcl_sample_class"
INTERFACE = "/sap/bc/adt/oo/interfaces/zif_sample_interface"


@pytest.fixture
def adt():
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


def activations(adt: FakeAdt) -> list[tuple[dict[str, list[str]], str]]:
    requests = [r for r in adt.requests if r.path == "/sap/bc/adt/activation"]
    return [(r.query, body) for r, body in zip(requests, adt.activated, strict=True)]


# -- Fix 1: the inactive-objects answer to an activation ------------------------------------------


async def test_activation_answered_with_inactive_objects_activates_them_together(adt, tmp_path) -> None:
    """sapcli's way: the listed objects are sent again, without the pre-audit, and only then is the
    class active; before, the list was read as "no messages" and reported activated."""
    adt.inactive_together = [
        (CLASS, "CLAS/OC", "ZCL_SAMPLE_CLASS"),
        (INTERFACE, "INTF/OI", "ZIF_SAMPLE_INTERFACE"),
    ]
    out = await ok(
        context(adt, tmp_path, writes=True), "activate_objects", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}]
    )
    assert out["activated"] is True
    (first_query, first), (second_query, second) = activations(adt)
    assert INTERFACE not in first and first_query["preauditRequested"] == ["true"]
    assert CLASS in second and INTERFACE in second and second_query["preauditRequested"] == ["false"]
    assert adt.inactive_together == [], "the fake saw them activated together"


async def test_objects_outside_the_allowed_packages_are_not_activated_along(adt, tmp_path) -> None:
    adt.inactive_together = [
        (CLASS, "CLAS/OC", "ZCL_SAMPLE_CLASS"),
        ("/sap/bc/adt/programs/programs/rsparam", "PROG/P", "RSPARAM"),
    ]
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "activate_objects", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}])
    assert outcome.is_error
    assert "RSPARAM" in outcome.text and "SAP_BASIS_CORE" in outcome.text and "Not activated" in outcome.text
    assert len(activations(adt)) == 1, "nothing outside the allowed packages was activated"


async def test_objects_still_inactive_after_the_second_activation_are_named(adt, tmp_path) -> None:
    adt.inactive_together = [(CLASS, "CLAS/OC", "ZCL_SAMPLE_CLASS"), (INTERFACE, "INTF/OI", "ZIF_SAMPLE_INTERFACE")]
    adt.activation_keeps_inactive = True
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "activate_objects", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}])
    assert outcome.is_error and "ZCL_SAMPLE_CLASS, ZIF_SAMPLE_INTERFACE" in outcome.text
    assert len(activations(adt)) == 2


async def test_a_create_that_the_system_does_not_activate_says_so(adt, tmp_path) -> None:
    """create_domain activates what it created; an inactive-objects answer is a failure, not success."""
    adt.inactive_together = [("/sap/bc/adt/ddic/domains/zsales_status", "DOMA/DD", "ZSALES_STATUS")]
    adt.activation_keeps_inactive = True
    outcome = await call(
        context(adt, tmp_path, writes=True),
        "create_domain",
        name="ZSALES_STATUS",
        package="$TMP",
        description="Status",
        data_type="CHAR",
        length=1,
    )
    assert outcome.is_error and "did not activate" in outcome.text and "ZSALES_STATUS" in outcome.text


def test_abort_and_exit_messages_mean_not_activated() -> None:
    from sap_devs.adt.checks import Activation, Message

    for kind in "AXE":
        assert Activation([Message(type=kind, text="x")], []).activated is False
    assert Activation([Message(type="W", text="x")], []).activated is True


# -- Fix 2: versions through the object's own link -----------------------------------------------


async def test_class_versions_come_from_the_main_include_link(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "get_versions", name="ZCL_SAMPLE_CLASS", kind="class")
    assert [v["id"] for v in out["results"]] == ["00042"] and out["results"][0]["transport"] == "MOCK900236"
    feeds = [r.path for r in adt.requests if r.path.endswith("/versions")]
    assert feeds == [f"{CLASS}/includes/main/versions"]
    diff = await ok(ctx, "compare_versions", name="ZCL_SAMPLE_CLASS", kind="class", a="00042")
    assert diff["identical"] is False


async def test_the_fake_serves_versions_only_where_metadata_links_them(adt) -> None:
    auth = ("DEVELOPER", PASSWORD)
    with httpx.Client(base_url=adt.url, auth=auth, params={"sap-client": "100"}) as http:
        assert http.get(f"{CLASS}/source/main/versions").status_code == 404
        assert http.get(f"{CLASS}/includes/main/versions").status_code == 200
        assert http.get("/sap/bc/adt/programs/programs/ztest_program/source/main/versions").status_code == 200


# -- Fix 3: CSRF on older systems, and the 403 that asks for a token ------------------------------


async def test_csrf_token_from_the_older_discovery_when_core_discovery_is_missing(adt, tmp_path) -> None:
    adt.core_discovery = False
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT ztest_program.\n")
    assert out["unlocked"] is True
    fetches = [r.path for r in adt.requests if r.headers.get("x-csrf-token", "").lower() == "fetch"]
    assert fetches == ["/sap/bc/adt/core/discovery", "/sap/bc/adt/discovery"]


async def test_a_403_marked_token_required_is_retried_whatever_its_body(adt, tmp_path) -> None:
    adt.csrf_failure_body = "Forbidden"  # nothing about CSRF: only the header says why
    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT a.\n")
    adt.expire_csrf()
    out = await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT b.\n")
    assert out["unlocked"] and adt.objects["/sap/bc/adt/programs/programs/ztest_program"].inactive == "REPORT b.\n"


# -- Settled by agreeing with the references ------------------------------------------------------


async def test_package_contents_ask_for_the_tree_as_sapcli_does(adt, tmp_path) -> None:
    out = await ok(context(adt, tmp_path), "get_package_contents", package="$TMP")
    assert "ZCL_SAMPLE_CLASS" in {o["name"] for o in out["results"]}
    (tree,) = [r for r in adt.requests if r.path == "/sap/bc/adt/repository/nodestructure"]
    assert tree.headers["accept"] == (
        "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.RepositoryObjectTreeContent"
    )


async def test_a_406_retry_keeps_the_dataname_the_system_offers(adt) -> None:
    from sap_devs.adt.client import AdtClient

    config = AdtConfig(url=adt.url, client="100", user="DEVELOPER", password=PASSWORD, timeout=2.0)
    async with AdtClient(config) as client:
        answer = await client.request(
            "POST",
            "/sap/bc/adt/repository/nodestructure",
            params={"parent_type": "DEVC/K", "parent_name": "$TMP"},
            accept="application/vnd.sap.adt.repository.nodestructure.v1+xml",
        )
    assert b"ZCL_SAMPLE_CLASS" in answer.content
    first, retry = [r for r in adt.requests if r.path == "/sap/bc/adt/repository/nodestructure"]
    assert "dataname" not in first.headers["accept"]
    assert "dataname=com.sap.adt.RepositoryObjectTreeContent" in retry.headers["accept"]


async def test_delete_locks_as_every_other_lock(adt, tmp_path) -> None:
    from sap_devs.adt.write import LOCK_ACCEPT

    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "delete_object", name="ZIF_SAMPLE_INTERFACE", kind="interface")
    (lock,) = [r for r in adt.requests if r.query.get("_action") == ["LOCK"]]
    assert lock.headers["accept"] == LOCK_ACCEPT
    assert INTERFACE not in adt.objects


async def test_message_locks_as_sapcli_asks_for_them(adt, tmp_path) -> None:
    messages = [{"number": "001", "text": "Sales order &1 not found"}]
    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "create_message_class", name="ZSALES_MSG", package="$TMP", description="Sales", messages=messages)
    (lock,) = [r for r in adt.requests if r.query.get("_action") == ["LOCK_MSG"]]
    assert lock.headers["accept"] == "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.StatusMessage"
    assert lock.headers["content-type"] == "text/plain"


async def test_search_with_a_full_type_sends_the_main_type_and_filters_the_rest(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "search_objects", query="Z*", object_type="CLAS/OC")
    assert adt.requests[-1].query["objectType"] == ["CLAS"]
    assert {o["type"] for o in out["results"]} == {"CLAS/OC"}
    assert (await ok(ctx, "search_objects", query="Z*", object_type="PROG/I"))["results"] == []


async def test_syntax_check_after_a_write_checks_what_was_saved(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    broken = "REPORT ztest_program.\nSYNTAX_ERROR.\n"
    await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source=broken)
    out = await ok(ctx, "syntax_check", name="ZTEST_PROGRAM", kind="program")
    assert out["errors"] >= 1
    assert adt.checked[-1] == broken, "the inactive version was checked, not the active one"
    await ok(ctx, "activate_objects", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}])
    assert adt.objects["/sap/bc/adt/programs/programs/ztest_program"].source == broken, "activation made it active"


async def test_creates_name_their_type_and_who_is_responsible(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "create_program", name="ZNEW_REPORT", package="$TMP", description="New")
    await ok(ctx, "create_class", name="ZCL_NEW_ONE", package="$TMP", description="New")
    program, klass = adt.create_bodies
    assert 'adtcore:type="PROG/P"' in program and 'adtcore:responsible="DEVELOPER"' in program
    assert 'adtcore:type="CLAS/OC"' in klass and 'adtcore:responsible="DEVELOPER"' in klass
    assert program.count("adtcore:type=") == 1


# -- The fake is as tolerant as a real system -----------------------------------------------------


async def test_the_fake_takes_wildcard_accept_and_content_types(adt) -> None:
    auth = ("DEVELOPER", PASSWORD)
    with httpx.Client(base_url=adt.url, auth=auth, params={"sap-client": "100"}) as http:
        for accept in ("*/*", "application/*"):
            assert http.get(CLASS, headers={"Accept": accept}).status_code == 200, accept
        assert http.get(CLASS, headers={"Accept": "application/json"}).status_code == 406
        token = http.get("/sap/bc/adt/core/discovery", headers={"x-csrf-token": "fetch"}).headers["x-csrf-token"]
        stateful = {"X-sap-adt-sessiontype": "stateful", "x-csrf-token": token}
        lock = http.post(
            "/sap/bc/adt/ddic/domains/begrm",
            params={"_action": "LOCK", "accessMode": "MODIFY"},
            headers={**stateful, "Accept": "application/*"},
        )
        assert lock.status_code == 200 and "dataname=com.sap.adt.lock.Result" in lock.headers["content-type"]
        handle = lock.text.split("<LOCK_HANDLE>")[1].split("<")[0]
        put = http.put(
            "/sap/bc/adt/ddic/domains/begrm",
            params={"lockHandle": handle},
            headers={**stateful, "Content-Type": "application/*"},
            content=b"<doma:domain/>",
        )
        assert put.status_code == 200
