"""SAP Discovery Center: OData $batch with CSRF, the catalogue syncs and search_discovery missions."""

from __future__ import annotations

import json

import pytest

from sap_devs.core import cache
from sap_devs.live.discovery import sync as discovery_sync
from sap_devs.live.discovery.client import first_json_object, function_path, odata_string
from sap_devs.live.sync import run_sync
from sap_devs.mcp.framework import ToolContext
from tests.conftest import bundled_layer
from tests.loopback import Loopback, Route
from tests.test_sync import loopback_source
from tests.tools.test_knowledge_tools import ok

pytestmark = pytest.mark.anyio

MISSION_GROUPS = [
    {
        "name": "Application Development",
        "desc": "Build apps",
        "missions": [
            {
                "Id": 4327,
                "Name": "Develop a Full-Stack CAP Application",
                "UCLongDescription": 'Build a CAP app {with} quotes " ok',
                "Effort": "10 hours",
                "Category": "Application Development",
            },
            {"Id": 4432, "Name": "Implement Observability in a Full-Stack CAP Application", "Effort": "6 hours"},
        ],
    },
    {
        "name": "Integration",
        "missions": [{"Id": 3258, "Name": "Get Started with SAP Integration Suite"}, {"Id": 4327, "Name": "duplicate"}],
    },
]


def batch_answer(function: str, value, *, as_string: bool = True) -> bytes:
    inner = json.dumps({"d": {function: json.dumps(value) if as_string else value}})
    return (
        "--batchresponse_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + inner + "\r\n--batchresponse_1--\r\n"
    ).encode()


@pytest.fixture
def dc():
    with Loopback().running() as srv:
        srv.add("/platformx/", Route(headers={"x-csrf-token": "tok-123"}))
        yield srv


def test_odata_string_literals_are_quoted() -> None:
    assert odata_string("O'Reilly & co") == "'O''Reilly%20%26%20co'"
    assert function_path("Fn", {"a": "x y", "b": ""}) == "Fn?a='x%20y'&b=''"


def test_first_json_object_respects_strings() -> None:
    body = 'junk {"d": {"F": "a } tricky { string \\" here"}} trailing }'
    assert first_json_object(body) == {"d": {"F": 'a } tricky { string " here'}}


async def test_mission_catalogue_sync_uses_csrf_and_batch(dc) -> None:
    dc.add("/platformx/$batch", body=batch_answer("GetMissionCatalogContentV2", MISSION_GROUPS))
    source = loopback_source(discovery_sync.MISSIONS, dc)
    [result] = await run_sync([source], bases={"discovery": dc.base}, env={})
    assert result.status == "ok" and result.items == 3, result.message
    head, post = dc.requests
    assert head.method == "HEAD" and head.headers.get("x-csrf-token") == "Fetch"
    assert post.headers.get("x-csrf-token") == "tok-123"
    assert "GET GetMissionCatalogContentV2?username='' HTTP/1.1" in post.body.decode()
    missions = {m["id"]: m for m in cache.read("discovery/missions").data}
    assert missions["4327"]["effort"] == "10 hours"
    assert missions["4327"]["url"] == "https://discovery-center.cloud.sap/missiondetail/4327/"


async def test_service_catalogue_sync_keeps_known_plans(dc) -> None:
    payload = {
        "d": {
            "results": [
                {
                    "Id": "x1",
                    "Name": "SAP HANA Cloud",
                    "ShortName": "hana-cloud",
                    "Category": "Data",
                    "ShortDescription": "DB",
                    "IsDeprecatedService": False,
                },
                {"Id": "x2", "Name": "Old Thing", "ShortName": "old-thing", "IsDeprecatedService": True},
            ]
        }
    }
    dc.add("/servicecatalog/ServiceDetailss", body=json.dumps(payload).encode())
    [result] = await run_sync([loopback_source(discovery_sync.SERVICES, dc)], bases={"discovery": dc.base}, env={})
    assert result.status == "ok" and result.items == 2
    services = {s["id"]: s for s in cache.read("discovery/services").data}
    assert services["old-thing"]["deprecated"] is True
    assert any(p["name"] == "hana-free" for p in services["hana-cloud"]["plans"]), (
        "plans come from the bundled catalogue"
    )


async def test_missions_from_the_synced_catalogue(bundled_ctx) -> None:
    cache.write(
        "discovery/missions",
        [
            {
                "id": "4327",
                "name": "Develop a Full-Stack CAP Application",
                "url": "https://discovery-center.cloud.sap/missiondetail/4327/",
            }
        ],
    )
    out = await ok("search_discovery", {"query": "full-stack CAP"}, bundled_ctx)
    assert out["results"][0]["kind"] == "mission" and out["results"][0]["id"] == "4327"


async def test_missions_live_search_when_nothing_is_synced(dc, tmp_path) -> None:
    answer = {"results": [{"Id": 4441, "Name": "Get Started with SAP Build Code and Joule"}]}
    dc.add("/platformx/$batch", body=batch_answer("GetViewFuzzySearchesCustomV3", answer, as_string=False))
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()], endpoints={"discovery": dc.base})
    out = await ok("search_discovery", {"query": "Joule's code", "limit": 5}, ctx)
    assert [r["id"] for r in out["results"]] == ["4441"]
    body = dc.requests[1].body.decode()
    assert "searchString='Joule''s%20code'" in body and "top='5'" in body
    calls = len(dc.requests)
    await ok("search_discovery", {"query": "Joule's code", "limit": 5}, ctx)
    assert len(dc.requests) == calls, "the same search within an hour is served from the cache"


async def test_missions_unreachable_gives_the_seed_hint(dc, tmp_path) -> None:
    dc.routes["/platformx/"] = [Route(status=503)]
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()], endpoints={"discovery": dc.base})
    out = await ok("search_discovery", {"query": "integration"}, ctx)
    assert out["count"] == 0
    assert out["hint"].startswith("Discovery Center is not reachable. Try again later or run sap-devs sync.")
