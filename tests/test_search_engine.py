"""The ranking engine on small hand-made corpora: analysis, synonyms, typos, error messages, filters."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sap_devs.knowledge.error_text import error_codes, strip_variable_parts
from sap_devs.search import Field, Index, analyze, rank
from sap_devs.search.analysis import stem


@dataclass(frozen=True)
class Doc:
    id: str
    title: str
    body: str = ""
    tags: str = ""


DOCS = [
    Doc("deploy-cf", "Deploy a CAP application to Cloud Foundry", "Use mbt build and cf deploy.", "cap cf mta"),
    Doc("ui5-app", "Create an SAPUI5 freestyle app", "Controllers, views and manifest.json.", "ui5 fiori"),
    Doc("bas-setup", "Set up SAP Business Application Studio", "Dev spaces for CAP and Fiori.", "bas"),
    Doc("abap-dump", "Analyse the short dump CX_SY_ZERODIVIDE", "Runtime error COMPUTE_INT_ZERODIVIDE.", "abap"),
    Doc("kyma-helm", "Deploy to SAP BTP, Kyma runtime with Helm", "kubectl and helm charts.", "kyma"),
    Doc("s4-ext", "Extend SAP S/4HANA Cloud with side-by-side apps", "Events and APIs.", "s4hana"),
    Doc("node-api", "Build a REST API with Node.js", "Express on Cloud Foundry.", "nodejs"),
]
FIELDS = [Field("title", 3.0), Field("tags", 2.0), Field("body", 1.0)]


def search(query: str, **kw) -> list[str]:
    return [d.id for d in rank(query, DOCS, FIELDS, lambda d: {"title": d.title, "tags": d.tags, "body": d.body}, **kw)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("getKnownErrors", ["known", "error"]),
        ("minUI5Version", ["min", "ui5", "version"]),
        ("XSUAA scopes", ["xsuaa", "scop"]),
        ("deployments running", ["deploy", "run"]),
        ("CX_SY_ZERODIVIDE", ["cx_sy_zerodivide", "cx", "sy", "zerodivid"]),
        ("Cloud Foundry", ["cf"]),
        ("cloud application programming model", ["cap"]),
        ("SAPUI5 and OpenUI5", ["ui5", "ui5"]),
        ("S/4HANA", ["s4hana"]),
        ("my-app/webapp/manifest.json", ["app", "webapp", "manifest", "json"]),
        # a developer's contractions are the words written out, not stray terms "isn", "t" and "s"
        ("the app isn't starting", ["app", "start"]),
        ("I can’t bind it and it won't deploy", ["bind", "will", "deploy"]),
        ("we're sure they'll deploy", ["sure", "deploy"]),  # "they" is a stop word
        ("WRITE 's'.", ["writ", "s"]),
        # keys as bindings write them joined and as prose writes them apart are one term each
        ("client id and client_secret", ["clientid", "clientsecret"]),
        ("cf create-service-key, Service Keys", ["cf", "creat", "servicekey", "servicekey"]),
        ("fall back to a second model", ["fallback", "second", "model"]),
        # an acronym's plural is one word, not a camelCase break ("AP" + "Is"); camelCase around it still splits
        ("APIs and URLs", ["api", "urls"]),
        ("getAPIsList", ["api", "list"]),
    ],
)
def test_analysis(text: str, expected: list[str]) -> None:
    assert analyze(text) == expected


def test_stemming_joins_word_forms() -> None:
    assert stem("deploying") == stem("deployment") == stem("deployed") == stem("deploy")
    assert stem("required") == stem("require") and stem("errors") == stem("error")
    assert stem("cds") == "cds" and stem("class") == "class"


def test_question_words_do_not_matter() -> None:
    assert search("how do I deploy my CAP app to CF")[0] == "deploy-cf"


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("cloud foundry deployment", "deploy-cf"),
        ("CF deploy", "deploy-cf"),
        ("cloud application programming model deploy", "deploy-cf"),
        ("BAS", "bas-setup"),
        ("business application studio", "bas-setup"),
        ("openui5 app", "ui5-app"),
        ("S4 extension", "s4-ext"),
        ("kubernetes", "kyma-helm"),
        ("node.js rest api", "node-api"),
    ],
)
def test_synonyms(query: str, first: str) -> None:
    assert search(query)[0] == first


@pytest.mark.parametrize(
    ("query", "first"), [("kyam helm", "kyma-helm"), ("deplyo cap", "deploy-cf"), ("zerodivid", "abap-dump")]
)
def test_typo_and_prefix_tolerance(query: str, first: str) -> None:
    assert search(query)[0] == first


def test_exact_words_beat_typo_guesses() -> None:
    assert search("helm")[0] == "kyma-helm"
    assert search("xyzzy plugh") == []


def test_filters_stay_exact_and_ranking_orders_what_passes() -> None:
    assert search("deploy", allow=lambda d: d.id != "deploy-cf") == ["kyma-helm"]
    assert search("deploy", allow=lambda d: False) == []


def test_empty_query_keeps_order_and_filters() -> None:
    assert search("") == [d.id for d in DOCS]
    assert search("", allow=lambda d: "cap" in d.tags) == ["deploy-cf"]


def test_phrase_and_id_bonus() -> None:
    docs = [Doc("a", "Managing org members", "roles and quotas"), Doc("b", "Members of an org", "managing quotas")]
    index = Index(docs, FIELDS, lambda d: {"title": d.title, "tags": d.tags, "body": d.body}, id_of=lambda d: d.id)
    assert next(d.id for d in index.search("managing org members")) == "a"
    assert next(d.id for d in index.search("b")) == "b"


def test_index_is_built_once_per_corpus_list() -> None:
    from sap_devs.search import index_for

    text = lambda d: {"title": d.title}  # noqa: E731
    assert index_for(DOCS, FIELDS, text) is index_for(DOCS, FIELDS, text)
    assert index_for(list(DOCS), FIELDS, text) is not index_for(DOCS, FIELDS, text)


@pytest.mark.parametrize(
    ("message", "kept", "dropped"),
    [
        (
            "Table 'MY_TABLE' not found at /home/me/app/db/schema.cds",
            ["Table", "not found at"],
            ["MY_TABLE", "/home/me"],
        ),
        (
            "request 3f2504e0-4f89-11d3-9a0c-0305e82c3301 failed at 2026-11-29T10:00:00Z",
            ["request", "failed"],
            ["3f25", "2026"],
        ),
        ("see https://example.com/x?y=1 for details", ["see", "for details"], ["https"]),
        ("no such table: sap_capire_bookshop_Books", ["no such table"], ["sap_capire"]),
        ("Runtime error CX_SY_ZERODIVIDE", ["CX_SY_ZERODIVIDE"], []),
        (
            '{"error":"insufficient_scope","error_description":"Insufficient scope for this resource"}',
            ["Insufficient scope"],
            [],
        ),
    ],
)
def test_error_messages_lose_their_variable_parts(message: str, kept: list[str], dropped: list[str]) -> None:
    cleaned = strip_variable_parts(message)
    assert all(k in cleaned for k in kept), cleaned
    assert not any(d in cleaned for d in dropped), cleaned


@pytest.mark.parametrize(
    ("message", "codes"),
    [
        ("SAP DBTech JDBC: [258]: insufficient privilege", {"258"}),
        ("SQL error 301 unique constraint violated", {"301"}),
        (
            "Runtime error ITAB_LINE_NOT_FOUND, exception CX_SY_ITAB_LINE_NOT_FOUND",
            {"itab_line_not_found", "cx_sy_itab_line_not_found"},
        ),
        ("the object cannot be provided more than once [8212002]", {"8212002"}),
        ("npm ERR! code E404", {"e404"}),
        ("Error: listen EADDRINUSE", {"eaddrinuse"}),
        ("HTTP 403 Forbidden", {"403"}),
    ],
)
def test_error_codes_are_extracted(message: str, codes: set[str]) -> None:
    assert codes <= error_codes(message)


def test_error_code_match_wins_over_word_overlap(make_pack) -> None:
    from sap_devs.knowledge.base import KnowledgeBase
    from sap_devs.knowledge.layer_paths import Layer
    from sap_devs.knowledge.queries import find_known_errors

    root = make_pack(
        "demo",
        {
            "known_errors.yaml": """
            - id: demo/priv
              pattern: "SAP DBTech JDBC: [258]: insufficient privilege"
              cause: The user lacks a privilege on a table.
              fix: Grant it.
            - id: demo/table
              pattern: "SAP DBTech JDBC: [259]: invalid table name"
              cause: The table does not exist or privilege lookups on the table fail.
              fix: Deploy the table.
            """
        },
    )
    kb = KnowledgeBase.load(layers=[Layer("l", root)])
    hits = find_known_errors(kb, "error 258 on table ORDERS: insufficient privilege on table")
    assert hits[0][1].id == "demo/priv"
    assert find_known_errors(kb, "SQL error 259 table")[0][1].id == "demo/table"


def test_a_60000_letter_query_is_analysed_whole_and_never_typo_expanded(monkeypatch) -> None:
    from sap_devs.search import engine

    expanded: list[int] = []
    real_deletes = engine._deletes
    monkeypatch.setattr(engine, "_deletes", lambda term: expanded.append(len(term)) or real_deletes(term))
    index = engine.Index(["deploy the app"], [engine.Field("t")], lambda r: {"t": r})
    assert analyze("a" * 60_000) == ["a" * 60_000]
    assert analyze("zcl_" + "b" * 60_000) == ["zcl_" + "b" * 60_000, "zcl", "b" * 60_000]
    assert index.search("deplyo " + "q" * 60_000) == ["deploy the app"]  # the typo still found, the giant skipped
    assert expanded and max(expanded) <= engine.FUZZY_MAX_LENGTH


def test_a_query_keeps_only_its_first_terms() -> None:
    from sap_devs.search import engine

    words = [f"w{i}x" for i in range(engine.MAX_QUERY_TERMS)]
    index = engine.Index(["needle", "w1x"], [engine.Field("t")], lambda r: {"t": r})
    assert index.search(" ".join([*words, "needle"])) == ["w1x"]
    assert index.search(" ".join(["needle", *words])) == ["needle", "w1x"]
