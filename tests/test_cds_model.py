"""A compiled CSN as searchable definitions, without Node: kinds, elements, associations, URLs, search."""

from __future__ import annotations

import time
from typing import Any

from sap_devs.toolchain.cds_model import MAX_ELEMENTS, build_model, search


def _loc(file: str, line: int, col: int = 1) -> dict[str, Any]:
    return {"file": file, "line": line, "col": col}


# The shape @sap/cds-compiler 7 gives with withLocations (abridged from the bookshop sample)
CSN: dict[str, Any] = {
    "definitions": {
        "sap.capire.bookshop.Books": {
            "kind": "entity",
            "includes": ["managed"],
            "@title": "Books",
            "doc": "Books in stock",
            "elements": {
                "ID": {"key": True, "type": "cds.Integer", "$location": _loc("db/schema.cds", 6, 3)},
                "title": {
                    "type": "cds.String",
                    "length": 111,
                    "@mandatory": True,
                    "$location": _loc("db/schema.cds", 7, 3),
                },
                "author": {
                    "type": "cds.Association",
                    "target": "sap.capire.bookshop.Authors",
                    "keys": [{"ref": ["ID"]}],
                    "$location": _loc("db/schema.cds", 8, 3),
                },
                "genre": {"type": "cds.Association", "target": "sap.capire.bookshop.Genres", "keys": [{"ref": ["ID"]}]},
                "price": {"type": "cds.Decimal", "precision": 9, "scale": 2},
            },
            "$location": _loc("db/schema.cds", 5, 8),
        },
        "sap.capire.bookshop.Authors": {
            "kind": "entity",
            "elements": {
                "ID": {"key": True, "type": "cds.Integer"},
                "name": {"type": "cds.String", "length": 111},
                "books": {
                    "type": "cds.Association",
                    "cardinality": {"max": "*"},
                    "target": "sap.capire.bookshop.Books",
                    "on": [{"ref": ["books", "author"]}, "=", {"ref": ["$self"]}],
                },
            },
            "$location": _loc("db/schema.cds", 14, 8),
        },
        "sap.capire.bookshop.Genres": {"kind": "entity", "elements": {"ID": {"key": True, "type": "cds.Integer"}}},
        "sap.capire.bookshop.Status": {
            "kind": "type",
            "type": "cds.String",
            "enum": {"open": {"val": "O"}, "closed": {"val": "C"}},
            "$location": _loc("db/schema.cds", 30, 6),
        },
        "managed": {
            "kind": "aspect",
            "elements": {"createdAt": {"type": "cds.Timestamp"}},
            "$location": _loc("@sap/cds/common.cds", 128),
        },
        "CatalogService": {"kind": "service", "@path": "/browse", "$location": _loc("srv/cat-service.cds", 3, 9)},
        "CatalogService.Books": {
            "kind": "entity",
            "@readonly": True,
            "projection": {"from": {"ref": ["sap.capire.bookshop.Books"]}},
            "elements": {"ID": {"key": True, "type": "cds.Integer"}, "title": {"type": "cds.String", "length": 111}},
            "actions": {"addReview": {"kind": "action", "params": {"rating": {"type": "cds.Integer"}}}},
            "$location": _loc("srv/cat-service.cds", 5, 20),
        },
        "CatalogService.ListOfBooks": {
            "kind": "entity",
            "query": {"SELECT": {"from": {"ref": ["CatalogService.Books"]}}},
            "elements": {"ID": {"key": True, "type": "cds.Integer"}},
        },
        "CatalogService.submitOrder": {
            "kind": "action",
            "params": {"book": {"type": "cds.Integer"}, "quantity": {"type": "cds.Integer"}},
            "returns": {"type": "cds.Integer"},
            "$location": _loc("srv/cat-service.cds", 20, 10),
        },
        "CatalogService.stock": {"kind": "function", "returns": {"type": "cds.Integer"}},
        "CatalogService.OrderedBook": {"kind": "event", "elements": {"book": {"type": "cds.Integer"}}},
        "AdminService": {"kind": "service", "@odata": True, "@rest": True},
        "AdminService.Authors": {"kind": "entity", "projection": {"from": {"ref": ["sap.capire.bookshop.Authors"]}}},
    }
}


def test_kinds_elements_and_associations() -> None:
    model = build_model(CSN)
    books = model.by_name("sap.capire.bookshop.Books")
    assert books is not None and books.kind == "entity" and books.includes == ["managed"]
    assert books.location is not None and (books.location.file, books.location.line) == ("db/schema.cds", 5)
    assert books.doc == "Books in stock"
    by = {e.name: e for e in books.elements}
    assert by["ID"].key and by["ID"].type == "cds.Integer"
    assert by["title"].type == "cds.String(111)" and by["title"].annotations == {"@mandatory": "true"}
    assert by["price"].type == "cds.Decimal(9,2)"
    assert (by["author"].relation, by["author"].target, by["author"].cardinality) == (
        "association",
        "sap.capire.bookshop.Authors",
        "one",
    )
    authors = model.by_name("sap.capire.bookshop.Authors")
    assert authors is not None
    books_of = next(e for e in authors.elements if e.name == "books")
    assert books_of.cardinality == "many" and books_of.on == "books.author = $self"
    assert model.by_name("CatalogService.Books").kind == "projection"  # type: ignore[union-attr]
    assert model.by_name("CatalogService.ListOfBooks").kind == "view"  # type: ignore[union-attr]
    status = model.by_name("sap.capire.bookshop.Status")
    assert status is not None and status.kind == "type"


def test_services_endpoints_and_urls() -> None:
    model = build_model(CSN)
    cat = model.by_name("CatalogService")
    assert cat is not None and [(e.protocol, e.path) for e in cat.endpoints] == [("odata", "/browse")]
    assert cat.urls == ["/browse/Books", "/browse/ListOfBooks"]  # every entity it serves
    assert model.by_name("CatalogService.Books").urls == ["/browse/Books"]  # type: ignore[union-attr]
    assert model.by_name("CatalogService.submitOrder").urls == ["/browse/submitOrder"]  # type: ignore[union-attr]
    assert model.by_name("CatalogService.stock").urls == ["/browse/stock()"]  # type: ignore[union-attr]
    bound = model.by_name("CatalogService.Books:addReview")
    assert bound is not None and bound.bound_to == "CatalogService.Books" and bound.kind == "action"
    assert bound.urls == ["/browse/Books(ID=…)/CatalogService.addReview"]
    assert [p.name for p in bound.params] == ["rating"]
    admin = model.by_name("AdminService")
    assert admin is not None and [e.path for e in admin.endpoints] == ["/odata/v4/admin", "/rest/admin"]
    assert model.by_name("AdminService.Authors").urls == ["/odata/v4/admin/Authors", "/rest/admin/Authors"]  # type: ignore[union-attr]
    assert model.by_name("sap.capire.bookshop.Books").urls == []  # type: ignore[union-attr]


def test_files_are_renamed_for_display() -> None:
    model = build_model(CSN, shown=lambda f: "shown/" + f)
    books = model.by_name("sap.capire.bookshop.Books")
    assert books is not None and books.location is not None and books.location.file == "shown/db/schema.cds"
    assert books.elements[0].location is not None and books.elements[0].location.file == "shown/db/schema.cds"


def test_search_exact_names_first_fuzzy_and_by_kind() -> None:
    model = build_model(CSN)
    assert [d.name for d in search(model, "Books")[:2]] == ["sap.capire.bookshop.Books", "CatalogService.Books"]
    assert search(model, "catalogservice")[0].name == "CatalogService"
    assert "sap.capire.bookshop.Authors" in [d.name for d in search(model, "authers")]  # a typo
    assert [d.name for d in search(model, "Books", kind="projection")] == ["CatalogService.Books"]
    assert {d.name for d in search(model, "*", kind="entity")} == {
        "sap.capire.bookshop.Books",
        "sap.capire.bookshop.Authors",
        "sap.capire.bookshop.Genres",
        "CatalogService.Books",
        "CatalogService.ListOfBooks",
        "AdminService.Authors",
    }
    assert {d.name for d in search(model, "*", kind="view")} == {
        "CatalogService.Books",
        "CatalogService.ListOfBooks",
        "AdminService.Authors",
    }
    assert [d.name for d in search(model, "*", kind="event")] == ["CatalogService.OrderedBook"]
    assert [d.name for d in search(model, "quantity")] == ["CatalogService.submitOrder"]  # a parameter
    assert search(model, "zzzz nothing") == []


def test_huge_model_is_bounded() -> None:
    elements = {f"e{i}": {"type": "cds.String", "@title": "x" * 1000} for i in range(1000)}
    definitions: dict[str, Any] = {"S": {"kind": "service"}}
    for i in range(20_000):
        definitions[f"S.E{i}"] = {
            "kind": "entity",
            "elements": elements if i == 0 else {"ID": {"key": True, "type": "cds.UUID"}},
        }
    started = time.perf_counter()
    model = build_model({"definitions": definitions})
    hits = search(model, "E19999")
    elapsed = time.perf_counter() - started
    big = model.by_name("S.E0")
    assert big is not None and len(big.elements) == MAX_ELEMENTS and big.elements_total == 1000
    assert len(big.elements[0].annotations["@title"]) == 240  # values are cut
    assert hits[0].name == "S.E19999" and hits[0].urls == ["/odata/v4/s/E19999"]
    print(f"20,000 entities built and searched in {elapsed:.2f} s")


def test_not_a_csn_gives_an_empty_model() -> None:
    assert build_model({"definitions": "nope"}).definitions == []
    assert build_model({}).definitions == []
