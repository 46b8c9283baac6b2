"""Syncing SAP Discovery Center: the mission catalogue and the BTP service catalogue."""

from __future__ import annotations

from typing import Any

from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.live.discovery import missions, services
from sap_devs.live.discovery.client import BASES, HOSTS, call_function, flatten_catalogue
from sap_devs.live.sync import FetchContext, Source

SERVICE_FIELDS = "Id,Name,ShortName,Category,ShortDescription,LicenseModelType,IsDeprecatedService"


async def fetch_missions(http: Http, ctx: FetchContext) -> list[dict[str, Any]]:
    value = await call_function(http, ctx.bases["discovery"], "GetMissionCatalogContentV2", {"username": ""})
    found = flatten_catalogue(value)
    ctx.tick(len(found), len(found))
    return found


def normalise_service(record: Any) -> dict[str, Any] | None:
    if not isinstance(record, dict) or not record.get("Name"):
        return None
    short = record.get("ShortName") or record.get("Id")
    return {
        "id": str(short),
        "name": " ".join(str(record["Name"]).split()),
        "category": str(record.get("Category") or "service").lower(),
        "description": " ".join(str(record.get("ShortDescription") or "").split()),
        "discovery_center": f"https://discovery-center.cloud.sap/serviceCatalog/{short}" if short else None,
        "deprecated": bool(record.get("IsDeprecatedService")),
        "plans": [],
    }


async def fetch_services(http: Http, ctx: FetchContext) -> list[dict[str, Any]]:
    url = ctx.url("discovery", f"/servicecatalog/ServiceDetailss?$format=json&$select={SERVICE_FIELDS}")
    payload = (await http.get(url, headers={"Accept": "application/json", "DataServiceVersion": "2.0"})).json()
    results = ((payload or {}).get("d") or {}).get("results") if isinstance(payload, dict) else None
    if not isinstance(results, list):
        raise FetchError("the service catalogue answer has no d.results list", retryable=False)
    synced = [s for s in (normalise_service(r) for r in results) if s]
    # keep the plans and documentation links the bundled catalogue knows for the same service
    known = {s.id: s for s in services.load_baseline()}
    for service in synced:
        baseline = known.get(service["id"])
        if baseline is not None:
            service["plans"] = [p.model_dump() for p in baseline.plans]
            service["documentation"] = baseline.documentation
    ctx.tick(len(synced), len(synced))
    return synced


_POLICY = Policy(allowed_hosts=HOSTS, read_timeout=15.0, max_bytes=20 * 1024 * 1024, retries=2)

MISSIONS = Source(
    name="missions",
    title="SAP Discovery Center missions",
    cache_name=missions.CACHE_NAME,
    ttl=missions.TTL,
    policy=_POLICY,
    fetch=fetch_missions,
    budget=60.0,
)
SERVICES = Source(
    name="services",
    title="SAP BTP service catalogue",
    cache_name=services.CACHE_NAME,
    ttl=services.TTL,
    policy=_POLICY,
    fetch=fetch_services,
    budget=60.0,
    bundled=services.bundled,
)
__all__ = ["BASES", "MISSIONS", "SERVICES"]
