"""The tools issue 26 added, against the fake ADT server over real HTTP: console classes, class
includes, function groups and modules, transport checks, the pretty printer, code completion,
element info, F1 documentation and quick fixes, each under the safety policy."""

from __future__ import annotations

from typing import Any

import pytest

from sap_devs.adt.config import AdtConfig
from sap_devs.adt.safety import SafetyPolicy
from sap_devs.mcp.dispatch import Outcome, invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry, discover
from tests.conftest import bundled_layer
from tests.fake_adt import FakeAdt, Obj, generated_metadata
from tests.fake_adt_more import more_state

pytestmark = pytest.mark.anyio
ALL = discover()
CLASS = "/sap/bc/adt/oo/classes/zcl_sample_class"
PROGRAM = "/sap/bc/adt/programs/programs/ztest_program"


@pytest.fixture
def adt():
    with FakeAdt().running() as fake:
        yield fake


def context(
    adt: FakeAdt, tmp_path, *, writes: bool = False, listed_execute: bool | None = None, **policy: Any
) -> ToolContext:
    """A context whose registry and policy agree, unless ``listed_execute`` says what the registry was
    built with (the server started with the execute switch, the policy at call time says otherwise)."""
    config = AdtConfig(url=adt.url, client="100", user="DEVELOPER", password="S3cret-Passw0rd!", timeout=2.0)
    execute = policy.get("execute", False) if listed_execute is None else listed_execute
    registry = Registry(ALL, system=True, writes=writes, execute=execute)
    return ToolContext(
        cwd=tmp_path,
        layers=[bundled_layer()],
        adt_config=config,
        safety=SafetyPolicy(writes=writes, **policy),
        registry=registry,
    )


async def call(ctx: ToolContext, name: str, /, **args: Any) -> Outcome:
    tool = ctx.registry.get(name)
    assert tool is not None, f"{name} is not registered"
    return await invoke(tool, args, ctx)


async def ok(ctx: ToolContext, name: str, /, **args: Any) -> dict[str, Any]:
    outcome = await call(ctx, name, **args)
    assert not outcome.is_error, outcome.text
    return outcome.structured or {}


def add_class(adt: FakeAdt, name: str, source: str, package: str = "$TMP") -> str:
    uri = f"/sap/bc/adt/oo/classes/{name.lower()}"
    meta = generated_metadata("class:abapClass", "http://www.sap.com/adt/oo/classes", name, "CLAS/OC", package, "x")
    adt.objects[uri] = Obj(uri, name, "CLAS/OC", package, ("application/vnd.sap.adt.oo.classes.v4+xml",), meta, source)
    return uri


CONSOLE = """CLASS zcl_demo_run DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES if_oo_adt_classrun.
ENDCLASS.
CLASS zcl_demo_run IMPLEMENTATION.
  METHOD if_oo_adt_classrun~main.
    out->write( 'Hello from ABAP' ).
    out->write( |Second line| ).
  ENDMETHOD.
ENDCLASS.
"""


# -- run_console_class ---------------------------------------------------------------------------


async def test_console_class_runs_only_with_the_execute_opt_in(adt, tmp_path) -> None:
    add_class(adt, "ZCL_DEMO_RUN", CONSOLE)
    assert context(adt, tmp_path).registry.get("run_console_class") is None, "hidden without writes"
    assert "run_console_class" not in context(adt, tmp_path, writes=True).registry, "hidden without the switch"
    # listed at start, but the policy at call time has execution off: refused before any request
    stale = context(adt, tmp_path, writes=True, listed_execute=True)
    assert "run_console_class" in stale.registry
    refused = await call(stale, "run_console_class", name="ZCL_DEMO_RUN")
    assert refused.is_error and "SAP_DEVS_ADT_EXECUTE=1" in refused.text
    assert more_state(adt).runs == [] and not any("classrun" in r.path for r in adt.requests)
    out = await ok(context(adt, tmp_path, writes=True, execute=True), "run_console_class", name="zcl_demo_run")
    assert out["output"] == "Hello from ABAP\nSecond line\n" and out["truncated"] is False
    assert more_state(adt).runs == ["ZCL_DEMO_RUN"]


async def test_console_class_outside_the_allowed_packages_or_without_the_interface(adt, tmp_path) -> None:
    add_class(adt, "ZCL_PROD_RUN", CONSOLE, package="SAPDEMO")
    ctx = context(adt, tmp_path, writes=True, execute=True)
    refused = await call(
        ctx,
        "run_console_class",
        name="ZCL_PROD_RUN",
    )
    assert refused.is_error and "package SAPDEMO is not in the allowed packages" in refused.text
    ctx = context(adt, tmp_path, writes=True, execute=True, packages=("SAPDEMO", "$TMP"))
    plain = await call(ctx, "run_console_class", name="ZCL_SAMPLE_CLASS")
    assert (
        plain.is_error
        and "does not implement IF_OO_ADT_CLASSRUN" in plain.text
        and "if_oo_adt_classrun~main" in plain.text
    )
    assert more_state(adt).runs == []


# -- write_class_include ---------------------------------------------------------------------------


TESTS = """CLASS ltc_sample DEFINITION FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS first_test FOR TESTING.
ENDCLASS.
CLASS ltc_sample IMPLEMENTATION.
  METHOD first_test.
  ENDMETHOD.
ENDCLASS.
"""


async def test_test_classes_are_created_when_missing_and_written_under_the_class_lock(adt, tmp_path) -> None:
    del adt.objects[CLASS].includes["testclasses"]
    ctx = context(adt, tmp_path, writes=True)
    out = await ok(ctx, "write_class_include", name="ZCL_SAMPLE_CLASS", include="testclasses", source=TESTS)
    assert out["created"] is True and out["unlocked"] is True and out["lines_after"] == 8
    assert adt.objects[CLASS].includes["testclasses"] == TESTS and adt.locks == {}
    steps = [(r.method, r.path.rsplit("/", 2)[-2:], r.query.get("_action")) for r in adt.requests if r.method != "GET"]
    assert steps[-4:] == [
        ("POST", ["classes", "zcl_sample_class"], ["LOCK"]),
        ("POST", ["zcl_sample_class", "includes"], None),
        ("PUT", ["includes", "testclasses"], None),
        ("POST", ["classes", "zcl_sample_class"], ["UNLOCK"]),
    ]
    again = await ok(ctx, "write_class_include", name="ZCL_SAMPLE_CLASS", include="testclasses", source=TESTS + "\n")
    assert again["created"] is False and again["lines_before"] == 8
    read = await ok(ctx, "get_class", name="ZCL_SAMPLE_CLASS")
    assert "ltc_sample" in read["local_includes"]["testclasses"]


async def test_class_include_writes_are_refused_outside_the_policy(adt, tmp_path) -> None:
    assert context(adt, tmp_path).registry.get("write_class_include") is None
    adt.objects[CLASS].move_to("ZOTHER")
    refused = await call(
        context(adt, tmp_path, writes=True),
        "write_class_include",
        name="ZCL_SAMPLE_CLASS",
        include="definitions",
        source="* x",
    )
    assert refused.is_error and "ZOTHER" in refused.text and adt.changes() == []


async def test_a_transportable_class_include_needs_a_transport_and_records_it(adt, tmp_path) -> None:
    adt.objects[CLASS].move_to("ZSALES")
    del adt.objects[CLASS].includes["testclasses"]
    ctx = context(adt, tmp_path, writes=True)
    refused = await call(ctx, "write_class_include", name="ZCL_SAMPLE_CLASS", include="testclasses", source=TESTS)
    assert refused.is_error and "transport request is required" in refused.text and adt.changes() == []
    out = await ok(
        ctx, "write_class_include", name="ZCL_SAMPLE_CLASS", include="testclasses", source=TESTS, transport="DEVK900123"
    )
    assert out["transport"] == "DEVK900123" and out["created"] is True
    written = [r for r in adt.requests if "/includes" in r.path and r.method in ("POST", "PUT")]
    assert [r.query.get("corrNr") for r in written] == [["DEVK900123"], ["DEVK900123"]]


# -- function groups and modules -------------------------------------------------------------------


FM = """FUNCTION z_get_price
  IMPORTING
    VALUE(iv_id) TYPE i
  EXPORTING
    VALUE(ev_price) TYPE p.
  ev_price = iv_id * 2.
ENDFUNCTION.
"""


async def test_function_group_and_module_are_created_read_and_written(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True)
    group = await ok(ctx, "create_function_group", name="ZFG_PRICES", package="$TMP", description="Prices")
    assert group["uri"] == "/sap/bc/adt/functions/groups/zfg_prices"
    assert (
        'adtcore:type="FUGR/F"' in adt.create_bodies[-1] and 'adtcore:responsible="DEVELOPER"' in adt.create_bodies[-1]
    )
    module = await ok(
        ctx, "create_function_module", name="Z_GET_PRICE", function_group="ZFG_PRICES", description="Price", source=FM
    )
    assert module["package"] == "$TMP" and module["uri"].endswith("/zfg_prices/fmodules/z_get_price")
    assert 'adtcore:containerRef adtcore:name="ZFG_PRICES"' in adt.create_bodies[-1]
    read = await ok(ctx, "get_function_module", name="Z_GET_PRICE", function_group="ZFG_PRICES", version="inactive")
    assert "ev_price = iv_id * 2." in read["source"]  # saved, not yet activated
    changed = FM.replace("* 2", "* 3")
    out = await ok(ctx, "write_function_module", name="Z_GET_PRICE", function_group="ZFG_PRICES", source=changed)
    assert out["unlocked"] is True and out["lines_before"] == 7 and adt.locks == {}
    assert "* 3" in adt.objects["/sap/bc/adt/functions/groups/zfg_prices/fmodules/z_get_price"].inactive


async def test_function_creates_check_names_packages_and_transports_first(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, writes=True, packages=("$TMP", "Z*"))
    long_name = await call(ctx, "create_function_group", name="ZFG_" + "X" * 23, package="$TMP", description="x")
    assert long_name.is_error and "at most 26" in long_name.text
    no_tr = await call(ctx, "create_function_group", name="ZFG_PROD", package="ZPROD", description="x")
    assert no_tr.is_error and "transport request is required" in no_tr.text
    sap = await call(ctx, "create_function_module", name="BAPI_X", function_group="ZFG_HELLO_WORLD", description="x")
    assert sap.is_error and "not a customer name" in sap.text
    assert adt.created == []
    made = await ok(
        ctx, "create_function_group", name="ZFG_PROD", package="ZPROD", description="x", transport="DEVK900123"
    )
    assert made["transport"] == "DEVK900123"
    assert [r.query.get("corrNr") for r in adt.requests if r.method == "POST"][-1] == ["DEVK900123"]


# -- check_transport -------------------------------------------------------------------------------


async def test_transport_check_says_what_a_change_needs(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    local = await ok(ctx, "check_transport", name="ZTEST_PROGRAM", kind="program")
    assert local["transport_required"] is False and local["package"] == "$TMP" and "no transport" in local["hint"]
    prod = await ok(ctx, "check_transport", name="ZPROD_REPORT", kind="program")
    assert prod["transport_required"] is True and prod.get("locked_in") is None
    assert [r["number"] for r in prod["requests"]] == ["DEVK900123"] and prod["requests"][0]["owner"] == "DEVELOPER"
    adt.locked_by_other.add("/sap/bc/adt/programs/programs/zprod_report")
    held = await ok(ctx, "check_transport", name="ZPROD_REPORT", kind="program")
    assert held["locked_in"]["number"] == "DEVK900200" and held["locked_in"]["owner"] == "OTHERUSER"
    assert held["locked_in"]["tasks"][0]["number"] == "DEVK900201" and "OTHERUSER" in held["hint"]
    new = await ok(ctx, "check_transport", name="ZNEW_REPORT", kind="program", package="ZPROD")
    assert new["transport_required"] is True and new["package"] == "ZPROD"
    assert "<DEVCLASS>ZPROD</DEVCLASS>" in more_state(adt).transport_checks[-1]
    missing = await ok(ctx, "check_transport", name="ZNOPE", kind="program")
    assert missing["messages"][0]["severity"] == "E" and "would fail" in missing["hint"]
    assert adt.changes() == []


# -- format_source -----------------------------------------------------------------------------


UNFORMATTED = "report zhello.\ndata lv_x type i.\nif lv_x = 1.\nwrite 'one'.\nendif.\n"


async def test_pretty_printer_uses_the_system_settings_and_saves_nothing(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    out = await ok(ctx, "format_source", source=UNFORMATTED)
    assert out["source"] == "REPORT zhello.\nDATA lv_x type i.\nIF lv_x = 1.\n  WRITE 'one'.\nENDIF.\n"
    assert out["changed"] is True and out["indentation"] is True and out["style"] == "keywordUpper"
    more_state(adt).pretty_settings = False  # an older release: formatting still works
    more_state(adt).pretty_style = "none"
    older = await ok(ctx, "format_source", name="ZTEST_PROGRAM", kind="program")
    assert "indentation" not in older and older["changed"] is False and "Already formatted" in older["hint"]
    assert adt.changes() == []
    neither = await call(ctx, "format_source")
    assert neither.is_error and "Give source" in neither.text


# -- completion, element info, F1 ---------------------------------------------------------------


CODE = (
    "REPORT zhello.\nDATA lv_total TYPE i.\nDATA lo_run TYPE REF TO zif_sample_interface.\nlv_to\nLOOP AT x INTO y.\n"
)


async def test_code_completion_element_info_and_keyword_docs(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    where = {"name": "ZTEST_PROGRAM", "kind": "program", "source": CODE}
    done = await ok(ctx, "complete_code", **where, line=4, column=5)
    assert [r["identifier"] for r in done["results"]] == ["lv_total"]
    info = await ok(ctx, "get_element_info", **where, line=3, column=30)
    assert info["name"] == "ZIF_SAMPLE_INTERFACE" and info["type"] == "INTF/OI"
    assert [c["name"] for c in info["components"]] == ["RUN"]
    var = await ok(ctx, "get_element_info", **where, line=2, column=7)
    assert var["type"] == "variable" and var["documentation"] == "TYPE I"
    docs = await ok(ctx, "get_keyword_docs", **where, line=5, column=1)
    assert docs["text"].startswith("LOOP\n\nLOOP AT itab: reads the lines") and "<" not in docs["text"]
    unknown = await call(ctx, "get_keyword_docs", **where, line=4, column=2)
    assert unknown.is_error and "No documentation" in unknown.text
    past = await call(ctx, "complete_code", **where, line=40, column=0)
    assert past.is_error and "past the end" in past.text
    cursors = [r.query["uri"][0] for r in adt.requests if "uri" in r.query]
    assert cursors[:2] == [f"{PROGRAM}/source/main#start=4,5", f"{PROGRAM}/source/main#start=3,30"]


# -- quick fixes ---------------------------------------------------------------------------------


BROKEN = "REPORT ztest_program.\nSTART-OF-SELECTION.\n  lv_count = 1.\n  WRITE lv_count.\n"


async def test_quick_fix_proposals_and_applying_one_saves_the_fixed_source(adt, tmp_path) -> None:
    adt.objects[PROGRAM].source = BROKEN
    reader = context(adt, tmp_path)
    assert reader.registry.get("apply_quick_fix") is None, "applying writes: hidden without writes"
    found = await ok(reader, "get_quick_fixes", name="ZTEST_PROGRAM", kind="program", line=3, column=4)
    assert found["fixes"] == [
        {"number": 1, "name": "Declare local variable", "description": "Declare local variable lv_count"}
    ]
    none = await ok(reader, "get_quick_fixes", name="ZTEST_PROGRAM", kind="program", line=1, column=2)
    assert none["count"] == 0 and "No quick fix" in none["hint"]
    ctx = context(adt, tmp_path, writes=True)
    wrong = await call(ctx, "apply_quick_fix", name="ZTEST_PROGRAM", kind="program", line=3, column=4, fix=2)
    assert wrong.is_error and "no number 2" in wrong.text and adt.changes() == []
    out = await ok(ctx, "apply_quick_fix", name="ZTEST_PROGRAM", kind="program", line=3, column=4, fix=1)
    assert out["applied"] == "Declare local variable lv_count" and out["unlocked"] is True and out["lines_after"] == 5
    assert adt.objects[PROGRAM].inactive == (  # saved as the inactive version, as a real system keeps it
        "REPORT ztest_program.\nSTART-OF-SELECTION.\n  DATA lv_count TYPE string.\n  lv_count = 1.\n  WRITE lv_count.\n"
    )
    assert "DECLARE:lv_count:3" in more_state(adt).fix_requests[-1], "the proposal's user content went back"
    assert adt.locks == {}


async def test_a_fix_for_another_object_is_refused_whole() -> None:
    from sap_devs.adt.errors import AdtError
    from sap_devs.adt.quickfix import Delta, apply_deltas

    mine = f"{PROGRAM}/source/main"
    text = "a\nb\n"
    assert apply_deltas(text, [Delta(mine, (2, 0), (2, 1), "B")], mine) == "a\nB\n"
    with pytest.raises(AdtError, match="also changes /sap/bc/adt/oo/classes/zcl_other"):
        apply_deltas(
            text,
            [
                Delta(mine, (1, 0), (1, 0), "x"),
                Delta("/sap/bc/adt/oo/classes/zcl_other/source/main", (1, 0), (1, 0), "y"),
            ],
            mine,
        )


def test_the_execute_opt_in_comes_from_the_environment_and_needs_writes() -> None:
    from sap_devs.adt.safety import PolicyError

    assert SafetyPolicy.from_env({"SAP_DEVS_ADT_EXECUTE": "1"}).execute is True
    assert SafetyPolicy.from_env({}).execute is False
    alone = SafetyPolicy.from_env({"SAP_DEVS_ADT_EXECUTE": "1"})  # writes off: running stays refused
    with pytest.raises(PolicyError, match="executing code on the system is off"):
        alone.check_execute("$TMP", "ZCL_DEMO_RUN")
    SafetyPolicy.from_env({"SAP_DEVS_ADT_EXECUTE": "1", "SAP_DEVS_ADT_WRITE": "1"}).check_execute("$TMP", "ZCL_X")


# -- the editor tools on function modules and class includes, and fixes to unsaved source --------


FMOD = "/sap/bc/adt/functions/groups/zfg_hello_world/fmodules/z_fn_hello_world"
FM_CODE = "FUNCTION z_fn_hello_world.\n  lv_greeting = 'Hello'.\n  WRITE lv_greeting.\nENDFUNCTION.\n"
IN_FM = {"name": "Z_FN_HELLO_WORLD", "kind": "function_module"}  # its group is looked up


def cursors(adt: FakeAdt) -> list[str]:
    return [r.query["uri"][0] for r in adt.requests if "uri" in r.query]


async def test_editor_tools_address_a_function_module_under_its_group(adt, tmp_path) -> None:
    adt.objects[FMOD].source = FM_CODE
    # the recorded module names its package only on the group's containerRef ($TEST)
    ctx = context(adt, tmp_path, writes=True, packages=("$TMP", "$TEST"))
    done = await ok(ctx, "complete_code", **IN_FM, line=3, column=10)
    assert [r["identifier"] for r in done["results"]] == ["lv_greeting"], "completion saw the saved module"
    docs = await ok(ctx, "get_keyword_docs", **IN_FM, line=3, column=3)
    assert docs["text"].startswith("WRITE")
    fixes = await ok(ctx, "get_quick_fixes", **IN_FM, line=2, column=4)
    assert [f["description"] for f in fixes["fixes"]] == ["Declare local variable lv_greeting"]
    assert cursors(adt) == [
        f"{FMOD}/source/main#start=3,10",
        f"{FMOD}/source/main#start=3,3",
        f"{FMOD}/source/main#start=2,4",
    ], "the source URI of a function module, as ADT's editor addresses it"
    with_info = FM_CODE.replace("FUNCTION z_fn_hello_world.\n", "FUNCTION z_fn_hello_world.\n  DATA lv_n TYPE i.\n")
    info = await ok(ctx, "get_element_info", **IN_FM, source=with_info, line=2, column=8)
    assert info["type"] == "variable" and info["documentation"] == "TYPE I"
    fixed = await ok(ctx, "apply_quick_fix", **IN_FM, line=2, column=4, fix=1)
    assert fixed["applied"] == "Declare local variable lv_greeting" and fixed["unlocked"] is True and adt.locks == {}
    assert adt.objects[FMOD].inactive == FM_CODE.replace("  lv_", "  DATA lv_greeting TYPE string.\n  lv_", 1)
    formatted = await ok(ctx, "format_source", **IN_FM)
    assert formatted["source"].startswith("FUNCTION z_fn_hello_world.\n  DATA lv_greeting TYPE string.")
    written = await ok(
        ctx, "write_function_module", name="Z_FN_HELLO_WORLD", function_group="ZFG_HELLO_WORLD", source=FM_CODE
    )
    assert written["package"] == "$TEST", "the package read from the containerRef"


async def test_an_unknown_function_module_or_an_include_of_no_class_is_a_clear_error(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path)
    unknown = await call(ctx, "complete_code", name="Z_FN_NOPE", kind="function_module", source="x", line=1, column=0)
    assert unknown.is_error and "no function module Z_FN_NOPE" in unknown.text and "search_objects" in unknown.text
    include = await call(
        ctx, "get_element_info", name="ZTEST_PROGRAM", kind="program", include="testclasses", line=1, column=0
    )
    assert include.is_error and "Only classes have local includes" in include.text
    gone = await call(ctx, "get_keyword_docs", name="ZTEST_GONE", kind="program", source="WRITE x.", line=1, column=1)
    assert gone.is_error and "does not exist" in gone.text, "the system refuses a source it cannot find"
    assert adt.changes() == []


async def test_a_function_modules_group_is_found_by_its_uri_in_the_repository_search(adt, tmp_path) -> None:
    from sap_devs.adt.client import AdtClient
    from sap_devs.adt.functions import function_group_of

    config = AdtConfig(url=adt.url, client="100", user="DEVELOPER", password="S3cret-Passw0rd!", timeout=2.0)
    async with AdtClient(config) as client:
        assert await function_group_of(client, "z_fn_hello_world") == "ZFG_HELLO_WORLD"
    search = [r for r in adt.requests if r.path.endswith("/informationsystem/search")][-1]
    assert search.query["objectType"] == ["FUGR"] and search.query["query"] == ["Z_FN_HELLO_WORLD"]


TEST_BROKEN = """CLASS ltc_sample DEFINITION FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS first_test FOR TESTING.
ENDCLASS.
CLASS ltc_sample IMPLEMENTATION.
  METHOD first_test.
    lv_result = 2.
  ENDMETHOD.
ENDCLASS.
"""


async def test_editor_tools_address_a_class_include_and_fixes_save_the_include(adt, tmp_path) -> None:
    adt.objects[CLASS].includes["testclasses"] = TEST_BROKEN
    main_before = adt.objects[CLASS].source
    ctx = context(adt, tmp_path, writes=True)
    where = {"name": "ZCL_SAMPLE_CLASS", "kind": "class", "include": "testclasses"}
    fixes = await ok(ctx, "get_quick_fixes", **where, line=7, column=6)
    assert [f["description"] for f in fixes["fixes"]] == ["Declare local variable lv_result"]
    docs = await ok(ctx, "get_keyword_docs", **where, line=6, column=3)
    assert docs["text"].startswith("METHOD")
    assert cursors(adt) == [f"{CLASS}/includes/testclasses#start=7,6", f"{CLASS}/includes/testclasses#start=6,3"]
    out = await ok(ctx, "apply_quick_fix", **where, line=7, column=6, fix=1)
    assert out["unlocked"] is True and adt.locks == {}
    assert adt.objects[CLASS].includes["testclasses"] == TEST_BROKEN.replace(
        "    lv_result", "    DATA lv_result TYPE string.\n    lv_result"
    )
    assert adt.objects[CLASS].source == main_before and adt.objects[CLASS].inactive is None, "main source untouched"
    formatted = await ok(ctx, "format_source", name="ZCL_SAMPLE_CLASS", kind="class", include="definitions")
    assert formatted["source"] == "* local types\n"
    adt.objects[CLASS].includes.pop("macros", None)
    missing = await call(
        ctx, "complete_code", name="ZCL_SAMPLE_CLASS", kind="class", include="macros", line=1, column=0
    )
    assert missing.is_error and "has no macros include" in missing.text


async def test_a_quick_fix_applies_to_the_unsaved_source_passed_in(adt, tmp_path) -> None:
    """The fix is evaluated and applied on the text the agent passes (its unsaved editor content),
    as ADT sends the editor's text in both requests; that text with the fix is what gets saved."""
    adt.objects[PROGRAM].source = "REPORT ztest_program.\nWRITE 'saved'.\n"
    ctx = context(adt, tmp_path, writes=True)
    saved = await ok(ctx, "get_quick_fixes", name="ZTEST_PROGRAM", kind="program", line=2, column=7)
    assert saved["count"] == 0, "the saved source has nothing to fix"
    fixes = await ok(ctx, "get_quick_fixes", name="ZTEST_PROGRAM", kind="program", source=BROKEN, line=3, column=4)
    assert fixes["count"] == 1, "the proposals were evaluated on the passed text"
    out = await ok(ctx, "apply_quick_fix", name="ZTEST_PROGRAM", kind="program", source=BROKEN, line=3, column=4, fix=1)
    assert out["lines_after"] == 5 and out["unlocked"] is True
    assert adt.objects[PROGRAM].inactive == BROKEN.replace(
        "  lv_count = 1.", "  DATA lv_count TYPE string.\n  lv_count = 1."
    )
    assert "lv_count = 1." in more_state(adt).fix_requests[-1], "the fix was computed on the passed text"
