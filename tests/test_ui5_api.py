"""get_ui5_api and the UI5 API data: agreement with SAP's own .d.ts, lookup, members, search, the
SAPUI5 libraries of a project's @sapui5/types, and hostile declaration files."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from sap_devs.knowledge.ui5_api import catalog, dts, reader
from tests.sap_tools import sap_tool_path
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio

FIXTURE = Path(__file__).parent / "fixtures" / "sapui5-types"


def sym(name: str) -> dict[str, Any]:
    found = catalog.bundled().catalog.by_name.get(name.lower())
    assert found is not None, f"{name} is not in the bundled data"
    return found


def named(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(i for i in items if i["name"] == name)


# -- the bundled data ---------------------------------------------------------------------------


def test_bundled_data_names_its_source_and_every_openui5_library() -> None:
    data = json.loads(gzip.decompress(catalog.BUNDLED_PATH.read_bytes()))
    assert data["source"] == {"package": "@openui5/types", "version": "1.152.0", "license": "Apache-2.0"}
    assert {"sap.m", "sap.ui.core", "sap.f", "sap.ui.table", "sap.uxap", "sap.tnt"} <= set(data["libraries"])
    assert not any(lib.startswith(("sap.fe", "sap.suite", "sap.ui.comp")) for lib in data["libraries"])


def test_button_kind_module_parent_properties_and_events() -> None:
    button = sym("sap.m.Button")
    assert (button["kind"], button["module"], button["library"]) == ("class", "sap/m/Button", "sap.m")
    assert button["extends"] == "sap.ui.core.Control"
    text = named(button["properties"], "text")
    assert (text["type"], text["default"]) == ("string", "")
    assert named(button["properties"], "type") | {} == named(button["properties"], "type")
    assert named(button["properties"], "type")["type"] == "sap.m.ButtonType"
    assert named(button["properties"], "type")["default"] == "Default"
    assert named(button["associations"], "ariaLabelledBy")["cardinality"] == "0..n"
    tap = named(button["events"], "tap")
    assert tap["deprecated"] == {"since": "1.20", "text": "replaced by `press` event"}
    assert "deprecated" not in named(button["events"], "press")


def test_growing_list_settings_aggregations_and_event_parameters() -> None:
    list_base = sym("sap.m.ListBase")
    growing = named(list_base["properties"], "growing")
    assert (growing["type"], growing["default"], growing["since"]) == ("boolean", "false", "1.16.0")
    assert named(list_base["properties"], "growingThreshold")["default"] == "20"
    items = named(list_base["aggregations"], "items")
    assert (items["type"], items["cardinality"], items["bindable"]) == ("sap.m.ListItemBase", "0..n", True)
    assert named(list_base["aggregations"], "headerToolbar")["cardinality"] == "0..1"
    change = named(list_base["events"], "selectionChange")
    assert [p["name"] for p in change["parameters"]] == ["listItem", "listItems", "selected", "selectAll"]
    assert named(change["parameters"], "listItems")["type"] == "sap.m.ListItemBase[]"
    assert sym("sap.m.Table")["extends"] == "sap.m.ListBase"


def test_date_range_selection_control_enum_and_deprecated_control() -> None:
    drs = sym("sap.m.DateRangeSelection")
    assert (drs["extends"], drs["since"]) == ("sap.m.DatePicker", "1.22.0")
    assert named(drs["properties"], "from")["deprecated"]["since"] == "1.22.0"
    control = sym("sap.ui.core.Control")
    assert control["extends"] == "sap.ui.core.Element" and control.get("abstract") is True
    add = named(control["methods"], "addStyleClass")
    assert add["signatures"] == ["addStyleClass(sStyleClass: string): this"]
    assert [v["name"] for v in sym("sap.m.ButtonType")["values"]][:3] == ["Accept", "Attention", "Back"]
    old = sym("sap.ui.commons.Button")
    assert old["deprecated"] == {"since": "1.38", "text": "replaced by sap.m.Button"}


# -- agreement with the real .d.ts, read at test time -----------------------------------------------


@pytest.fixture(scope="module")
def openui5_types() -> Path:
    return sap_tool_path("@openui5/types") / "types"


def _block(text: str, opener: str) -> str:
    """The text from ``opener`` to its closing brace: the first later line holding only ``}`` at the
    opener's indentation (the files are prettier-formatted; independent of the parser under test)."""
    start = text.index(opener)
    line_start = text.rindex("\n", 0, start) + 1
    indent = text[line_start:start]
    end = re.compile("^" + re.escape(indent) + r"\}", re.M).search(text, start)
    assert end is not None
    return text[start : end.end()]


def _setting_names(settings_block: str) -> list[str]:
    return re.findall(r"^    (\w+)\?:", settings_block, re.M)


def test_button_and_list_base_agree_with_the_dts(openui5_types: Path) -> None:
    text = (openui5_types / "sap.m.d.ts").read_text(encoding="utf-8")
    for control, module in (("Button", "sap/m/Button"), ("ListBase", "sap/m/ListBase"), ("Table", "sap/m/Table")):
        module_text = _block(text, f'declare module "{module}"')
        expected = _setting_names(_block(module_text, f"export interface ${control}Settings"))
        data = sym(f"sap.m.{control}")
        got = [m["name"] for g in ("properties", "aggregations", "associations", "events") for m in data.get(g, [])]
        assert sorted(got) == sorted(expected), control
        for prop in data.get("properties", []):  # the generated getter's "Default value is `X`."
            getter = re.search(
                r"/\*\*((?:(?!\*/).)*?)\*/\s*get" + prop["name"][0].upper() + prop["name"][1:] + r"\(\)",
                module_text,
                re.S,
            )
            assert getter is not None, prop["name"]
            default = re.findall(r"Default value is `([^`]*)`", getter.group(1))
            expected_default = ("" if default[-1] == "empty string" else default[-1]) if default else None
            assert prop.get("default") == expected_default, (control, prop["name"])
    params_block = _block(text, "export interface ListBase$SelectionChangeEventParameters")
    expected_params = re.findall(r"^    (\w+)\?:", params_block, re.M)
    got_params = [p["name"] for p in named(sym("sap.m.ListBase")["events"], "selectionChange")["parameters"]]
    assert got_params == expected_params


def test_enum_deprecation_and_signature_agree_with_the_dts(openui5_types: Path) -> None:
    m_text = (openui5_types / "sap.m.d.ts").read_text(encoding="utf-8")
    enum_block = _block(m_text, "export enum ButtonType {")
    assert [v["name"] for v in sym("sap.m.ButtonType")["values"]] == re.findall(r"^    (\w+) = ", enum_block, re.M)
    commons = (openui5_types / "sap.ui.commons.d.ts").read_text(encoding="utf-8")
    module = _block(commons, 'declare module "sap/ui/commons/Button"')
    doc = module[: module.index("export default class Button")]
    since, replacement = re.search(r"@deprecated As of version ([\d.]+)\. (.+)", doc).groups()  # type: ignore[union-attr]
    replacement = re.sub(r"\{@link ([^ }]+)\}", r"\1", replacement).strip()  # links shown as their target
    assert sym("sap.ui.commons.Button")["deprecated"] == {"since": since, "text": replacement}
    core = (openui5_types / "sap.ui.core.d.ts").read_text(encoding="utf-8")
    control = _block(core, 'declare module "sap/ui/core/Control"')
    assert re.search(r"addStyleClass\(\s*/\*\*.*?\*/\s*sStyleClass: string\s*\): this;", control, re.S)
    assert "export default abstract class Control extends UI5Element" in control
    assert 'import { default as UI5Element, $ElementSettings } from "sap/ui/core/Element"' in control


def test_bundled_data_is_what_the_parser_reads_from_the_pinned_package(openui5_types: Path) -> None:
    """The data file is current: re-reading one library from the cache gives the same records."""
    version = reader.package_version(openui5_types.parent)
    assert version == catalog.bundled().version
    reads, _ = reader.read_package(openui5_types)
    fresh = {s["name"]: s for s in reader.merge(reads) if s.get("library") == "sap.tnt"}
    bundled = {s["name"]: s for s in catalog.bundled().catalog.symbols if s.get("library") == "sap.tnt"}
    assert fresh and fresh == bundled


# -- lookup, members and search -------------------------------------------------------------------


def test_names_in_every_spelling_find_the_same_symbol() -> None:
    cat = catalog.bundled().catalog
    for spelling in ("sap.m.Button", "sap/m/Button", "SAP.M.BUTTON", "sap/m/Button.js"):
        assert catalog.find(cat, spelling).symbol is sym("sap.m.Button"), spelling
    assert catalog.find(cat, "DateRangeSelection").symbol is sym("sap.m.DateRangeSelection")
    assert catalog.find(cat, "sap/base/Log").symbol is sym("module:sap/base/Log")
    hit = catalog.find(cat, "sap.m.Table#growing")
    assert (hit.symbol, hit.member) == (sym("sap.m.Table"), "growing")
    ambiguous = catalog.find(cat, "Button")
    assert ambiguous.symbol is None
    assert [s["name"] for s in ambiguous.candidates] == ["sap.m.Button", "sap.ui.commons.Button"]


def test_word_search_finds_controls_and_members() -> None:
    cat = catalog.bundled().catalog
    top = [r.key for r in catalog.search(cat, "date range picker")[:3]]
    assert "sap.m.DateRangeSelection" in top
    first = catalog.search(cat, "growing table")[0]
    assert (first.symbol["name"], first.member["name"], first.inherited_from) == (  # type: ignore[index]
        "sap.m.Table",
        "growing",
        "sap.m.ListBase",
    )
    assert catalog.search(cat, "busy indicator")[0].key == "sap.m.BusyIndicator"
    assert catalog.search(cat, "select dialog")[0].key == "sap.m.SelectDialog"


async def test_tool_answers_a_control_with_its_members_and_url(bundled_ctx) -> None:
    out = await ok("get_ui5_api", {"name": "sap/m/Button"}, bundled_ctx)
    button = out["results"][0]
    assert button["url"] == "https://ui5.sap.com/#/api/sap.m.Button"
    assert button["extends"][:2] == ["sap.ui.core.Control", "sap.ui.core.Element"]
    assert named(button["properties"], "type")["default"] == "Default"
    assert named(button["events"], "press")["kind"] == "event"
    assert "getText" not in [m["name"] for m in button["methods"]] and button["accessors"] > 20
    assert "@openui5/types 1.152.0" in button["source"]


async def test_member_lookup_walks_up_to_the_declaring_class(bundled_ctx) -> None:
    out = await ok("get_ui5_api", {"name": "sap.m.Table", "member": "growing"}, bundled_ctx)
    member = out["results"][0]["member"]
    assert member["inherited_from"] == "sap.m.ListBase"
    assert (member["kind"], member["type"], member["default"]) == ("property", "boolean", "false")
    assert member["url"] == "https://ui5.sap.com/#/api/sap.m.ListBase%23controlProperties"
    out = await ok("get_ui5_api", {"name": "sap.m.Table", "member": "setModel"}, bundled_ctx)
    member = out["results"][0]["member"]
    assert member["inherited_from"] == "sap.ui.base.ManagedObject"
    assert member["signatures"][0].startswith("setModel(oModel: sap.ui.model.Model")
    assert member["url"].endswith("sap.ui.base.ManagedObject%23methods/setModel")
    out = await ok("get_ui5_api", {"name": "sap.m.Button#getText"}, bundled_ctx)
    assert out["results"][0]["member"]["accessor_for"] == ["property text"]
    out = await ok("get_ui5_api", {"name": "sap.m.ListBase", "member": "selectionChange"}, bundled_ctx)
    assert named(out["results"][0]["member"]["parameters"], "selected")["type"] == "boolean"
    assert out["results"][0]["member"]["url"].endswith("sap.m.ListBase%23events/selectionChange")


async def test_ambiguous_short_name_lists_the_candidates(bundled_ctx) -> None:
    out = await ok("get_ui5_api", {"name": "Table"}, bundled_ctx)
    assert [r["name"] for r in out["results"]] == ["sap.m.Table", "sap.ui.mdc.Table", "sap.ui.table.Table"]
    assert "full name" in out["hint"]


async def test_unknown_names_and_members_are_actionable_errors(bundled_ctx) -> None:
    outcome = await call("get_ui5_api", {"name": "sap.m.Button", "member": "presss"}, bundled_ctx)
    assert outcome.is_error and "Did you mean: press" in outcome.text
    outcome = await call("get_ui5_api", {"name": "sap/m/NoSuchControl"}, bundled_ctx)
    assert outcome.is_error and "No UI5 module or symbol 'sap/m/NoSuchControl'" in outcome.text
    outcome = await call("get_ui5_api", {"name": "qqxxzz"}, bundled_ctx)
    assert outcome.is_error and "Nothing in @openui5/types 1.152.0" in outcome.text and "@sapui5/types" in outcome.text
    outcome = await call("get_ui5_api", {"name": "x" * 201}, bundled_ctx)
    assert outcome.is_error and "name" in outcome.text


async def test_words_search_through_the_tool(bundled_ctx) -> None:
    out = await ok("get_ui5_api", {"name": "growing table", "limit": 3}, bundled_ctx)
    first = out["results"][0]
    assert (first["name"], first["member"]["name"]) == ("sap.m.Table", "growing")
    assert out["count"] == 3 and out["total"] > 3
    assert "No symbol is named" in out["hint"]


# -- SAPUI5 libraries from the project's node_modules ----------------------------------------------


def _project_with_types(root: Path) -> Path:
    target = root / "node_modules" / "@sapui5" / "types"
    shutil.copytree(FIXTURE, target)
    return root


async def test_sapui5_libraries_come_from_the_projects_node_modules(bundled_ctx, tmp_path: Path) -> None:
    root = _project_with_types(tmp_path / "app")
    out = await ok("get_ui5_api", {"name": "SmartFilterBar", "path": str(root)}, bundled_ctx)
    bar = out["results"][0]
    assert bar["name"] == "sap.ui.comp.smartfilterbar.SmartFilterBar"
    assert bar["library"] == "sap.ui.comp" and bar["extends"][0] == "sap.ui.core.Control"
    assert bar["doc"] == "A fixture filter bar that reads its fields from an entity set."
    assert named(bar["properties"], "filterMode")["type"] == "sap.ui.comp.FixtureFilterMode"
    assert named(bar["properties"], "entitySet")["default"] == ""
    assert named(bar["events"], "search")["parameters"][0]["name"] == "selectionSet"
    assert "@sapui5/types 1.999.0-fixture" in bar["source"]
    assert "SAPUI5 libraries from @sapui5/types 1.999.0-fixture" in out["hint"] and "sap.ui.comp" in out["hint"]
    # the fixture's own sap.m is never read: OpenUI5's bundled sap.m answers
    out = await ok("get_ui5_api", {"name": "sap.m.Button", "path": str(root)}, bundled_ctx)
    assert out["results"][0]["doc"] == "Enables users to trigger actions."
    # an inherited member crosses from the project's library into the bundled one
    out = await ok("get_ui5_api", {"name": "SmartFilterBar", "member": "visible", "path": str(root)}, bundled_ctx)
    assert out["results"][0]["member"]["inherited_from"] == "sap.ui.core.Control"


async def test_sapui5_files_are_cached_by_mtime_and_reread_when_changed(bundled_ctx, tmp_path: Path) -> None:
    root = _project_with_types(tmp_path / "app")
    library = root / "node_modules/@sapui5/types/types/sap.ui.comp.d.ts"
    first = catalog.project_types(root, catalog.bundled().libraries, budget=30)
    again = catalog.project_types(root, catalog.bundled().libraries, budget=30)
    assert first is not None and again is not None and first.symbols[0] is again.symbols[0]
    library.write_text(
        library.read_text(encoding="utf-8").replace("FixtureFilterMode {", "FixtureFilterModeRenamed {"),
        encoding="utf-8",
    )
    changed = catalog.project_types(root, catalog.bundled().libraries, budget=30)
    assert changed is not None
    assert "sap.ui.comp.FixtureFilterModeRenamed" in {s["name"] for s in changed.symbols}


async def test_a_project_without_sapui5_types_gets_openui5_and_is_told(bundled_ctx, tmp_path: Path) -> None:
    out = await ok("get_ui5_api", {"name": "SmartFilterBar", "path": str(tmp_path)}, bundled_ctx)
    assert "sap.ui.comp.smartfilterbar.SmartFilterBar" not in [r["name"] for r in out["results"]]
    assert "need @sapui5/types in the project's node_modules" in out["hint"]


# -- hostile declaration files --------------------------------------------------------------------


async def test_huge_and_broken_sapui5_files_are_skipped_with_the_reason(bundled_ctx, tmp_path: Path) -> None:
    root = _project_with_types(tmp_path / "app")
    types = root / "node_modules/@sapui5/types/types"
    with (types / "sap.suite.huge.d.ts").open("w", encoding="utf-8") as handle:
        handle.write("/*" + "x" * (reader.FILE_MAX + 10))
    (types / "sap.fe.deep.d.ts").write_text("namespace a { " * 50_000, encoding="utf-8")
    outside = tmp_path / "secret.d.ts"
    outside.write_text('declare module "sap/fe/leak/Leak" { export default class Leak {} }', encoding="utf-8")
    (types / "sap.fe.leak.d.ts").symlink_to(outside)
    start = time.monotonic()
    out = await ok("get_ui5_api", {"name": "SmartFilterBar", "path": str(root)}, bundled_ctx)
    assert time.monotonic() - start < 30
    hint = out["hint"]
    assert "sap.suite.huge is larger than 16 MB" in hint
    assert "sap.fe.deep is nested too deeply to parse" in hint
    assert "sap.fe.leak is not a regular file inside the project" in hint
    assert out["results"][0]["name"] == "sap.ui.comp.smartfilterbar.SmartFilterBar"


def test_parsing_stops_at_its_deadline_and_never_loops() -> None:
    hostile = ('declare module "sap/x/Y" { export default class Y { ' + "m(a: string): void; " * 200_000) * 3
    with pytest.raises(dts.DtsTimeout):
        dts.parse(hostile, deadline=time.monotonic() + 0.05)
    for broken in ("/** never closed", "declare module 'x' {", '"unterminated', "}}}}))))", "<<<<>>>>", "`${"):
        start = time.monotonic()
        try:
            dts.parse(broken * 2000)
        except dts.DtsTooDeep:
            assert "{" in broken  # nesting beyond NEST_MAX is refused, not recursed into
        assert time.monotonic() - start < 10, broken


def test_a_library_that_takes_too_long_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project_with_types(tmp_path / "app")
    types = root / "node_modules/@sapui5/types/types"
    (types / "sap.fe.slow.d.ts").write_text(
        'declare module "sap/fe/slow/S" { export default class S { ' + "m(a: string): void; " * 300_000 + "} }",
        encoding="utf-8",
    )
    # cut short by the call's budget: said so, and tried again on the next call
    found = catalog.project_types(root, catalog.bundled().libraries, budget=0.01)
    assert found is not None
    assert found.skipped["sap.fe.slow"].startswith("no time left in this call")
    # slower than any library may be: remembered until the file changes
    monkeypatch.setattr(catalog, "FILE_SECONDS_MAX", 0.01)
    found = catalog.project_types(root, catalog.bundled().libraries, budget=60)
    assert found is not None and found.skipped["sap.fe.slow"] == "took too long to parse"
    parsed: list[str] = []
    real_parse = reader.parse_library

    def counting(library: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(library)
        return real_parse(library, *args, **kwargs)

    monkeypatch.setattr(reader, "parse_library", counting)
    again = catalog.project_types(root, catalog.bundled().libraries, budget=60)
    assert again is not None and again.skipped["sap.fe.slow"] == "took too long to parse"
    assert "sap.fe.slow" not in parsed  # not parsed again
