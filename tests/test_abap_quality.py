"""ATC runs, ABAP Unit and the other quality tools against the fake ADT server (recorded formats)."""

from __future__ import annotations

import pytest

from tests.fake_adt import DATA, FakeAdt
from tests.test_abap_tools import PASSWORD, call, context, ok

pytestmark = pytest.mark.anyio


@pytest.fixture
def adt():
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


async def test_atc_uses_the_system_variant_and_returns_located_findings(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "run_atc", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}])
    assert (out["check_variant"], out["variant_source"]) == ("STANDARD", "system default")
    assert list(adt.atc_worklists.values()) == ["STANDARD"], "the variant is sent, never left to DEFAULT"
    _, body = adt.atc_runs[-1]
    assert 'adtcore:uri="/sap/bc/adt/oo/classes/zcl_sample_class"' in body and 'kind="inclusive"' in body
    assert out["total"] == 2 and out["by_priority"] == {"3": 2}
    first = out["results"][0]
    assert (first["object"], first["line"], first["priority"]) == ("ZCL_SAMPLE_CLASS", 10, 3)
    assert first["check"] == "Analysis of WHERE Condition for SELECT"
    assert first["message"] == "Table SFLIGHT: No WHERE condition" and first["quick_fix"] is False
    assert set(out["objects_checked"]) == {"ZTEST_DOMAIN", "ZCL_SAMPLE_CLASS"}
    assert adt.changes() == [], "ATC changes no object"


async def test_atc_with_a_given_variant_on_a_package(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "run_atc", package="$TMP", check_variant="ZTEAM_VARIANT", max_priority=4)
    assert (out["check_variant"], out["variant_source"]) == ("ZTEAM_VARIANT", "given")
    assert "run its DEFAULT variant" in out["hint"]
    assert '/sap/bc/adt/packages/%24tmp"' in adt.atc_runs[-1][1]
    finding = out["results"][0]
    assert finding["object"] == "OBJ1" and finding.get("line") is None and finding["priority"] == 1
    assert finding["docs_uri"].startswith("/sap/bc/adt/documentation/atc/documents/itemid/")
    assert out["by_priority"] == {"1": 1, "?": 1}, "a priority the system did not send as a number is kept"


async def test_atc_aborted_checks_and_empty_runs_are_said(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    broken = await ok(ctx, "run_atc", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}], check_variant="BROKEN")
    assert "TOOL_FAILURE: ATC check run aborted, due to missing prerequisites" in broken["messages"]
    assert broken["hint"].startswith("Some checks aborted")
    adt.atc_system_variant = "OPENABAPCHECKS"
    clean = await ok(ctx, "run_atc", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}])
    assert clean["total"] == 0 and clean["hint"] == "No ATC findings with check variant OPENABAPCHECKS."


async def test_atc_without_a_system_variant_asks_for_one(adt, tmp_path) -> None:
    adt.atc_system_variant = None
    outcome = await call(context(adt, tmp_path), "run_atc", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}])
    assert outcome.is_error and "Pass check_variant" in outcome.text and adt.atc_worklists == {}


async def test_atc_needs_exactly_one_selection(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    both = await call(ctx, "run_atc", objects=[{"name": "ZX", "kind": "class"}], package="$TMP")
    neither = await call(ctx, "run_atc")
    assert both.is_error and neither.is_error and "either objects or package" in neither.text


def test_quick_fix_flag_from_the_worklist() -> None:
    from sap_devs.adt.atc import parse_worklist

    xml = (DATA / "atc-worklist-package.xml").read_bytes()
    findings, _ = parse_worklist(xml)
    assert [f.quick_fix for f in findings] == [False, False]
    findings, _ = parse_worklist(xml.replace(b'atcfinding:automatic="false"', b'atcfinding:automatic="true"', 1))
    assert [f.quick_fix for f in findings] == [True, False]


async def test_atc_finding_docs_as_text(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    run = await ok(ctx, "run_atc", package="$TMP", check_variant="STANDARD")
    docs = await ok(ctx, "get_atc_finding_docs", docs_uri=run["results"][0]["docs_uri"])
    assert docs["text"].startswith("Analysis of WHERE Condition for SELECT")
    assert "reads the whole table & can be slow" in docs["text"] and "var x" not in docs["text"]
    foreign = await call(ctx, "get_atc_finding_docs", docs_uri="/sap/bc/adt/oo/classes/zcl_sample_class")
    assert foreign.is_error


async def test_unit_tests_report_methods_failures_and_stacks(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "run_unit_tests", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}])
    ctype, config = adt.unit_runs[-1]
    assert ctype == "application/vnd.sap.adt.abapunit.testruns.config.v4+xml" and "<options>" in config
    assert '<testRiskLevels harmless="true" dangerous="false" critical="false"/>' in config
    assert '<coverage active="false"/>' in config and "coverage" not in out
    assert (out["passed"], out["failed"], out["warnings"], out["skipped"]) == (3, 3, 1, 0)
    first = out["classes"][0]
    assert (first["program"], first["name"], first["status"]) == ("ZCL_THEKING_MANUAL_HARDCORE", "LTCL_TEST", "failed")
    fail = first["methods"][0]
    assert fail["name"] == "DO_THE_FAIL" and fail["status"] == "failed" and fail["seconds"] == 0.033
    alert = fail["alerts"][0]
    assert alert["message"] == "Critical Assertion Error: 'I am supposed to fail'"
    assert alert["details"][0] == "True expected"
    assert alert["stack"] == ["Include: <ZCL_THEKING_MANUAL_HARDCORE===CCAU> Line: <19> (DO_THE_FAIL)"]
    assert first["methods"][1]["status"] == "warning" and first["methods"][2]["status"] == "passed"
    assert "stack" in out["hint"] and adt.changes() == []


async def test_unit_tests_with_coverage(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(
        ctx,
        "run_unit_tests",
        objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}],
        with_coverage=True,
        durations=["short"],
    )
    config = adt.unit_runs[-1][1]
    assert (
        '<coverage active="true"/>' in config and '<testDurations short="true" medium="false" long="false"/>' in config
    )
    assert (
        "<cov:query" in adt.coverage_queries[0] and "/sap/bc/adt/oo/classes/zcl_sample_class" in adt.coverage_queries[0]
    )
    first = out["coverage"][0]
    assert {k: v for k, v in first.items() if k != "methods"} == {
        "object": "CL_EXAMPLE_CLASS",
        "type": "CLAS/OCP",
        "statement_percent": 97.7,
        "statements": "84/86",
        "branch_percent": 97.7,
        "procedure_percent": 97.7,
    }
    # the rel=next child measurements, as sapcli follows them: the class's and its local class's methods
    assert len(adt.coverage_queries) == 3
    assert sorted(m["method"] for m in first["methods"]) == [
        "/IWBEP/IF_MGW_REQ_COMMON~GET_SUPPORTED_RUNTIME_FEATURES",
        "/IWBEP/IF_MGW_REQ_ENTITYSET~GET_AT",
        "LCL_STUB_DECORATOR=>CONSTRUCTOR",
    ]
    assert all(m["statements"] == "2/2" and m["statement_percent"] == 100.0 for m in first["methods"])


async def test_unit_tests_outside_a_test(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    none = await ok(ctx, "run_unit_tests", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}])
    assert none["hint"] == "No test ran: The task definition does not refer to any test"
    broken = await ok(ctx, "run_unit_tests", objects=[{"name": "ZFAIL_CLASS", "kind": "class"}])
    assert broken["problems"][0].startswith("CL_FOO: CL_FOO has syntax errors")
    assert "not type-compatible" in broken["problems"][0]
    skipped = await ok(ctx, "run_unit_tests", objects=[{"name": "ZCL_SKIPPING", "kind": "class"}])
    assert (skipped["skipped"], skipped["failed"]) == (1, 0)
    global_class = await ok(ctx, "run_unit_tests", objects=[{"name": "ZCL_TEST_CLASS", "kind": "class"}])
    statuses = {c["name"]: c["status"] for c in global_class["classes"]}
    assert statuses == {"ZCL_TEST_CLASS_GREEN": "passed", "ZCL_TEST_CLASS": "failed"}
    assert global_class["failed"] == 1


async def test_dangerous_unit_tests_need_writes(adt, tmp_path) -> None:
    refused = await call(
        context(adt, tmp_path),
        "run_unit_tests",
        objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}],
        risk_levels=["harmless", "dangerous"],
    )
    assert refused.is_error and "may change data" in refused.text and adt.unit_runs == []
    allowed = await ok(
        context(adt, tmp_path, writes=True),
        "run_unit_tests",
        objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}],
        risk_levels=["harmless", "dangerous", "critical"],
    )
    assert allowed["failed"] == 3
    assert '<testRiskLevels harmless="true" dangerous="true" critical="true"/>' in adt.unit_runs[-1][1]


async def test_unit_tests_name_the_kinds_that_hold_tests(adt, tmp_path) -> None:
    """Only classes, programs and function groups hold ABAP Unit tests; others are refused before a run."""
    outcome = await call(
        context(adt, tmp_path), "run_unit_tests", objects=[{"name": "ZDDL_SAMPLE", "kind": "cds_view"}]
    )
    assert outcome.is_error and "kind" in outcome.text and "function_group" in outcome.text
    assert adt.unit_runs == []
    await ok(context(adt, tmp_path), "run_unit_tests", objects=[{"name": "ZFG_HELLO_WORLD", "kind": "function_group"}])
    assert "/sap/bc/adt/functions/groups/zfg_hello_world" in adt.unit_runs[-1][1]


async def test_dumps_list_and_filters(adt, tmp_path) -> None:
    """The feed is asked with the query the feed repository marks as default (abap-adt-api's way), or a
    user filter in the feed's own language; time and count are applied here, as the feed takes neither."""
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "list_dumps", limit=10)
    (first,) = out["results"]
    assert (first["runtime_error"], first["program"], first["user"]) == (
        "COMPUTE_INT_ZERODIVIDE",
        "ZCL_SAMPLE_CLASS==============CP",
        "DEVELOPER",
    )
    assert first["id"] == "20261128140211fakhost_FAK_00 DEVELOPER 100"
    assert adt.dump_queries[-1] == {"sap-client": ["100"], "$query": ["and( equals( user, DEVELOPER ) )"]}, "no more"
    assert any(r.path == "/sap/bc/adt/feeds" for r in adt.requests)
    mine = await ok(ctx, "list_dumps", user="tester", since="2026-11-27T00:00:00")
    (second,) = mine["results"]
    assert (second["runtime_error"], second["program"], second["user"]) == (
        "ITAB_LINE_NOT_FOUND",
        "ZTEST_PROGRAM",
        "TESTER",
    ), "German labels"
    assert adt.dump_queries[-1] == {"sap-client": ["100"], "$query": ["and( equals( user, TESTER ) )"]}
    later = await ok(ctx, "list_dumps", user="tester", since="2026-11-28T00:00:00")
    assert later["results"] == []


async def test_dump_detail_comes_with_known_error_knowledge(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    listed = await ok(ctx, "list_dumps")
    dump = await ok(ctx, "get_dump", id=listed["results"][0]["id"])
    assert (dump["runtime_error"], dump["exception"]) == ("COMPUTE_INT_ZERODIVIDE", "CX_SY_ZERODIVIDE")
    assert (dump["line"], dump["include"]) == (27, "ZCL_SAMPLE_CLASS==============CM002")
    assert dump["short_text"] == "Division by 0 (type I or INT8)"
    assert dump["what_happened"].startswith("Error in the ABAP application program.")
    assert "not caught in" in dump["error_analysis"]
    assert ">>>>>|    result = total / count." in dump["source_extract"]
    assert [k["id"] for k in dump["known_errors"]] == ["abap/compute-int-zerodivide"]
    assert "IF divisor <> 0" in dump["known_errors"][0]["fix"]
    assert not [r.path for r in adt.requests if r.path.startswith("/sap/bc/adt/runtime/dump/")], "the summary only"
    other = await ok(ctx, "get_dump", id="20261127090000fakhost_FAK_00 TESTER 100")
    assert other["runtime_error"] == "ITAB_LINE_NOT_FOUND", "found through its user's feed"
    missing = await call(ctx, "get_dump", id="20260101000000fakhost_FAK_00 NOBODY 100")
    assert missing.is_error and "not in the system's dumps feed" in missing.text


def test_formatted_dump_without_known_error() -> None:
    from sap_devs.adt.runtime import parse_formatted

    text = (DATA / "dump-formatted.txt").read_text().replace("COMPUTE_INT_ZERODIVIDE", "ZZ_UNHEARD_OF")
    dump = parse_formatted(text, "x")
    assert dump.runtime_error == "ZZ_UNHEARD_OF" and dump.sections["How to correct the error"].startswith("Check")


async def test_versions_and_their_transports(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "get_versions", name="ZTEST_PROGRAM", kind="program")
    assert out["results"] == [
        {
            "id": "00042",
            "title": "Version 42",
            "author": "TESTUSER",
            "time": "2026-07-17T10:00:00Z",
            "transport": "MOCK900236",
            "transport_text": "test code review",
        }
    ]
    assert out["transports"] == ["MOCK900236"]
    assert adt.requests[-1].headers["accept"] == "application/atom+xml;type=feed"


async def test_compare_a_version_with_the_active_source(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "compare_versions", name="ZTEST_PROGRAM", kind="program", a="00042")
    assert (out["added"], out["removed"], out["identical"]) == (1, 2, False)
    assert out["diff"].splitlines()[:2] == ["--- ZTEST_PROGRAM 00042", "+++ ZTEST_PROGRAM active"]
    assert "-WRITE 'Hi'." in out["diff"] and "+WRITE 'Hello'." in out["diff"]
    same = await ok(ctx, "compare_versions", name="ZTEST_PROGRAM", kind="program", a="active", b="inactive")
    assert same["identical"] is True and same["diff"] == ""
    unknown = await call(ctx, "compare_versions", name="ZTEST_PROGRAM", kind="program", a="00001")
    assert unknown.is_error and "no version '00001'" in unknown.text and "00042" in unknown.text


async def test_api_release_state_from_the_system(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "get_api_release_state", name="I_STATISTICALKEYFIGURECAT", kind="cds_view")
    assert out["released"] is True and out["type"] == "DDLS/DF"
    c0, c1 = out["contracts"]
    assert (c0["contract"], c0["state"]) == ("C0", "NOT_RELEASED")
    assert (c1["contract"], c1["state"], c1["key_user_apps"], c1["cloud_development"]) == (
        "C1",
        "RELEASED",
        True,
        False,
    )
    assert c1["changed_at"] == "2018-01-25T23:00:00Z" and "ABAP Cloud" in c1["meaning"]
    request = next(r for r in adt.requests if r.path.startswith("/sap/bc/adt/apireleases/"))
    assert "application/vnd.sap.adt.apirelease.v11+xml" in request.headers["accept"]
    missing = await call(ctx, "get_api_release_state", name="ZDDL_SAMPLE", kind="cds_view")
    assert missing.is_error and "No API release information" in missing.text


CDS = "define view entity ZI_SALESORDER as select from zsales_order\n{\n  key order_id\n}\n"


async def test_create_cds_view_writes_and_activates_in_one_call(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    args = {"name": "ZI_SALESORDER", "package": "$TMP", "description": "Sales orders", "source": CDS}
    out = await ok(ctx, "create_object", type="cds_view", **args)
    assert out["uri"] == "/sap/bc/adt/ddic/ddl/sources/zi_salesorder" and out["activated"] is True
    created = next(r for r in adt.requests if r.method == "POST" and r.path == "/sap/bc/adt/ddic/ddl/sources")
    assert created.headers["content-type"] == "application/vnd.sap.adt.ddlSource+xml"
    assert adt.objects[out["uri"]].source == CDS and adt.locks == {}
    assert "zi_salesorder" in adt.activated[-1]
    read = await ok(ctx, "get_cds_view", name="ZI_SALESORDER")
    assert read["source"].startswith("define view entity ZI_SALESORDER")


@pytest.mark.parametrize(
    ("kind", "collection", "marker"),
    [
        ("access_control", "/sap/bc/adt/acm/dcl/sources", 'adtcore:type="DCLS/DL"'),
        ("behavior_definition", "/sap/bc/adt/bo/behaviordefinitions", 'adtcore:type="BDEF/BDO"'),
        ("metadata_extension", "/sap/bc/adt/ddic/ddlx/sources", 'adtcore:type="DDLX/EX"'),
        ("service_definition", "/sap/bc/adt/ddic/srvd/sources", 'srvd:srvdSourceType="S"'),
    ],
)
async def test_create_each_rap_type(adt, tmp_path, kind, collection, marker) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx, "create_object", type=kind, name="ZR_SALESORDER", package="$TMP", description="x", source="// source\n"
    )
    assert out["uri"] == f"{collection}/zr_salesorder" and adt.objects[out["uri"]].source == "// source\n"
    assert marker in adt.create_bodies[-1] and 'adtcore:packageRef adtcore:name="$TMP"' in adt.create_bodies[-1]
    assert adt.locks == {}


async def test_create_object_reports_activation_errors_and_leaves_it_inactive(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx, "create_object", type="cds_view", name="ZFAIL_VIEW", package="$TMP", description="x", source=CDS
    )
    assert outcome.is_error and "was created in $TMP but did not activate" in outcome.text
    assert "/sap/bc/adt/ddic/ddl/sources/zfail_view" in adt.objects and adt.locks == {}


@pytest.mark.parametrize(
    ("package", "transport", "message"),
    [
        ("SAP_BASIS", None, "package SAP_BASIS is not in the allowed packages"),
        ("ZPROD", None, "a transport request is required"),
    ],
)
async def test_create_object_follows_the_safety_policy(adt, tmp_path, package, transport, message) -> None:
    assert context(adt, tmp_path).registry.get("create_object") is None, "listed only with writes"
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx, "create_object", type="behavior_definition", name="ZR_X", package=package, description="x", source="x"
    )
    assert outcome.is_error and message in outcome.text
    assert adt.created == [] and adt.changes() == []


async def test_create_object_in_a_transportable_package(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "create_object",
        type="service_definition",
        name="ZUI_SALESORDER",
        package="ZPROD",
        description="Sales order service",
        source="define service ZUI_SALESORDER { expose ZI_SALESORDER; }\n",
        transport="DEVK900123",
    )
    assert out["transport"] == "DEVK900123"
    assert all(r.query.get("corrNr") == ["DEVK900123"] for r in adt.requests if r.method == "PUT")


async def test_system_messages_and_gateway_errors(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    messages = await ok(ctx, "list_system_messages")
    first = messages["results"][0]
    assert (first["title"], first["author"]) == ("Planned downtime", "BASISADMIN")
    assert first["text"] == "The system is down for the kernel upgrade on Saturday 08:00-12:00."
    errors = await ok(ctx, "get_gateway_errors", user="developer", limit=5)
    assert errors["results"][0]["title"] == "Frontend Error: No service found"
    assert "ZUI_SALESORDER_O4" in errors["results"][0]["text"] and errors["results"][0]["user"] == "DEVELOPER"
    assert adt.dump_queries[-1]["$query"] == ["and( equals( user, DEVELOPER ) )"] and adt.dump_queries[-1]["$top"] == [
        "5"
    ]
    adt.gateway = False
    missing = await call(ctx, "get_gateway_errors")
    assert missing.is_error and "no /sap/bc/adt/gw/errorlog feed" in missing.text and "SAP Gateway" in missing.text


def test_gateway_and_system_messages_are_not_offered_everywhere() -> None:
    from sap_devs.mcp.registry import Registry, discover

    cloud = Registry(discover(), environment="cloud", system=True).names()
    assert "get_gateway_errors" not in cloud and "list_system_messages" not in cloud and "list_dumps" in cloud


async def test_source_search_with_lines_and_a_regex(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "search_source", text="BAPI_USER_GET_DETAIL", package="zsales", object_type="clas", limit=5)
    query = adt.dump_queries[-1]
    assert (query["searchString"], query["searchToIndex"], query["packageName"], query["objectType"]) == (
        ["BAPI_USER_GET_DETAIL"],
        ["5"],
        ["ZSALES"],
        ["CLAS"],
    )
    first, second = out["results"]
    assert (first["name"], first["type"]) == ("ZCL_SAMPLE_CLASS", "CLAS/OC")
    assert first["lines"] == [
        "12: CALL FUNCTION 'BAPI_USER_GET_DETAIL'",
        '40: " calls BAPI_USER_GET_DETAIL once per user',
    ]
    assert second["lines"] == ["7: CALL FUNCTION 'BAPI_USER_GET_DETAIL' EXPORTING username = sy-uname"]
    calls = await ok(ctx, "search_source", text="BAPI_USER_GET_DETAIL", regex=r"call\s+function")
    assert [len(h["lines"]) for h in calls["results"]] == [1, 1]


async def test_source_search_where_the_system_has_none(adt, tmp_path) -> None:
    adt.source_search = False
    outcome = await call(context(adt, tmp_path), "search_source", text="BAPI_USER_GET_DETAIL")
    assert outcome.is_error and "no ABAP source code search" in outcome.text and "search_objects" in outcome.text
    bad = await call(context(adt, tmp_path), "search_source", text="x1", regex="(")
    assert bad.is_error and "regex is not valid" in bad.text


async def test_go_to_definition_in_saved_and_unsaved_source(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    source = "REPORT ztest_program.\nDATA(o) = NEW zcl_x( ).\no->zif_sample_interface~run( ).\n"
    out = await ok(ctx, "go_to_definition", name="ZTEST_PROGRAM", kind="program", line=3, column=24, source=source)
    assert out == {
        "found": True,
        "uri": "/sap/bc/adt/oo/interfaces/zif_sample_interface/source/main",
        "name": "RUN",
        "type": "INTF/OI",
        "line": 2,
        "column": 10,
    }
    uri, sent = adt.navigations[-1]
    assert uri == "/sap/bc/adt/programs/programs/ztest_program/source/main#start=3,24;end=3,24" and sent == source
    keyword = await ok(ctx, "go_to_definition", name="ZTEST_PROGRAM", kind="program", line=1, column=0)
    assert keyword["found"] is False and "No definition" in keyword["hint"]
    assert adt.navigations[-1][1] == "REPORT ztest_program.\nWRITE 'Hello'.\n", "the saved source is sent"


async def test_publish_and_unpublish_a_service_binding(adt, tmp_path) -> None:
    assert context(adt, tmp_path).registry.get("publish_service") is None, "listed only with writes"
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(ctx, "publish_service", name="ZSAPCLI_TEST_BND")
    assert out == {
        "binding": "ZSAPCLI_TEST_BND",
        "service": "ZSAPCLI_TEST_BND",
        "version": "0001",
        "published": True,
        "message": "Service published successfully",
    }
    path, _, body = adt.publish_jobs[-1]
    assert path == "/sap/bc/adt/businessservices/odatav4/publishjobs"
    assert 'adtcore:type="SCGR" adtcore:name="ZSAPCLI_TEST_BND"' in body
    back = await ok(ctx, "publish_service", name="ZSAPCLI_TEST_BND", unpublish=True)
    assert back["published"] is False and adt.publish_jobs[-1][0].endswith("/odatav4/unpublishjobs")
    adt.publish_fails = True
    failed = await call(ctx, "publish_service", name="ZSAPCLI_TEST_BND")
    assert failed.is_error and "Publishing ZSAPCLI_TEST_BND failed" in failed.text


async def test_publish_outside_the_allowed_packages_is_refused(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True, packages=("Z*",))
    outcome = await call(ctx, "publish_service", name="ZSAPCLI_TEST_BND")
    assert outcome.is_error and "package $TMP is not in the allowed packages" in outcome.text
    assert adt.publish_jobs == []


async def test_create_a_service_binding_activate_and_publish(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "create_service_binding",
        name="ZUI_SALESORDER_O4",
        package="$TMP",
        description="Sales orders UI",
        service_definition="zui_salesorder",
        publish=True,
    )
    assert out["uri"] == "/sap/bc/adt/businessservices/bindings/zui_salesorder_o4"
    assert (out["activated"], out["published"], out["message"]) == (True, True, "Service published successfully")
    body = adt.create_bodies[-1]
    assert 'srvb:type="ODATA" srvb:version="V4" srvb:category="0"' in body
    assert 'adtcore:type="SRVD/SRV" adtcore:name="ZUI_SALESORDER"' in body
    assert "zui_salesorder_o4" in adt.activated[-1]
    assert adt.publish_jobs[-1][0] == "/sap/bc/adt/businessservices/odatav4/publishjobs"
    read = await ok(ctx, "get_service_binding", name="ZUI_SALESORDER_O4")
    assert read["services"][0]["service_definition"] == "ZUI_SALESORDER"


async def test_service_binding_creation_follows_the_policy(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    outcome = await call(
        ctx,
        "create_service_binding",
        name="ZUI_X_O2",
        package="SAP_BASIS",
        description="x",
        service_definition="ZUI_X",
        binding="odata_v2_web_api",
    )
    assert outcome.is_error and "not in the allowed packages" in outcome.text and adt.created == []


async def test_create_data_element_with_a_predefined_type(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "create_data_element",
        name="ZSALES_ORDER_NO",
        package="$TMP",
        description="Sales order number",
        data_type="NUMC",
        length=10,
        label="Sales Order Number",
    )
    uri = "/sap/bc/adt/ddic/dataelements/zsales_order_no"
    assert out == {"name": "ZSALES_ORDER_NO", "uri": uri, "package": "$TMP", "activated": True}
    created = adt.create_bodies[-1]
    assert "<dtel:typeKind/>" in created, "created empty, as sapcli does, then defined under the lock"
    written = adt.objects[uri].metadata.decode()
    assert "<dtel:typeKind>predefinedAbapType</dtel:typeKind>" in written
    assert "<dtel:dataType>NUMC</dtel:dataType><dtel:dataTypeLength>000010</dtel:dataTypeLength>" in written
    assert "<dtel:shortFieldLabel>Sales Orde</dtel:shortFieldLabel>" in written
    assert "<dtel:longFieldLabel>Sales Order Number</dtel:longFieldLabel>" in written
    assert adt.locks == {} and "zsales_order_no" in adt.activated[-1]
    read = await ok(ctx, "get_data_element", name="ZSALES_ORDER_NO")
    assert read["properties"]["dataType"] == "NUMC"


async def test_create_data_element_on_a_domain_and_the_rules(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    await ok(
        ctx, "create_data_element", name="ZAUTH_GROUP", package="$TMP", description="x", domain="begrm", label="Group"
    )
    assert "<dtel:typeKind>domain</dtel:typeKind><dtel:typeName>BEGRM</dtel:typeName>" in (
        adt.objects["/sap/bc/adt/ddic/dataelements/zauth_group"].metadata.decode()
    )
    both = await call(
        ctx,
        "create_data_element",
        name="ZX",
        package="$TMP",
        description="x",
        domain="BEGRM",
        data_type="CHAR",
        label="x",
    )
    assert both.is_error and "either domain or data_type" in both.text.lower()
    refused = await call(
        ctx, "create_data_element", name="ZX", package="ZPROD", description="x", data_type="CHAR", length=4, label="x"
    )
    assert refused.is_error and "a transport request is required" in refused.text


async def test_ddic_definition_writes_recheck_the_package_under_the_lock(adt, tmp_path) -> None:
    from sap_devs.adt.write import write_metadata

    uri = "/sap/bc/adt/ddic/dataelements/zsales_order_id"
    before = adt.objects[uri].metadata
    ctx = context(adt, tmp_path, writes=True, packages=("$TMP", "Z*", "PACKAGE"))  # the recording's package
    adt.moves_at_lock[uri] = "SAP_BASIS_CORE"
    with pytest.raises(Exception, match="Refused after locking ZSALES_ORDER_ID"):
        await write_metadata(
            ctx.adt(),
            ctx.policy(),
            "data_element",
            "ZSALES_ORDER_ID",
            "<x/>",
            content_type="application/xml",
            transport="DEVK900123",
        )
    assert adt.locks == {} and not [r for r in adt.requests if r.method == "PUT"]
    assert b"<x/>" not in adt.objects[uri].metadata and adt.objects[uri].metadata != b""
    off = context(adt, tmp_path, writes=False)
    with pytest.raises(Exception, match="ABAP writes are off"):
        await write_metadata(
            off.adt(), off.policy(), "data_element", "ZSALES_ORDER_ID", "<x/>", content_type="application/xml"
        )
    assert before is not None


async def test_create_domain_with_fixed_values(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(
        ctx,
        "create_domain",
        name="ZORDER_STATUS",
        package="$TMP",
        description="Order status",
        data_type="CHAR",
        length=1,
        fixed_values=[{"value": "O", "text": "Open"}, {"value": "C", "text": "Closed & done"}],
    )
    uri = "/sap/bc/adt/ddic/domains/zorder_status"
    assert out == {"name": "ZORDER_STATUS", "uri": uri, "package": "$TMP", "activated": True}
    assert "<doma:content>" not in adt.create_bodies[-1], "created bare, then defined under the lock"
    written = adt.objects[uri].metadata.decode()
    assert "<doma:datatype>CHAR</doma:datatype><doma:length>000001</doma:length>" in written
    assert "<doma:low>C</doma:low><doma:high/><doma:text>Closed &amp; done</doma:text>" in written
    assert adt.locks == {} and "zorder_status" in adt.activated[-1]
    read = await ok(ctx, "get_domain", name="ZORDER_STATUS")
    assert read["properties"]["datatype"] == "CHAR" and len(read["fixed_values"]) == 2
    refused = await call(
        ctx, "create_domain", name="ZX", package="SAP_BASIS", description="x", data_type="CHAR", length=1
    )
    assert refused.is_error and "not in the allowed packages" in refused.text
