"""check_released_api and the released-apis sync source.

The tool answers from SAP's bundled Cloudification Repository lists without an ABAP system; the
sync fetches SAP's real files (excerpts in tests/data/released-apis, the whole files from
../shared/data when present) from a loopback server standing in for raw.githubusercontent.com.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gzip
import json
from pathlib import Path

import pytest

from sap_devs.core import cache
from sap_devs.live.released_apis import lists as released_apis
from sap_devs.live.released_apis import sync as released_apis_sync
from sap_devs.live.sources import all_sources
from sap_devs.live.sync import run_sync
from sap_devs.mcp.registry import Registry
from tests.loopback import Loopback
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio
EXCERPTS = Path(__file__).resolve().parent.parent / "data" / "released-apis"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "abap-released-apis"
PREFIX = "/SAP/abap-atc-cr-cv-s4hc/main/"


async def check(ctx, names, **args) -> dict:
    return await ok("check_released_api", {"names": names, **args}, ctx)


def by_name(out: dict) -> dict[str, dict]:
    return {r["name"]: r for r in out["results"]}


# --- answers from the bundled snapshot ---------------------------------------------------------


async def test_mara_is_not_to_be_released_in_public_cloud_with_i_product_as_successor(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["MARA"])
    [mara] = out["results"]
    assert mara["found"] and mara["object_type"] == "TABL" and mara["state"] == "notToBeReleased"
    assert not mara["usable_in_abap_cloud"]
    names = [s["name"] for s in mara["successors"]]
    assert "I_PRODUCT" in names and "I_PRODUCTSALES" in names
    i_product = {"object_type": "CDS_STOB", "name": "I_PRODUCT", "tadir_object": "DDLS", "state": "released"}
    assert i_product in mara["successors"], "successors carry their own state"
    assert "not released for ABAP Cloud" in mara["note"] and "I_PRODUCT" in mara["note"]
    assert out["target"] == "SAP Cloud ERP (public cloud)"
    assert "snapshot bundled with sap-devs" in out["data_source"] and "2026-08-18" in out["data_source"]
    assert "only objects whose state is 'released'" in out["hint"] and "sap-devs sync" in out["hint"]


async def test_bapi_po_create1_points_to_the_purchase_order_rap_bo_any_case(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["  bapi_po_create1 "])
    [bapi] = out["results"]
    assert (
        bapi["name"] == "BAPI_PO_CREATE1" and bapi["object_type"] == "FUNC" and bapi["type_name"] == "function module"
    )
    assert bapi["tadir_object"] == "FUGR" and bapi["tadir_name"] == "2012"
    assert bapi["successors"] == [{"object_type": "BDEF", "name": "I_PURCHASEORDERTP_2", "state": "released"}]
    assert "use I_PURCHASEORDERTP_2 (BDEF, released) instead" in bapi["note"]
    assert "clean_core_level" not in bapi, "the clean core level is for private cloud only"


async def test_released_objects_say_so_and_need_no_successor(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["CL_ABAP_CHAR_UTILITIES", "I_PRODUCT"])
    results = by_name(out)
    assert results["CL_ABAP_CHAR_UTILITIES"]["state"] == "released"
    assert results["I_PRODUCT"]["usable_in_abap_cloud"] and results["I_PRODUCT"]["type_name"] == "CDS entity"
    assert all(not r["successors"] for r in out["results"])
    assert out["hint"].startswith("All checked objects are released for ABAP Cloud.")


async def test_unknown_name_is_said_plainly(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["NO_SUCH_SAP_OBJECT_XYZ", "ZCL_MY_OWN_CLASS"])
    unknown, custom = out["results"]
    assert unknown == {
        "name": "NO_SUCH_SAP_OBJECT_XYZ",
        "found": False,
        "usable_in_abap_cloud": False,
        "successors": [],
        "labels": [],
        "note": "NO_SUCH_SAP_OBJECT_XYZ is not in SAP's list for SAP Cloud ERP (public cloud): not released for "
        "ABAP Cloud; check the spelling or use a released successor.",
    }
    assert "customer objects" in custom["note"]


async def test_private_target_adds_the_classic_api_clean_core_level(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["BAPI_PO_CREATE1", "CL_ABAP_CHAR_UTILITIES"], target="private")
    results = by_name(out)
    bapi = results["BAPI_PO_CREATE1"]
    assert bapi["state"] == "notToBeReleased" and bapi["classification"] == "classicAPI"
    assert bapi["clean_core_level"].startswith("B") and "remote-enabled (RFC)" in bapi["labels"]
    assert "classic API (clean core level B)" in bapi["note"]
    assert results["CL_ABAP_CHAR_UTILITIES"]["clean_core_level"].startswith("A")
    assert out["target"] == "SAP Cloud ERP Private / on-premise"
    assert "Classic ABAP may use classic APIs" in out["hint"]


async def test_private_target_knows_classic_and_no_api_objects_outside_the_release_list(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["/APE/C_APIDEFINITION", "CF_REBD_BUILDING"], target="private")
    classic, no_api = out["results"]
    assert classic["state"] == "classicAPI" and classic["clean_core_level"].startswith("B")
    assert not classic["usable_in_abap_cloud"]
    assert no_api["state"] == "noAPI" and no_api["clean_core_level"].startswith("D")
    assert no_api["successors"][0]["name"] == "BAPI_RE_BU_GET_DETAIL"
    assert "SAP classifies it as noAPI" in no_api["note"]


async def test_btp_target_says_where_else_a_name_is_listed(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["MARA"], target="btp")
    [mara] = out["results"]
    assert not mara["found"]
    assert "not in SAP's list for SAP BTP ABAP environment" in mara["note"]
    assert "SAP Cloud ERP (public cloud) (notToBeReleased)" in mara["note"]


async def test_object_type_filter_matches_sap_or_repository_type(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["I_PRODUCT"], object_type="ddls")
    assert out["results"][0]["object_type"] == "CDS_STOB" and out["results"][0]["found"]
    out = await check(bundled_ctx, ["MARA"], object_type="CLAS")
    [mara] = out["results"]
    assert not mara["found"] and "listed as TABL" in mara["note"]


async def test_a_name_of_two_object_types_gives_one_result_each(bundled_ctx) -> None:
    out = await check(bundled_ctx, ["char10", "CHAR10"], target="private")
    assert out["count"] == 2 and {r["object_type"] for r in out["results"]} == {"DTEL", "DOMA"}


@pytest.mark.parametrize(
    "args, complaint",
    [
        ({"names": []}, "names"),
        ({"names": [f"N{i}" for i in range(51)]}, "names"),
        ({"names": ["X" * 121]}, "names"),
        ({"names": ["   "]}, "names"),
        ({"names": ["MARA"], "target": "mainframe"}, "target"),
        ({"names": ["MARA"], "object_type": "TA BL"}, "object_type"),
    ],
)
async def test_bad_input_is_refused_with_the_parameter_named(bundled_ctx, args, complaint) -> None:
    outcome = await call("check_released_api", args, bundled_ctx)
    assert outcome.is_error and complaint in outcome.text


def test_tool_needs_no_abap_system_and_is_in_every_environment() -> None:
    for environment in ("onprem", "cloud", "legacy"):
        tool = Registry.default(environment=environment).get("check_released_api")
        assert tool is not None and not tool.needs_system
        assert "check_released_api" in (tool.instruction or "")


# --- the sync source --------------------------------------------------------------------------


def loopback_source(server: Loopback):
    source = released_apis_sync.SOURCE
    policy = dataclasses.replace(source.policy, allowed_hosts=source.policy.allowed_hosts | {"127.0.0.1"}, retries=0)
    return dataclasses.replace(source, policy=policy)


def serve(server: Loopback, folder: Path, *, skip: tuple[str, ...] = (), gzipped: bool = False) -> None:
    for section, path in released_apis.UPSTREAM_FILES.items():
        if section in skip:
            continue
        local = folder / (Path(path).name + (".gz" if gzipped else ""))
        body = gzip.decompress(local.read_bytes()) if gzipped else local.read_bytes()
        server.add(PREFIX + path, body=body)


async def sync(server: Loopback):
    [result] = await run_sync([loopback_source(server)], bases={"github_raw": server.base}, env={}, force=True)
    return result


@pytest.fixture
def server():
    with Loopback().running() as srv:
        yield srv


def test_sync_knows_the_source_and_fetches_only_from_github_raw() -> None:
    source = next(s for s in all_sources() if s.name == "released-apis")
    assert source.policy.allowed_hosts == frozenset({"raw.githubusercontent.com"})
    assert released_apis_sync.BASES == {"github_raw": "https://raw.githubusercontent.com"}


async def test_sync_of_sap_files_makes_the_tool_answer_from_the_cache(server, bundled_ctx) -> None:
    serve(server, EXCERPTS)
    result = await sync(server)
    assert result.status == "ok", result.message
    assert sorted(r.path for r in server.requests) == sorted(PREFIX + p for p in released_apis.UPSTREAM_FILES.values())
    out = await check(bundled_ctx, ["mara", "BAPI_PO_CREATE1", "CL_BAL_LOGGING"], target="private")
    results = by_name(out)
    assert "I_PRODUCT" in [s["name"] for s in results["MARA"]["successors"]]
    assert results["BAPI_PO_CREATE1"]["clean_core_level"].startswith("B")
    assert results["CL_BAL_LOGGING"]["state"] == "deprecated"
    assert "CL_BALI_LOG" in [s["name"] for s in results["CL_BAL_LOGGING"]["successors"]]
    assert out["data_source"].startswith("cache synced 0 min ago")
    assert "sap-devs sync" not in out["hint"], "a fresh cache needs no advice to sync"
    # the excerpt lists only a few dozen objects: an object absent from it is now unknown
    out = await check(bundled_ctx, ["I_PRODUCTSALES"])
    assert not out["results"][0]["found"]


async def test_a_failed_file_keeps_the_previous_sync_of_that_list(server, bundled_ctx) -> None:
    serve(server, EXCERPTS)
    assert (await sync(server)).status == "ok"
    before = cache.read(released_apis.CACHE_NAME).data["sections"]["cloud"]
    server.routes.clear()
    serve(server, EXCERPTS, skip=("cloud",))
    server.add(PREFIX + released_apis.UPSTREAM_FILES["cloud"], status=500, body=b"upstream broke")
    result = await sync(server)
    assert result.status == "ok"
    assert "kept the SAP Cloud ERP (public cloud) list from the previous sync" in result.message
    assert "HTTP 500" in result.message
    assert cache.read(released_apis.CACHE_NAME).data["sections"]["cloud"] == before


async def test_a_broken_file_without_a_previous_sync_takes_the_bundled_list(server, bundled_ctx) -> None:
    serve(server, EXCERPTS, skip=("private",))
    server.add(PREFIX + released_apis.UPSTREAM_FILES["private"], body=b"<html>rate limited</html>")
    result = await sync(server)
    assert result.status == "ok" and "list from the bundled snapshot" in result.message
    assert "is not SAP's list" in result.message
    data = cache.read(released_apis.CACHE_NAME).data
    assert data["sections"]["private"] == released_apis.load_baseline().data["sections"]["private"]
    assert data["as_of"]["private"] == "2026-08-18"
    out = await check(bundled_ctx, ["I_PRODUCTSALES"], target="private")
    assert out["results"][0]["state"] == "released"


async def test_when_every_file_fails_the_previous_cache_stays(server, bundled_ctx) -> None:
    serve(server, EXCERPTS)
    assert (await sync(server)).status == "ok"
    path = cache.cache_file(released_apis.CACHE_NAME)
    saved = path.read_bytes()
    server.routes.clear()  # every request now answers 404
    result = await sync(server)
    assert result.status == "stale" and "keeping the cached copy" in result.message
    assert path.read_bytes() == saved


async def test_first_sync_failing_everywhere_leaves_the_bundled_answer(server, bundled_ctx) -> None:
    result = await sync(server)
    assert result.status == "failed" and "every released-API file failed" in result.message
    out = await check(bundled_ctx, ["MARA"])
    assert "snapshot bundled" in out["data_source"]


async def test_stale_cache_says_how_old_and_corrupt_cache_falls_back(server, bundled_ctx) -> None:
    data = released_apis.load_baseline().data
    cache.write(released_apis.CACHE_NAME, data, fetched_at=dt.datetime.now(dt.UTC) - dt.timedelta(days=30))
    out = await check(bundled_ctx, ["MARA"])
    assert out["data_source"].startswith("cache synced 30 days ago")
    assert "The cached list is 30 days old" in out["hint"]
    cache.write(released_apis.CACHE_NAME, {"format": 1, "sections": {"cloud": "nonsense"}})
    out = await check(bundled_ctx, ["MARA"])
    assert "snapshot bundled" in out["data_source"] and out["results"][0]["state"] == "notToBeReleased"


@pytest.mark.skipif(not SHARED.is_dir(), reason="SAP's full files are in ../shared/data only in the project workspace")
async def test_sync_of_the_full_sap_files_matches_the_bundled_snapshot(server, bundled_ctx) -> None:
    serve(server, SHARED, gzipped=True)
    result = await sync(server)
    assert result.status == "ok" and result.items == 20224 + 40413 + 7023
    synced = cache.read(released_apis.CACHE_NAME).data
    assert synced["sections"] == released_apis.load_baseline().data["sections"]
    out = await check(bundled_ctx, ["BAPI_PO_CREATE1"])
    assert out["results"][0]["successors"][0]["name"] == "I_PURCHASEORDERTP_2"
    assert json.loads(json.dumps(out))["data_source"].startswith("cache synced")


async def test_onprem_is_the_private_list_as_elsewhere_in_sap_devs(bundled_ctx) -> None:
    """The rest of sap-devs says onprem for an on-premise system; the tool takes that word too (issue 30)."""
    onprem = await check(bundled_ctx, ["BAPI_PO_CREATE1", "MARA"], target="onprem")
    private = await check(bundled_ctx, ["BAPI_PO_CREATE1", "MARA"], target="private")
    assert onprem == private and "on-premise" in onprem["target"]
