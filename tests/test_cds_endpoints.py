"""The HTTP paths CAP serves services at, by @sap/cds 10's rules (checked against CAP itself in
tests/test_cds_tools.py)."""

from __future__ import annotations

from sap_devs.toolchain.cds_endpoints import Endpoint, endpoints, entity_url, protocols, slugified

TABLE = protocols(None)


def test_default_path_is_the_kebab_case_name_without_service_under_odata_v4() -> None:
    assert slugified("my.very.CatalogService") == "catalog"
    assert slugified("ODataFooBarX9Service") == "odata-foo-bar-x9"
    assert slugified("foo_bar_baz") == "foo-bar-baz"
    assert slugified("Service") == ""
    assert endpoints("sap.capire.bookshop.AdminService", {"kind": "service"}, TABLE) == [
        Endpoint("odata", "/odata/v4/admin")
    ]


def test_path_annotation_absolute_and_relative() -> None:
    assert endpoints("TravelService", {"kind": "service", "@path": "/processor"}, TABLE) == [
        Endpoint("odata", "/processor")
    ]
    assert endpoints("CatalogService", {"kind": "service", "@path": "browse"}, TABLE) == [
        Endpoint("odata", "/odata/v4/browse")
    ]


def test_protocol_annotations() -> None:
    both = {"kind": "service", "@odata": True, "@rest": "/my-rest"}
    assert endpoints("BothService", both, TABLE) == [Endpoint("odata", "/odata/v4/both"), Endpoint("rest", "/my-rest")]
    listed = {"kind": "service", "@protocol": ["odata-v2", {"kind": "rest", "path": "r"}], "@path": "p"}
    assert endpoints("X", listed, TABLE) == [Endpoint("odata-v2", "/odata/v2/p"), Endpoint("rest", "/rest/r")]
    assert endpoints("X", {"kind": "service", "@protocol": "none"}, TABLE) == []
    assert endpoints("X", {"kind": "service", "@protocol": "graphql"}, TABLE) == []  # unknown: CAP skips it
    assert endpoints("X", {"kind": "entity"}, TABLE) == []


def test_project_protocols_move_prefixes_and_add_kinds() -> None:
    table = protocols({"protocols": {"odata-v4": "/api/", "graphql": {"path": "/graphql"}}})
    assert table["odata"] == "/api"
    assert endpoints("CatalogService", {"kind": "service"}, table) == [Endpoint("odata", "/api/catalog")]
    assert endpoints("G", {"kind": "service", "@graphql": True}, table) == [Endpoint("graphql", "/graphql/g")]


def test_entity_urls() -> None:
    assert entity_url(Endpoint("odata", "/browse"), "Books.texts") == "/browse/Books_texts"
    assert entity_url(Endpoint("rest", "/rest/cat"), "Books") == "/rest/cat/Books"
    assert entity_url(Endpoint("hcql", "/hcql/cat"), "Books") is None
