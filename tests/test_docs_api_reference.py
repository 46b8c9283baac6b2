"""The OpenUI5 API reference as search_docs pages: one page per bundled symbol, its text and sections, its
address (the one get_ui5_api gives), deprecated symbols below live ones, and read_doc's attribution."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.docs import api_reference, store
from sap_devs.docs.build import build_from
from sap_devs.docs.index import DocsIndex
from sap_devs.docs.sources import API_REFERENCE, BY_REPO, SOURCES
from sap_devs.knowledge.ui5_api import catalog
from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.tools.docs.search_docs import section_url
from tests.conftest import bundled_layer
from tests.test_docs import REGISTRY, call, needs_bundled

pytestmark = pytest.mark.anyio
REFERENCE = "https://ui5.sap.com/#/api/"


def _page(name: str) -> api_reference.Page:
    data = catalog.bundled().catalog
    sym = data.by_name[name.lower()]
    return api_reference.page(sym, catalog.ancestors(data, sym))


def _section(page: api_reference.Page, heading: str) -> api_reference.Section:
    return next(s for s in page.sections if s.heading[-1] == heading)


@pytest.fixture(scope="module")
def api_index(tmp_path_factory: pytest.TempPathFactory) -> DocsIndex:
    out = tmp_path_factory.mktemp("api") / "docs.sqlite"
    counts = build_from({}, out, api_reference=True)
    assert counts["pages"] == len(catalog.bundled().catalog.symbols)
    return DocsIndex(out)


def test_a_control_page_says_what_it_is_and_lists_its_members_by_group() -> None:
    page = _page("sap.m.Input")
    assert page.title == "sap.m.Input" and page.url == REFERENCE + "sap.m.Input"
    overview = page.sections[0].text
    assert overview.startswith("Control `sap.m.Input` of the library sap.m.")
    assert "Extends `sap.m.InputBase` > `sap.ui.core.Control`." in overview
    assert "enter and edit text or numeric values in one line" in overview
    assert [s.heading[-1] for s in page.sections[1:]] == [
        "Properties",
        "Aggregations",
        "Associations",
        "Events",
        "Methods",
        "Inherited",
    ]
    assert "- `type` (sap.m.InputType, default `Text`): HTML type" in _section(page, "Properties").text
    events = _section(page, "Events")
    assert events.anchor == "events"
    assert "- `submit`: This event is fired when user presses the Enter key on the input." in events.text
    assert "Parameters: `value` (string)." in events.text
    methods = _section(page, "Methods").text
    assert "closeSuggestions(): void" in methods
    # generated accessors and the two static methods of every class say nothing a developer searches for
    assert "getValueHelpIconSrc" not in methods and "extend<" not in methods and "getMetadata" not in methods
    # what the classes above add, by name: the page of an input says it has a value and a change event
    inherited = _section(page, "Inherited").text
    assert inherited.startswith("- from `sap.m.InputBase`: properties value, width") and "events change" in inherited


def test_enum_namespace_and_typedef_pages_have_their_own_sections() -> None:
    enum = _page("sap.m.ButtonType")
    assert enum.sections[0].text.startswith("Enumeration `sap.m.ButtonType` of the library sap.m.")
    assert "- `Emphasized`: Emphasized type." in _section(enum, "Values").text
    box = _page("sap.m.MessageBox")
    assert box.sections[0].text.startswith("Namespace `sap.m.MessageBox`")
    assert "Displays a confirmation dialog" in _section(box, "Methods").text
    typedef = _page("module:sap/base/i18n/Formatting.CustomUnit")
    assert "Type definition" in typedef.sections[0].text and "Type: `{ displayName: string;" in typedef.sections[0].text


def test_a_deprecated_symbol_says_so_in_its_title_and_text() -> None:
    page = _page("sap.ui.commons.Button")
    assert page.title == "sap.ui.commons.Button (deprecated)"
    assert "Deprecated since 1.38: replaced by sap.m.Button." in page.sections[0].text
    assert page.sections[1].heading == ["sap.ui.commons.Button (deprecated)", "Properties"]


def test_addresses_are_the_ones_get_ui5_api_gives() -> None:
    assert _page("sap.m.Button").url == REFERENCE + "sap.m.Button"  # class
    assert _page("sap.ui.core.ValueState").url == REFERENCE + "sap.ui.core.ValueState"  # enum
    assert _page("sap.m.MessageToast").url == REFERENCE + "sap.m.MessageToast"  # namespace
    assert _page("module:sap/base/Log").url == REFERENCE + "module:sap/base/Log"
    # a section of a page: the reference routes by the part after '#', so the section follows as %23
    page = _page("sap.m.Input")
    for heading, anchor in [("Properties", "controlProperties"), ("Events", "events"), ("Methods", "methods")]:
        assert section_url(API_REFERENCE.repo, page.url, _section(page, heading).anchor) == f"{page.url}%23{anchor}"
    assert section_url(API_REFERENCE.repo, page.url, None) == page.url


async def test_the_page_address_is_where_get_ui5_api_points_for_the_symbol_and_its_members() -> None:
    ctx = ToolContext(cwd=Path.cwd(), layers=[bundled_layer()])
    outcome = await invoke(REGISTRY.get("get_ui5_api"), {"name": "sap.m.Input", "member": "submit"}, ctx)  # type: ignore[arg-type]
    assert not outcome.is_error, outcome.text
    found = outcome.structured
    symbol = found["results"][0]  # type: ignore[index]
    assert symbol["url"] == _page("sap.m.Input").url
    assert symbol["member"]["url"] == _page("sap.m.Input").url + "%23events/submit"


def test_the_api_reference_is_credited_as_openui5_and_never_downloaded() -> None:
    assert API_REFERENCE not in SOURCES  # sync downloads SOURCES; these pages come from the package
    assert BY_REPO["ui5/openui5"] is API_REFERENCE and API_REFERENCE.licence == "Apache-2.0"
    line = API_REFERENCE.attribution(REFERENCE + "sap.m.Button")
    assert "the OpenUI5 API reference (UI5/openui5)" in line and "OpenUI5 contributors" in line


def test_a_control_is_found_by_what_it_does_and_pages_carry_no_flavour(api_index: DocsIndex) -> None:
    hits, _ = api_index.search("slider to select a range between two handles", limit=3)
    assert hits[0].path == "sap.m.RangeSlider", [h.path for h in hits]
    hits, _ = api_index.search("OData V4 model list binding", limit=5)
    assert any(h.path.startswith("sap.ui.model.odata.v4.") for h in hits)
    assert all(h.flavours == () for h in hits)  # an API class is not a V4-only answer


def test_a_deprecated_symbol_ranks_below_the_live_one_unless_asked_for(api_index: DocsIndex) -> None:
    def ranks(query: str) -> list[str]:
        hits, _ = api_index.search(query, limit=50)
        return [h.path for h in hits]

    found = ranks("check box control the user ticks, with a select event")
    assert found.index("sap.m.CheckBox") < found.index("sap.ui.commons.CheckBox"), found[:10]
    assert ranks("deprecated sap.ui.commons.CheckBox")[0] == "sap.ui.commons.CheckBox"


def test_a_symbol_the_question_names_comes_first(api_index: DocsIndex) -> None:
    def first(query: str) -> str:
        hits, _ = api_index.search(query, limit=3)
        return hits[0].path

    assert first("sap.m.Slider step and min max") == "sap.m.Slider"  # a full name
    assert first("SegmentedButton selectionChange") == "sap.m.SegmentedButton"  # the live one of a short name
    assert first("log levels of module:sap/base/Log") == "module:sap/base/Log"


@needs_bundled
def test_the_bundled_index_finds_a_control_by_what_it_does() -> None:
    store.reset()
    index = store.current()
    assert API_REFERENCE.repo in {s.repo for s in index.sources()}
    hits, _ = index.search("which control shows the progress of a process as a bar with a percentage", limit=5)
    assert "sap.m.ProgressIndicator" in [h.path for h in hits if h.source == API_REFERENCE.repo]


@needs_bundled
def test_a_control_the_question_spells_out_as_words_comes_first() -> None:
    store.reset()
    index = store.current()

    def first(query: str) -> str:
        return index.search(query, limit=3)[0][0].path

    # "icon tab bar" is IconTabBar, "step input" StepInput: named without its CamelCase, still named
    assert first("icon tab bar with a counter on each tab") == "sap.m.IconTabBar"
    assert first("step input to raise a quantity with plus and minus buttons") == "sap.m.StepInput"
    assert first("segmented button for choosing one of three views") == "sap.m.SegmentedButton"


@needs_bundled
async def test_read_doc_reads_an_api_page_with_sections_and_attribution(tmp_path: Path) -> None:
    is_error, text, page = await call("read_doc", id="UI5/openui5:sap.m.Input")
    assert not is_error, text
    assert page["url"] == REFERENCE + "sap.m.Input" and page["licence"] == "Apache-2.0"  # type: ignore[index]
    assert page["commit"] == "@openui5/types 1.152.0"  # type: ignore[index]
    assert "the OpenUI5 API reference" in page["attribution"] and "OpenUI5 contributors" in page["attribution"]  # type: ignore[index]
    assert "sap.m.Input > Events" in page["sections"]  # type: ignore[index]
    is_error, text, events = await call("read_doc", id="UI5/openui5:sap.m.Input", section="Events")
    assert not is_error, text
    assert events["url"] == REFERENCE + "sap.m.Input%23events"  # type: ignore[index]
    assert events["content"].startswith("## Events") and "`submit`" in events["content"]  # type: ignore[index]
    # the page's address, or the address get_ui5_api gives one of its members, opens the page
    for url in (REFERENCE + "sap.m.Input", REFERENCE + "sap.m.Input%23events/submit"):
        is_error, text, by_url = await call("read_doc", url=url, max_chars=500)
        assert not is_error and by_url["path"] == "sap.m.Input", text  # type: ignore[index]
