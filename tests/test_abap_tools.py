"""ABAP tools against the fake ADT server over real HTTP: reads, the safe write path, and failures."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from sap_devs.adt.config import AdtConfig
from sap_devs.adt.safety import SafetyPolicy
from sap_devs.mcp.dispatch import Outcome, invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry, discover
from tests.conftest import bundled_layer
from tests.fake_adt import FakeAdt

pytestmark = pytest.mark.anyio
PASSWORD = "S3cret-Passw0rd!"
ALL = discover()


@pytest.fixture
def adt():
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


def context(adt: FakeAdt, tmp_path, *, writes: bool = False, password: str = PASSWORD, **policy: Any) -> ToolContext:
    config = AdtConfig(url=adt.url, client="100", user="DEVELOPER", password=password, timeout=2.0)
    safety = SafetyPolicy(writes=writes, **policy)
    registry = Registry(ALL, system=True, writes=writes, data=bool(policy.get("data")))
    return ToolContext(cwd=tmp_path, layers=[bundled_layer()], adt_config=config, safety=safety, registry=registry)


async def call(ctx: ToolContext, tool_name: str, /, **args: Any) -> Outcome:
    tool = ctx.registry.get(tool_name)
    assert tool is not None, f"{tool_name} is not registered"
    return await invoke(tool, args, ctx)


async def ok(ctx: ToolContext, tool_name: str, /, **args: Any) -> dict[str, Any]:
    outcome = await call(ctx, tool_name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.structured or {}


@pytest.mark.parametrize(
    ("tool", "args", "expect_name", "expect_in_source"),
    [
        ("get_class", {"name": "ZCL_SAMPLE_CLASS"}, "ZCL_SAMPLE_CLASS", "CLASS zcl_example DEFINITION"),
        ("get_interface", {"name": "ZIF_SAMPLE_INTERFACE"}, "ZIF_SAMPLE_INTERFACE", "INTERFACE zif_sample_interface"),
        ("get_program", {"name": "ZTEST_PROGRAM"}, "ZTEST_PROGRAM", "REPORT ztest_program."),
        ("get_cds_view", {"name": "ZDDL_SAMPLE"}, "ZDDL_SAMPLE", "define view entity"),
        ("get_behavior_definition", {"name": "ZMOCK_BDEF"}, "ZMOCK_BDEF", "managed implementation in class"),
        ("get_table", {"name": "ZSALES_ORDER"}, "ZSALES_ORDER", "define table"),
        (
            "get_function_module",
            {"name": "Z_FN_HELLO_WORLD", "function_group": "ZFG_HELLO_WORLD"},
            "Z_FN_HELLO_WORLD",
            "FUNCTION test_function",
        ),
    ],
)
async def test_read_tools_return_the_recorded_objects(adt, tmp_path, tool, args, expect_name, expect_in_source) -> None:
    out = await ok(context(adt, tmp_path), tool, **args)
    assert out["name"] == expect_name
    assert expect_in_source.lower() in out["source"].lower()
    assert out["total_lines"] >= 1 and out["first_line"] == 1


async def test_class_comes_with_its_local_includes(adt, tmp_path) -> None:
    out = await ok(context(adt, tmp_path), "get_class", name="ZCL_SAMPLE_CLASS")
    assert out["package"] == "$TMP" and set(out["local_includes"]) == {"testclasses", "definitions"}


async def test_long_source_is_paged(adt, tmp_path) -> None:
    out = await ok(context(adt, tmp_path), "get_class", name="ZCL_SAMPLE_CLASS", max_lines=3, includes=False)
    assert out["last_line"] == 3 and "start_line=4" in out["hint"]
    rest = await ok(context(adt, tmp_path), "get_class", name="ZCL_SAMPLE_CLASS", start_line=4, includes=False)
    assert rest["first_line"] == 4


async def test_search_info_package_and_system(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    found = await ok(ctx, "search_objects", query="Z*SAMPLE*")
    assert {r["name"] for r in found["results"]} == {"ZCL_SAMPLE_CLASS", "ZIF_SAMPLE_INTERFACE", "ZDDL_SAMPLE"}
    classes = await ok(ctx, "search_objects", query="Z*", object_type="CLAS")
    assert [r["name"] for r in classes["results"]] == ["ZCL_SAMPLE_CLASS"]
    info = await ok(ctx, "get_object_info", name="ZTEST_PROGRAM", kind="program")
    assert info["package"] == "$TMP" and info["type"] == "PROG/P" and info["responsible"] == "DEVELOPER"
    contents = await ok(ctx, "get_package_contents", package="$TMP")
    assert "ZCL_SAMPLE_CLASS" in [r["name"] for r in contents["results"]]
    system = await ok(ctx, "get_system_info")
    assert system["facts"]["DBSchema"] == "SAPHANADB" and system["client"] == "100"


async def test_write_source_then_read_shows_it_and_releases_the_lock(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    new = "REPORT ztest_program.\nWRITE 'Changed by sap-devs'.\n"
    out = await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source=new)
    assert out["unlocked"] is True and out["package"] == "$TMP" and out["lines_after"] == 2
    assert adt.locks == {}, "the lock was released"
    read = await ok(ctx, "get_program", name="ZTEST_PROGRAM", version="inactive")  # saved, not yet activated
    assert "Changed by sap-devs" in read["source"]
    lock, put, unlock = [r for r in adt.requests if r.query.get("_action") or r.method == "PUT"]
    assert [lock.headers["x-sap-adt-sessiontype"], put.headers["x-sap-adt-sessiontype"]] == ["stateful", "stateful"]
    assert unlock.query["_action"] == ["UNLOCK"]


async def test_write_tools_are_hidden_and_refused_without_writes(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=False)
    assert ctx.registry.get("write_source") is None
    from sap_devs.adt.write import write_source

    with pytest.raises(Exception, match="ABAP writes are off"):
        await write_source(ctx.adt(), ctx.policy(), "program", "ZTEST_PROGRAM", "REPORT x.")
    assert adt.changes() == [], "no lock and no PUT reached the system"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("RSPARAM", "package SAP_BASIS_CORE is not in the allowed packages"),
        ("ZPROD_REPORT", "transportable package ZPROD; a transport request is required"),
    ],
)
async def test_writes_outside_the_policy_are_refused_before_any_lock(adt, tmp_path, name, message) -> None:
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "write_source", name=name, kind="program", source="REPORT x.")
    assert outcome.is_error and message in outcome.text
    assert adt.changes() == []


@pytest.mark.parametrize(
    ("moved_to", "message"),
    [
        ("SAP_BASIS_CORE", "package SAP_BASIS_CORE is not in the allowed packages"),
        ("ZPROD", "transportable package ZPROD; a transport request is required"),
    ],
)
async def test_write_is_refused_when_the_object_moved_before_the_lock(adt, tmp_path, moved_to, message) -> None:
    uri = "/sap/bc/adt/programs/programs/ztest_program"
    adt.moves_at_lock[uri] = moved_to
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT hijacked.\n")
    assert outcome.is_error and "Refused after locking ZTEST_PROGRAM" in outcome.text and message in outcome.text
    assert "it was in $TMP" in outcome.text
    assert not [r for r in adt.requests if r.method == "PUT"], "nothing was written"
    assert adt.objects[uri].source == "REPORT ztest_program.\nWRITE 'Hello'.\n"
    assert adt.locks == {}, "the lock was released"


async def test_delete_is_refused_when_the_object_moved_before_the_lock(adt, tmp_path) -> None:
    uri = "/sap/bc/adt/oo/interfaces/zif_sample_interface"
    adt.moves_at_lock[uri] = "SAP_BASIS_CORE"
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "delete_object", name="ZIF_SAMPLE_INTERFACE", kind="interface")
    assert outcome.is_error and "now in package SAP_BASIS_CORE" in outcome.text
    assert uri in adt.objects and adt.locks == {}
    assert not [r for r in adt.requests if r.method == "DELETE"]


async def test_a_move_between_allowed_packages_still_writes(adt, tmp_path) -> None:
    uri = "/sap/bc/adt/programs/programs/zprod_report"
    adt.moves_at_lock[uri] = "ZPROD_NEW"
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "write_source",
        name="ZPROD_REPORT",
        kind="program",
        source="REPORT zprod_report.\n",
        transport="DEVK900123",
    )
    assert out["package"] == "ZPROD_NEW" and out["unlocked"] is True and adt.locks == {}


async def test_transportable_write_with_a_transport(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "write_source",
        name="ZPROD_REPORT",
        kind="program",
        source="REPORT zprod_report.\n",
        transport="DEVK900123",
    )
    assert out["transport"] == "DEVK900123"
    put = next(r for r in adt.requests if r.method == "PUT")
    assert put.query["corrNr"] == ["DEVK900123"]


async def test_lock_conflict_is_reported_and_nothing_written(adt, tmp_path) -> None:
    adt.locked_by_other.add("/sap/bc/adt/programs/programs/ztest_program")
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT x.")
    assert outcome.is_error and "ExceptionResourceLockConflict" in outcome.text and "OTHERUSER" in outcome.text
    assert not [r for r in adt.requests if r.method == "PUT"]


async def test_a_stateless_request_between_lock_and_write_retires_the_lock(adt, tmp_path) -> None:
    """The fake system behaves like a real one, which is why writes happen inside one call."""
    from sap_devs.adt.client import AdtClient

    config = AdtConfig(url=adt.url, client="100", user="DEVELOPER", password=PASSWORD)
    async with AdtClient(config) as client:
        uri = "/sap/bc/adt/programs/programs/ztest_program"
        async with client.stateful():
            lock = await client.request("POST", uri, params={"_action": "LOCK", "accessMode": "MODIFY"})
        handle = lock.text().split("<LOCK_HANDLE>")[1].split("<")[0]
        await client.get_text(f"{uri}/source/main")  # stateless
        async with client.stateful():
            with pytest.raises(Exception, match="ExceptionResourceInvalidLockHandle"):
                await client.request("PUT", f"{uri}/source/main", params={"lockHandle": handle}, body="REPORT x.")


async def test_wrong_password_is_a_clear_message_without_the_password(adt, tmp_path, caplog) -> None:
    ctx = context(adt, tmp_path, password="wrong-password-123")
    outcome = await call(ctx, "get_program", name="ZTEST_PROGRAM")
    assert outcome.is_error and "HTTP 401" in outcome.text and "SAP_USER / SAP_PASSWORD" in outcome.text
    assert "wrong-password-123" not in outcome.text and "wrong-password-123" not in caplog.text


async def test_object_not_found(adt, tmp_path) -> None:
    outcome = await call(context(adt, tmp_path), "get_class", name="ZCL_DOES_NOT_EXIST")
    assert outcome.is_error and "does not exist" in outcome.text and "search_objects" in outcome.text


async def test_csrf_expiry_mid_session_is_retried(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT a.\n")
    adt.expire_csrf()
    out = await ok(ctx, "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT b.\n")
    assert out["unlocked"] and adt.objects["/sap/bc/adt/programs/programs/ztest_program"].inactive == "REPORT b.\n"
    fetches = [r for r in adt.requests if r.headers.get("x-csrf-token") == "fetch"]
    assert len(fetches) == 2, "one initial fetch, one after the expiry"


async def test_406_is_renegotiated_with_what_the_system_offers(adt, tmp_path) -> None:
    adt.objects["/sap/bc/adt/oo/classes/zcl_sample_class"].accepts = ("application/vnd.sap.adt.oo.classes.v9+xml",)
    out = await ok(context(adt, tmp_path), "get_object_info", name="ZCL_SAMPLE_CLASS", kind="class")
    assert out["name"] == "ZCL_SAMPLE_CLASS"
    statuses = [r.headers.get("accept") for r in adt.requests if r.path.endswith("zcl_sample_class")]
    assert statuses[-1] == "application/vnd.sap.adt.oo.classes.v9+xml"


async def test_timeout_is_a_retryable_message(adt, tmp_path) -> None:
    adt.delay = 3.0
    outcome = await call(context(adt, tmp_path), "get_program", name="ZTEST_PROGRAM")
    assert outcome.is_error and "timed out" in outcome.text and "try again" in outcome.text


def test_environment_filtering() -> None:
    cloud = Registry(ALL, environment="cloud", system=True).names()
    assert "get_program" not in cloud and "get_include" not in cloud and "get_class" in cloud
    legacy = Registry(ALL, environment="legacy", system=True)
    abap_legacy = {t.name for t in legacy.operations() if t.needs_system}
    assert abap_legacy == {
        t.name for t in ALL if t.needs_system and "legacy" in t.available_in and not t.writes and not t.reads_data
    }
    assert "get_cds_view" not in abap_legacy and "get_program" in abap_legacy
    assert not any(t.needs_system for t in Registry(ALL).operations()), "no SAP_URL, no ABAP tools"


async def test_no_credential_appears_anywhere(adt, tmp_path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    ctx = context(adt, tmp_path, writes=True)
    texts = []
    for name, args in (
        ("get_class", {"name": "ZCL_SAMPLE_CLASS"}),
        ("get_system_info", {}),
        ("write_source", {"name": "ZTEST_PROGRAM", "kind": "program", "source": "REPORT c.\n"}),
        ("write_source", {"name": "RSPARAM", "kind": "program", "source": "REPORT c.\n"}),
        ("get_class", {"name": "ZCL_NOPE"}),
    ):
        texts.append((await call(ctx, name, **args)).text)
    texts.append(repr(ctx.adt_config))
    blob = "\n".join(texts) + caplog.text
    assert PASSWORD not in blob
    import base64

    assert base64.b64encode(f"DEVELOPER:{PASSWORD}".encode()).decode() not in blob


async def test_syntax_check_of_saved_and_unsaved_source(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    clean = await ok(ctx, "syntax_check", name="ZCL_SAMPLE_CLASS", kind="class")
    assert clean["errors"] == 0 and clean["hint"] == "No syntax problems."
    broken = await ok(ctx, "syntax_check", name="ZCL_SAMPLE_CLASS", kind="class", source="CLASS x. SYNTAX_ERROR")
    assert broken["errors"] == 1 and broken["warnings"] == 1
    first = broken["messages"][0]
    assert (first["line"], first["column"], first["code"]) == (27, 2, "SYNTAX(001)")
    assert adt.checked[-1] == "CLASS x. SYNTAX_ERROR" and adt.changes() == [], "checking writes nothing"


async def test_activation_needs_writes_and_reports_errors(adt, tmp_path) -> None:
    assert context(adt, tmp_path).registry.get("activate_objects") is None
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(ctx, "activate_objects", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}])
    assert out["activated"] and out["objects"] == ["ZTEST_PROGRAM"]
    assert "ztest_program" in adt.activated[-1]
    refused = await call(ctx, "activate_objects", objects=[{"name": "RSPARAM", "kind": "program"}])
    assert refused.is_error and "not in the allowed packages" in refused.text and len(adt.activated) == 1


async def test_where_used_and_inactive_objects(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    used = await ok(ctx, "where_used", name="ZTEST_PROGRAM", kind="program")
    assert used["results"][0]["name"] == "ZCL_ABAPGIT_ABAP_LANGUAGE_VERS"
    assert used["results"][0]["package"] == "$ABAPGIT_ENV"
    inactive = await ok(ctx, "get_inactive_objects")
    assert "CL_HELLO_WORLD" in [o["name"] for o in inactive["results"]]


async def test_transport_requests(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    listed = await ok(ctx, "get_transport_requests")
    first = listed["results"][0]
    assert first["number"] == "DEVK900123" and first["tasks"] == ["DEVK900124"]
    assert {"type": "TABL/DS", "name": "FOO"} in first["objects"]
    one = await ok(ctx, "get_transport", number="DEVK900123")
    assert one["status"] == "Modifiable" and one["target"] == "CTS_TARGET"
    missing = await call(ctx, "get_transport", number="DEVK999999")
    assert missing.is_error and "does not exist" in missing.text


async def test_create_then_read_then_delete(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    source = (
        "CLASS zcl_new_helper DEFINITION PUBLIC FINAL.\nENDCLASS.\nCLASS zcl_new_helper IMPLEMENTATION.\nENDCLASS.\n"
    )
    created = await ok(ctx, "create_class", name="ZCL_NEW_HELPER", package="$TMP", description="Helper", source=source)
    assert created["uri"] == "/sap/bc/adt/oo/classes/zcl_new_helper" and "activate_objects" in created["hint"]
    read = await ok(ctx, "get_class", name="ZCL_NEW_HELPER", includes=False, version="inactive")
    assert read["source"].startswith("CLASS zcl_new_helper DEFINITION PUBLIC FINAL.")
    deleted = await ok(ctx, "delete_object", name="ZCL_NEW_HELPER", kind="class")
    assert deleted["deleted"] == "ZCL_NEW_HELPER" and "/sap/bc/adt/oo/classes/zcl_new_helper" not in adt.objects
    assert adt.locks == {}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"name": "CL_NOT_CUSTOMER", "package": "$TMP"}, "is not a customer name"),
        ({"name": "ZCL_X", "package": "SAP_BASIS"}, "package SAP_BASIS is not in the allowed packages"),
        ({"name": "ZCL_X", "package": "ZPROD"}, "a transport request is required"),
    ],
)
async def test_creates_outside_the_rules_are_refused_without_a_request(adt, tmp_path, args, message) -> None:
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "create_class", description="x", **args)
    assert outcome.is_error and message in outcome.text
    assert adt.created == [] and adt.changes() == []


async def test_delete_refused_outside_allowed_packages(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(ctx, "delete_object", name="RSPARAM", kind="program")
    assert outcome.is_error and "not in the allowed packages" in outcome.text and adt.changes() == []


async def test_data_element_and_domain_definitions(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    dtel = await ok(ctx, "get_data_element", name="ZSALES_ORDER_ID")
    assert dtel["name"] == "ZSALES_ORDER_ID" and dtel["package"] == "PACKAGE"
    assert "typeKind" in dtel["properties"]
    doma = await ok(ctx, "get_domain", name="BEGRM")
    assert doma["package"] == "MGA" and doma["properties"]["datatype"]
    assert doma["description"] == "Authorization group in the material master"


def test_named_systems_never_hold_passwords(tmp_path, monkeypatch) -> None:
    from sap_devs.adt.config import AdtConfigError, configured
    from sap_devs.core import paths

    systems = paths.config_dir() / "systems.yaml"
    systems.parent.mkdir(parents=True, exist_ok=True)
    systems.write_text(
        "systems:\n  dev:\n    url: https://dev.example.com:44300\n    client: '200'\n    user: DEVELOPER\n"
        "    password_env: SAP_DEV_PASSWORD\n    system_type: cloud\n"
        "  bad:\n    url: https://x.example.com\n    user: U\n    password: plain\n"
    )
    config = configured("dev", {"SAP_DEV_PASSWORD": PASSWORD})
    assert (config.url, config.client, config.system_type, config.password) == (
        "https://dev.example.com:44300",
        "200",
        "cloud",
        PASSWORD,
    )
    assert PASSWORD not in repr(config)
    with pytest.raises(AdtConfigError, match="plain-text password"):
        configured("bad", {})
    with pytest.raises(AdtConfigError, match="Known systems: bad, dev"):
        configured("prod", {})
    with pytest.raises(AdtConfigError, match="no credentials"):
        configured("dev", {})
    assert configured(None, {}) is None, "nothing configured: no ABAP tools"


async def test_service_binding_and_function_group(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    srvb = await ok(ctx, "get_service_binding", name="ZSAPCLI_TEST_BND")
    assert (srvb["binding_type"], srvb["odata_version"], srvb["published"]) == ("ODATA", "V4", False)
    assert srvb["services"][0]["service_definition"] == "ZSAPCLI_TEST_SRV"
    fugr = await ok(ctx, "get_function_group", name="ZFG_HELLO_WORLD")
    assert fugr["type"] == "FUGR/F" and "FUNCTION-POOL zfg_hello_world." in fugr["source"]


def test_source_shape_is_described_once_not_per_tool() -> None:
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.schema_compact import compact_output
    from sap_devs.mcp.server import build_server

    registry = Registry(ALL, system=True)
    instructions = build_server(registry, ToolContext(), mode="full").instructions
    line = next(x for x in instructions.splitlines() if "total_lines" in x)
    assert "get_program" in line and "get_table" in line and "start_line = last_line + 1" in line
    assert compact_output(registry.get("get_program").output_schema) is None
    assert "local_includes" in compact_output(registry.get("get_class").output_schema)["properties"]
    knowledge_only = build_server(Registry(ALL), ToolContext(), mode="full").instructions
    assert "total_lines" not in knowledge_only
