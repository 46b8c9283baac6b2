"""The requests of issue 26's operations agree with abap-adt-api's, operation by operation.

abap-adt-api 8.4.3 (npm, the library behind the VS Code ABAP remote filesystem, which has run
against real systems for years) and sap-devs each perform the same operations against their own
fake ADT server; for every request that defines an operation, the two must use the same method,
path and query keys, and compatible content types, and the fake must have accepted abap-adt-api's
requests. Skipped loudly when Node 22 or abap-adt-api cannot be had (tests/sap_tools).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from sap_devs.adt.client import AdtClient
from sap_devs.adt.config import AdtConfig
from sap_devs.adt.safety import SafetyPolicy
from tests.fake_adt import FakeAdt, Recorded
from tests.fake_adt_more import QUICKFIX
from tests.sap_tools import sap_tool_path, sap_tools_node
from tests.test_abap_more_tools import BROKEN, CODE, CONSOLE, FM, TESTS, UNFORMATTED, add_class

pytestmark = pytest.mark.anyio
SCRIPT = __import__("pathlib").Path(__file__).parent / "sap_tools" / "adt_more_ops.js"
PROGRAM = "/sap/bc/adt/programs/programs/ztest_program"
CLASS = "/sap/bc/adt/oo/classes/zcl_sample_class"
GROUP = "/sap/bc/adt/functions/groups/zfg_prices"
MODULE = f"{GROUP}/fmodules/z_get_price"
SAMPLE = {
    "consoleClass": "ZCL_DEMO_RUN",
    "programUri": PROGRAM,
    "sourceUri": f"{PROGRAM}/source/main",
    "unformatted": UNFORMATTED,
    "code": CODE,
    "line": 4,
    "column": 5,
    "infoLine": 3,
    "infoColumn": 30,
    "docLine": 5,
    "docColumn": 1,
    "broken": BROKEN,
    "fixLine": 3,
    "fixColumn": 4,
    "group": "ZFG_PRICES",
    "module": "Z_GET_PRICE",
    "moduleUri": MODULE,
    "fm": FM,
    "className": "ZCL_SAMPLE_CLASS",
    "classUri": CLASS,
    "tests": TESTS,
    "recordedModuleUri": "/sap/bc/adt/functions/groups/zfg_hello_world/fmodules/z_fn_hello_world",
}
# operation -> the requests that define it: (method, path, _action)
DEFINING: dict[str, list[tuple[str, str, str | None]]] = {
    "classrun": [("POST", "/sap/bc/adt/oo/classrun/ZCL_DEMO_RUN", None)],
    "transportcheck": [("POST", "/sap/bc/adt/cts/transportchecks", None)],
    "prettyprinter_settings": [("GET", "/sap/bc/adt/abapsource/prettyprinter/settings", None)],
    "prettyprinter": [("POST", "/sap/bc/adt/abapsource/prettyprinter", None)],
    "completion": [("POST", "/sap/bc/adt/abapsource/codecompletion/proposal", None)],
    "elementinfo": [("POST", "/sap/bc/adt/abapsource/codecompletion/elementinfo", None)],
    "keyword_docs": [("POST", "/sap/bc/adt/docu/abap/langu", None)],
    "quickfix_proposals": [("POST", "/sap/bc/adt/quickfixes/evaluation", None)],
    "quickfix_apply": [("POST", QUICKFIX, None)],
    "create_function_group": [("POST", "/sap/bc/adt/functions/groups", None)],
    "create_function_module": [("POST", f"{GROUP}/fmodules", None)],
    # the editor tools find a function module's group by a repository search
    "function_group_lookup": [("GET", "/sap/bc/adt/repository/informationsystem/search", None)],
    "write_function_module": [
        ("POST", MODULE, "LOCK"),
        ("PUT", f"{MODULE}/source/main", None),
        ("POST", MODULE, "UNLOCK"),
    ],
    "write_class_include": [
        ("POST", CLASS, "LOCK"),
        ("POST", f"{CLASS}/includes", None),
        ("PUT", f"{CLASS}/includes/testclasses", None),
        ("POST", CLASS, "UNLOCK"),
    ],
}


def prepared(fake: FakeAdt) -> FakeAdt:
    add_class(fake, "ZCL_DEMO_RUN", CONSOLE)
    del fake.objects[CLASS].includes["testclasses"]
    return fake


def sap_devs_operations() -> dict[str, Callable[[AdtClient, SafetyPolicy], Awaitable[Any]]]:
    from sap_devs.adt import classrun, codeassist, functions, includes, prettyprint, quickfix, transportcheck
    from sap_devs.adt.write import write_source

    src = f"{PROGRAM}/source/main"

    async def apply(client: AdtClient, policy: SafetyPolicy) -> Any:
        [proposal] = await quickfix.proposals(client, src, BROKEN, 3, 4)
        return await quickfix.fix_deltas(client, proposal, src, BROKEN, 3, 4)

    return {
        "classrun": lambda c, p: classrun.run_console_class(c, p, "ZCL_DEMO_RUN"),
        "transportcheck": lambda c, p: transportcheck.check_transport(c, PROGRAM),
        "prettyprinter_settings": lambda c, p: prettyprint.printer_settings(c),
        "prettyprinter": lambda c, p: prettyprint.pretty_print(c, UNFORMATTED),
        "completion": lambda c, p: codeassist.complete(c, src, CODE, 4, 5),
        "elementinfo": lambda c, p: codeassist.element_info(c, src, CODE, 3, 30),
        "keyword_docs": lambda c, p: codeassist.keyword_docs(c, PROGRAM, CODE, 5, 1),
        "quickfix_proposals": lambda c, p: quickfix.proposals(c, src, BROKEN, 3, 4),
        "quickfix_apply": apply,
        "create_function_group": lambda c, p: functions.create_function_group(
            c, p, "ZFG_PRICES", package="$TMP", description="Prices"
        ),
        "create_function_module": lambda c, p: functions.create_function_module(
            c, p, "ZFG_PRICES", "Z_GET_PRICE", description="Price"
        ),
        "function_group_lookup": lambda c, p: functions.function_group_of(c, "Z_GET_PRICE"),
        "write_function_module": lambda c, p: write_source(
            c, p, "function_module", "Z_GET_PRICE", FM, group="ZFG_PRICES"
        ),
        "write_class_include": lambda c, p: includes.write_include(c, p, "ZCL_SAMPLE_CLASS", "testclasses", TESTS),
    }


def _media(value: str | None) -> str:
    return (value or "").split(";")[0].strip().lower()


def compatible(ours: str | None, theirs: str | None) -> bool:
    a, b = _media(ours), _media(theirs)
    if a == b or "*/*" in (a, b):
        return True
    return any(w.endswith("/*") and o.startswith(w[:-1]) for w, o in ((a, b), (b, a)))


def has_body(r: Recorded) -> bool:
    return int(r.headers.get("content-length") or 0) > 0


def query_keys(r: Recorded) -> set[str]:
    return {k for k, v in r.query.items() if k not in ("sap-client", "sap-language") and any(v)}


def find(requests: list[Recorded], method: str, path: str, action: str | None) -> Recorded | None:
    return next(
        # object names in ADT paths are case-insensitive; abap-adt-api sends some as given, some lower case
        (
            r
            for r in requests
            if r.method == method and r.path.lower() == path.lower() and r.query.get("_action", [None])[0] == action
        ),
        None,
    )


def run_reference(fake: FakeAdt) -> tuple[dict[str, list[Recorded]], list[dict[str, Any]]]:
    node, package = sap_tools_node(), sap_tool_path("abap-adt-api")
    job = {"url": fake.url, "user": fake.user, "password": fake.password, "client": fake.client}
    job |= {"sample": SAMPLE, "ops": [*DEFINING, "editor_uris"]}
    proc = subprocess.run(
        [str(node), str(SCRIPT), str(package)], input=json.dumps(job), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    by_op: dict[str, list[Recorded]] = {}
    current = None
    for r in fake.requests:
        if r.path == "/sap/bc/adt/compatibility/graph" and "op" in r.query:
            current = r.query["op"][0]
            if current != "quickfix_apply_edit":  # a marker inside one operation
                by_op[current] = []
            continue
        if current is not None:
            by_op.setdefault("quickfix_apply" if current == "quickfix_apply_edit" else current, []).append(r)
    return by_op, json.loads(proc.stdout)


async def test_issue_26_operations_agree_with_abap_adt_api(tmp_path) -> None:
    with prepared(FakeAdt()).running() as theirs_fake:
        theirs, results = run_reference(theirs_fake)
    failed = {r["op"]: r["error"] for r in results if not r["ok"]}
    assert failed == {}, f"the fake refused abap-adt-api's requests: {failed}"

    ours: dict[str, list[Recorded]] = {}
    with prepared(FakeAdt()).running() as fake:
        config = AdtConfig(url=fake.url, client="100", user=fake.user, password=fake.password, timeout=5.0)
        policy = SafetyPolicy(writes=True, execute=True)
        async with AdtClient(config) as client:
            for op, run in sap_devs_operations().items():
                start = len(fake.requests)
                await run(client, policy)
                ours[op] = fake.requests[start:]

    agree, differences = [], []
    for op, defining in DEFINING.items():
        problems = []
        for method, path, action in defining:
            mine, reference = find(ours[op], method, path, action), find(theirs[op], method, path, action)
            if mine is None or reference is None:
                problems.append(
                    f"{method} {path} {action or ''}: sap-devs {'sent' if mine else 'missing'}, "
                    f"abap-adt-api {'sent' if reference else 'missing'}"
                )
                continue
            if query_keys(mine) != query_keys(reference):
                problems.append(f"{method} {path}: query {sorted(query_keys(mine))} vs {sorted(query_keys(reference))}")
            bodies = has_body(mine) and has_body(reference)  # axios labels an empty POST form-encoded
            if bodies and not compatible(mine.headers.get("content-type"), reference.headers.get("content-type")):
                problems.append(
                    f"{method} {path}: content type {mine.headers.get('content-type')!r} vs "
                    f"{reference.headers.get('content-type')!r}"
                )
        (differences if problems else agree).append((op, problems))
    print(f"\nissue 26 operations cross-checked against abap-adt-api: {len(agree)}/{len(DEFINING)} agree")
    assert differences == [], "\n".join(f"{op}: {p}" for op, p in differences)

    # the editor tools' source URIs are the ones abap-adt-api derives from the objects' metadata
    from sap_devs.adt.objects import CLASS_INCLUDES, source_uri

    theirs_uris = next(r["value"] for r in results if r["op"] == "editor_uris")
    fm = source_uri("function_module", "Z_FN_HELLO_WORLD", group="ZFG_HELLO_WORLD")
    assert theirs_uris["function_module"].lower() == fm
    includes = {k: v.lower() for k, v in theirs_uris["class_includes"].items()}
    mine = {i: source_uri("class", "ZCL_SAMPLE_CLASS", include=i) for i in CLASS_INCLUDES}
    assert includes == {**mine, "main": source_uri("class", "ZCL_SAMPLE_CLASS")}
