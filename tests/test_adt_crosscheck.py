"""sap-devs' ADT requests against abap-adt-api's, operation by operation, on the fake ADT server.

abap-adt-api (the library behind the VS Code ABAP remote filesystem) has run against real systems
for years. tests/adt_crosscheck.js drives its ADTClient against the fake for every operation both
clients support; then sap-devs does the same operations against a fresh fake. The test asserts that

- the fake accepted everything abap-adt-api sent (no 4xx: a fake stricter than real systems hides
  bugs) and answered in formats abap-adt-api parses (a few parsed facts are checked);
- for each request abap-adt-api sent, sap-devs sent one with the same method, path and lock action,
  the same query keys, an Accept that takes what the fake answered, and a compatible Content-Type.

Operations where sap-devs deliberately differs are listed in DIFFERENT with the reason; the test
fails if one of them starts to agree (so the list stays true) or another starts to differ.
The Node run happens once per module.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from sap_devs.adt.client import AdtClient
from sap_devs.mcp.registry import Registry
from tests.fake_adt import MARK, FakeAdt, Recorded, acceptable
from tests.sap_tools import sap_tool_path, sap_tools_node
from tests.test_abap_tools import ALL, PASSWORD, call, context

pytestmark = pytest.mark.anyio
SCRIPT = __file__.rsplit("/", 1)[0] + "/adt_crosscheck.js"
CLASS = "/sap/bc/adt/oo/classes/zcl_sample_class"
INTERFACE = "/sap/bc/adt/oo/interfaces/zif_sample_interface"
SESSION_KEYS = {"sap-client", "sap-language"}
# operations where sap-devs sends something else on purpose, and why
DIFFERENT = {
    "login": "sap-devs fetches the CSRF token from /sap/bc/adt/core/discovery (falling back to "
    "/sap/bc/adt/discovery) as sapcli does; abap-adt-api logs on at /sap/bc/adt/compatibility/graph",
    "atc": "sap-devs reads the worklist as sapcli does (includeExemptedFindings only); abap-adt-api adds the "
    "run's timestamp and usedObjectSet, which narrow the same worklist to that run",
    "create_transport": "sap-devs creates a request at /sap/bc/adt/cts/transportrequests (sapcli's way, a "
    "request of its own with a description); abap-adt-api posts a correction request for one object to "
    "/sap/bc/adt/cts/transports",
    "publish_service": "the recorded binding is OData V4, which sap-devs publishes at odatav4/publishjobs "
    "(sapcli's way); abap-adt-api's publishServiceBinding always posts to odatav2/publishjobs",
}
# operations abap-adt-api itself cannot complete on a real recording (not a request difference)
CLIENT_FAILS = {
    "discovery": "abap-adt-api's adtCoreDiscovery expects one collection per workspace; the recorded "
    "discovery document (sapcli, abapify) has several, so its parser fails after a 200",
}


def inactive_together(fake: FakeAdt) -> Callable[[str], None]:
    """For the inactive-objects operation, the fake insists on activating the class with the interface."""

    def on_mark(op: str) -> None:
        together = op == "activate_inactive"
        fake.inactive_together = (
            [(CLASS, "CLAS/OC", "ZCL_SAMPLE_CLASS"), (INTERFACE, "INTF/OI", "ZIF_SAMPLE_INTERFACE")] if together else []
        )
        fake.activation_keeps_inactive = together

    return on_mark


def by_operation(requests: list[Recorded]) -> dict[str, list[Recorded]]:
    grouped: dict[str, list[Recorded]] = {}
    current = ""
    for r in requests:
        if r.path.startswith(MARK):
            current = r.path[len(MARK) :]
            continue
        grouped.setdefault(current, []).append(r)
    return grouped


@pytest.fixture(scope="module")
def reference() -> tuple[dict[str, dict[str, Any]], dict[str, list[Recorded]]]:
    """abap-adt-api's run: what it reported per operation, and the requests the fake saw per operation."""
    node = sap_tools_node()
    api = sap_tool_path("abap-adt-api")
    fake = FakeAdt(password=PASSWORD)
    fake.on_mark = inactive_together(fake)
    with fake.running():
        proc = subprocess.run(
            [str(node), SCRIPT, str(api), fake.url, "DEVELOPER", PASSWORD, "100"],
            capture_output=True,
            text=True,
            timeout=180,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = {line["op"]: line for line in map(json.loads, proc.stdout.splitlines())}
    return results, by_operation(fake.requests)


# -- sap-devs' side of each operation -------------------------------------------------------------


async def _csrf(adt: FakeAdt, ctx: Any) -> None:
    await ctx.adt()._ensure_csrf()


def tool(tool_name: str, /, **args: Any) -> Callable[[FakeAdt, Any], Awaitable[None]]:
    async def run(adt: FakeAdt, ctx: Any) -> None:
        await call(ctx, tool_name, **args)  # the requests matter here; an error shows as a 4xx below

    return run


CLASS_SOURCE = "CLASS zcl_sample_class IMPLEMENTATION.\n  METHOD x.\n    run( ).\n  ENDMETHOD.\nENDCLASS.\n"
OURS: dict[str, Callable[[FakeAdt, Any], Awaitable[None]]] = {
    "login": _csrf,
    "discovery": _csrf,
    "object_structure": tool("get_object_info", name="ZTEST_PROGRAM", kind="program"),
    "read_source": tool("get_program", name="ZTEST_PROGRAM"),
    "class_include": tool("get_class", name="ZCL_SAMPLE_CLASS"),
    "write_source": tool(
        "write_source", name="ZTEST_PROGRAM", kind="program", source="REPORT ztest_program.\nWRITE 'x'.\n"
    ),
    "syntax_check": tool("syntax_check", name="ZTEST_PROGRAM", kind="program", source="REPORT ztest_program.\n"),
    "activate": tool("activate_objects", objects=[{"name": "ZTEST_PROGRAM", "kind": "program"}]),
    "activate_inactive": tool("activate_objects", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}]),
    "inactive_objects": tool("get_inactive_objects"),
    "unit_tests": tool("run_unit_tests", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}]),
    "atc": tool("run_atc", objects=[{"name": "ZCL_SAMPLE_CLASS", "kind": "class"}]),
    "transports_of_user": tool("get_transport_requests"),
    "where_used": tool("where_used", name="ZCL_SAMPLE_CLASS", kind="class"),
    "definition": tool(
        "go_to_definition", name="ZCL_SAMPLE_CLASS", kind="class", line=3, column=4, source=CLASS_SOURCE
    ),
    "table_contents": tool("preview_table", name="T000"),
    "run_query": tool("run_sql_query", query="SELECT * FROM T000"),
    "search": tool("search_objects", query="ZCL*", object_type="CLAS/OC"),
    "package_contents": tool("get_package_contents", package="$TMP"),
    "versions_class": tool("get_versions", name="ZCL_SAMPLE_CLASS", kind="class"),
    "versions_program": tool("get_versions", name="ZTEST_PROGRAM", kind="program"),
    "feeds": tool("list_dumps"),
    "dumps_query": tool("list_dumps"),
    "create_program": tool("create_program", name="ZCROSS_PROG", package="$TMP", description="Cross-checked"),
    "delete": tool("delete_object", name="ZIF_SAMPLE_INTERFACE", kind="interface"),
    "publish_service": tool("publish_service", name="ZSAPCLI_TEST_BND"),
    "class_structure": tool("get_object_info", name="ZCL_SAMPLE_CLASS", kind="class"),
    "read_function_module": tool("get_function_module", name="Z_FN_HELLO_WORLD", function_group="ZFG_HELLO_WORLD"),
    "read_cds": tool("get_cds_view", name="ZDDL_SAMPLE"),
    "domain": tool("get_domain", name="BEGRM"),
    "data_element": tool("get_data_element", name="ZSALES_ORDER_ID"),
    "create_class": tool("create_class", name="ZCL_CROSS", package="$TMP", description="Cross-checked"),
    "create_interface": tool("create_interface", name="ZIF_CROSS", package="$TMP", description="Cross-checked"),
    "create_transport": tool("create_transport", description="Cross-checked"),
    "release_transport": tool("release_transport", number="DEVK900124"),
}


@dataclass
class Verdict:
    op: str
    checked: int  # abap-adt-api requests compared
    problems: list[str]


def _base(media: str | None) -> str:
    return (media or "").split(";")[0].strip().lower()


def content_types_agree(ours: str | None, theirs: str | None) -> bool:
    """Same type, or one side the application/* wildcard; axios' default for a string body
    (x-www-form-urlencoded) and no body at all say nothing about the type."""
    a, b = _base(ours), _base(theirs)
    if b in ("", "application/x-www-form-urlencoded") or a == b:
        return True
    return "application/*" in (a, b) and a.startswith("application/") and b.startswith("application/")


_ID = re.compile(r"/[0-9A-F]{32}(?=/|$)")  # ids the system hands out (ATC worklists) differ per run


def key(r: Recorded) -> tuple[str, str, str]:
    return r.method, _ID.sub("/{id}", r.path).lower(), (r.query.get("_action") or [""])[0]


def compare(op: str, theirs: list[Recorded], ours: list[Recorded]) -> Verdict:
    problems = []
    for ref in theirs:
        match = next((r for r in ours if key(r) == key(ref)), None)
        label = f"{ref.method} {ref.path}" + (f" {key(ref)[2]}" if key(ref)[2] else "")
        if match is None:
            problems.append(f"{label}: sap-devs sends no such request")
            continue
        if match.status >= 400:
            problems.append(f"{label}: the fake answered sap-devs {match.status}")
        keys_theirs, keys_ours = set(ref.query) - SESSION_KEYS, set(match.query) - SESSION_KEYS
        if keys_theirs != keys_ours:
            problems.append(f"{label}: query keys {sorted(keys_ours)} vs abap-adt-api's {sorted(keys_theirs)}")
        if ref.answered and not acceptable(match.headers.get("accept", ""), (_base(ref.answered),)):
            problems.append(f"{label}: Accept {match.headers.get('accept')!r} does not take {ref.answered!r}")
        if not content_types_agree(match.headers.get("content-type"), ref.headers.get("content-type")):
            problems.append(
                f"{label}: Content-Type {match.headers.get('content-type')!r} vs {ref.headers.get('content-type')!r}"
            )
    return Verdict(op, len(theirs), problems)


@pytest.fixture(scope="module")
def verdicts(reference, tmp_path_factory) -> list[Verdict]:
    import anyio

    _, theirs = reference
    found: list[Verdict] = []

    async def run_all() -> None:
        for op, run in OURS.items():
            fake = FakeAdt(password=PASSWORD)
            fake.on_mark = inactive_together(fake)
            with fake.running():
                fake.on_mark(op)
                ctx = context(fake, tmp_path_factory.mktemp(op), writes=True, data=True, transports=True)
                ctx.registry = Registry(ALL, system=True, writes=True, data=True, transports=True)
                try:
                    await run(fake, ctx)
                finally:
                    if isinstance(ctx._adt, AdtClient):
                        await ctx._adt.aclose()
            found.append(compare(op, theirs.get(op, []), fake.requests))

    anyio.run(run_all)
    return found


# -- the assertions -------------------------------------------------------------------------------


def test_the_fake_accepts_what_abap_adt_api_sends(reference) -> None:
    results, requests = reference
    rejected = [f"{op}: {r.status} {r.method} {r.path}" for op, rs in requests.items() for r in rs if r.status >= 400]
    assert rejected == []
    failed = {op: r["error"] for op, r in results.items() if not r["ok"] and op not in CLIENT_FAILS}
    assert failed == {}
    assert set(CLIENT_FAILS) <= {op for op, r in results.items() if not r["ok"]}, "a listed failure went away"


def test_abap_adt_api_understands_the_fakes_answers(reference) -> None:
    """The fake's formats are whole: what abap-adt-api parses out of them is what they hold."""
    facts = {op: r.get("facts", {}) for op, r in reference[0].items()}
    assert facts["object_structure"] == {"name": "ZTEST_PROGRAM", "versionsLink": True}
    assert facts["activate"]["success"] is True
    assert facts["activate_inactive"] == {"success": False, "inactive": ["ZCL_SAMPLE_CLASS", "ZIF_SAMPLE_INTERFACE"]}
    assert facts["versions_class"]["versions"] == ["MOCK900236"], "the transport name in the version feed"
    assert facts["versions_program"]["versions"] == ["MOCK900236"]
    assert facts["atc"] == {"findings": 2, "withLink": 2}, "ATC findings carry their documentation link"
    assert facts["dumps"] == {"dumps": 1, "summaries": 1}, "the default query's dump, with its summary"
    assert facts["feeds"]["variants"] == 2
    assert facts["definition"]["url"] == "/sap/bc/adt/oo/interfaces/zif_sample_interface/source/main"
    assert facts["search"]["found"] == ["ZCL_SAMPLE_CLASS"]
    assert facts["unit_tests"]["classes"] >= 1 and facts["package_contents"]["nodes"] >= 1
    assert facts["class_structure"]["includes"] == ["definitions", "implementations", "macros", "main", "testclasses"]
    assert facts["create_transport"] == {"number": "DEVK900125"}
    assert facts["release_transport"] == {"reports": 1}


def test_sap_devs_sends_what_abap_adt_api_sends(verdicts) -> None:
    agree = [v.op for v in verdicts if not v.problems]
    differ = {v.op: v.problems for v in verdicts if v.problems}
    print(
        f"\nADT cross-check with abap-adt-api: {len(agree)} of {len(verdicts)} operations agree; differ: {sorted(differ)}"
    )
    unexplained = {op: p for op, p in differ.items() if op not in DIFFERENT}
    assert not unexplained, json.dumps(unexplained, indent=1)
    assert set(DIFFERENT) <= set(differ), f"listed as different but agreeing now: {set(DIFFERENT) - set(differ)}"
    assert all(v.checked for v in verdicts), [v.op for v in verdicts if not v.checked]
