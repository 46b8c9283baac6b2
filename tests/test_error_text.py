"""A pasted error message reduced to what identifies it, and its error codes pulled out
(knowledge/error_text.py and the known-error search that uses it; mutants scripts/mutation.py
found surviving there)."""

from __future__ import annotations

import textwrap

import pytest

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.error_text import error_codes, strip_variable_parts
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.match_strength import EntryFacts
from sap_devs.knowledge.queries import _facts_by_entry, _facts_cache, find_known_errors


@pytest.mark.parametrize(
    ("pasted", "kept"),
    [
        ("Error at https://x.example/a?b=1 now", "Error at a now"),
        ("at https://host.example/?q=1 only", "at only"),
        ("request to http://registry.example.com failed", "request to failed"),  # a host is not a file name
        ("GET http://localhost:4004/odata/v4/catalog/Books#top 404", "GET Books 404"),
        ("guid 9a2b1c3d-1111-2222-3333-444455556666 x", "guid x"),
        ("2026-11-30T05:00:00.123Z boom", "boom"),
        ("at 10:22:33.5 boom", "at boom"),
        ("file /home/dev/project/srv/x.js:42 missing", "file x.js :42 missing"),
        (r"C:\Users\dev\proj\x.js failed", "x.js failed"),
        ("table 'ZMY_TABLE' and \"my.name\" and “X1” and ‘y_z’", "table and and and"),
        (
            "'cds' is not recognized; offering \"xsuaa\" and “web-ide”",
            "cds is not recognized; offering xsuaa and web-ide",
        ),
        ("Error\n    at f (/a/b.js:1:2)\n    at async X.y (https://h/c.js:3:4)\n    at /d/e.js:5:6\nend", "Error end"),
        ("Boom\n\tat com.sap.X.m(X.java:191) ~[ngdbc-2.4.63.jar:2.4.63]\nCaused by: Y", "Boom Caused by: Y"),
        ("id 0x7fff and deadbeefdeadbeef00 done", "id and done"),
        ("errno 3221225477 and 42 kept", "errno and 42 kept"),
        ("Artifact “...” has … not", "Artifact has not"),
        ("no such table sap_capire_bookshop_Books here ITAB_LINE_NOT_FOUND", "no such table here ITAB_LINE_NOT_FOUND"),
        ("  spaced\n\tout  ", "spaced out"),
    ],
)
def test_variable_parts_are_stripped(pasted: str, kept: str) -> None:
    assert strip_variable_parts(pasted) == kept


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("SAP DBTech JDBC: [258]: x [8212002]", {"258", "8212002"}),
        ("SQL error 258", {"258"}),
        ("jdbc error code: 10", {"10"}),
        ("error 1299 no data found", {"1299"}),
        ("error 12", set()),
        ("Runtime Errors ITAB_LINE_NOT_FOUND Except. CX_SY_ZERODIVIDE", {"itab_line_not_found", "cx_sy_zerodivide"}),
        ("EADDRINUSE ENOENT E404", {"eaddrinuse", "enoent", "e404"}),
        ("403 Forbidden, 404 Not Found, 502 Bad Gateway", {"403", "404", "502"}),
        ("it took 403 seconds", set()),
    ],
)
def test_error_codes_are_pulled_out_in_lower_case(text: str, codes: set[str]) -> None:
    assert error_codes(text) == codes


ENTRIES = """
- id: demo/cannot-find-module
  pattern: "Error: Cannot find module '...'"
  cause: Node.js cannot resolve the module from the project.
  fix: Install the dependencies.
- id: demo/permission-denied
  pattern: "permission denied: duplicate key in internal table"
  cause: The table holds a duplicate key and access to it was refused.
  fix: Check the key.
"""


@pytest.fixture
def kb(make_pack) -> KnowledgeBase:
    root = make_pack("demo", {"known_errors.yaml": textwrap.dedent(ENTRIES)})
    return KnowledgeBase.load(layers=[Layer("bundled", root)])


def test_words_in_a_pasted_path_do_not_decide_the_match(kb: KnowledgeBase) -> None:
    message = "Error: Cannot find module '@sap/cds' (/home/dev/permission/denied/duplicate/key/internal/table.js)"
    assert [e.id for _, e in find_known_errors(kb, message)][:1] == ["demo/cannot-find-module"]


def test_a_message_of_variable_parts_only_is_still_searched_as_written(kb: KnowledgeBase) -> None:
    assert strip_variable_parts("'permission_denied'") == ""
    assert [e.id for _, e in find_known_errors(kb, "'permission_denied'")][:1] == ["demo/permission-denied"]


def test_the_code_cache_is_not_fooled_by_a_reused_list_id(kb: KnowledgeBase) -> None:
    records = kb.records("known_errors")
    stale = [("demo", None)]
    _facts_cache[id(records)] = (stale, {"demo/cannot-find-module": EntryFacts.of("E999", [])})  # type: ignore[dict-item]
    try:
        facts = _facts_by_entry(records)["demo/cannot-find-module"]
    finally:
        _facts_cache.pop(id(records), None)
    assert facts.all_codes == frozenset()
    assert {"cannot", "find"} <= set(facts.wording)
