"""Transport requests (read-only here: sap-devs never creates or releases one unless enabled)."""

from __future__ import annotations

from typing import Any

from sap_devs.adt.client import AdtClient
from sap_devs.core.xml import parse_xml

TM = "{http://www.sap.com/cts/adt/tm}"


def _request(el: Any) -> dict[str, Any]:
    return {
        "number": el.get(f"{TM}number", ""),
        "description": el.get(f"{TM}desc", ""),
        "owner": el.get(f"{TM}owner", ""),
        "status": el.get(f"{TM}status_text") or el.get(f"{TM}status", ""),
        "target": el.get(f"{TM}target") or None,
        "tasks": [t.get(f"{TM}number", "") for t in el.findall(f"{TM}task")],
        "objects": [
            {"type": o.get(f"{TM}wbtype") or o.get(f"{TM}type", ""), "name": o.get(f"{TM}name", "")}
            for o in el.iter(f"{TM}abap_object")
            if o.get(f"{TM}pgmid") != "CORR"
        ],
    }


async def list_requests(client: AdtClient, user: str | None, *, released: bool = False) -> list[dict[str, Any]]:
    params = {"targets": "true"}
    if user:
        params["user"] = user
    response = await client.request(
        "GET",
        "/sap/bc/adt/cts/transportrequests",
        params=params,
        accept="application/vnd.sap.adt.transportorganizertree.v1+xml, application/xml",
    )
    root = parse_xml(response.content, source="transport list")
    out = []
    for bucket in ("modifiable", "released") if released else ("modifiable",):
        for group in root.iter(f"{TM}{bucket}"):
            out += [_request(r) for r in group.findall(f"{TM}request")]
    return out


async def read_request(client: AdtClient, number: str) -> dict[str, Any]:
    response = await client.request(
        "GET",
        f"/sap/bc/adt/cts/transportrequests/{number}",
        accept="application/vnd.sap.adt.transportorganizer.v1+xml, application/xml",
    )
    root = parse_xml(response.content, source=f"transport {number}")
    request = root.find(f"{TM}request")
    if request is None:
        from sap_devs.adt.errors import AdtError

        raise AdtError(f"Transport {number} was not found in the answer.", status=404)
    return _request(request)
