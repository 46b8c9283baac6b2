"""Transport requests: list and read; create and release only when the user enabled transports."""

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


ORGANIZER = "application/vnd.sap.adt.transportorganizer.v1+xml"
CHKRUN = "{http://www.sap.com/adt/checkrun}"


async def create_request(client: AdtClient, description: str, *, target: str | None, owner: str | None) -> str:
    """A new workbench request (with a task for ``owner``); its number."""
    from xml.sax.saxutils import quoteattr

    task = f"<tm:task tm:owner={quoteattr(owner)}/>" if owner else ""
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<tm:root xmlns:tm="http://www.sap.com/cts/adt/tm" tm:useraction="newrequest">'
        f'<tm:request tm:desc={quoteattr(description)} tm:type="K" tm:target={quoteattr(target or "LOCAL")} '
        f'tm:cts_project="">{task}</tm:request></tm:root>'
    )
    response = await client.request(
        "POST", "/sap/bc/adt/cts/transportrequests", accept=ORGANIZER, content_type="text/plain", body=body
    )
    request = parse_xml(response.content, source="new transport").find(f"{TM}request")
    number = request.get(f"{TM}number", "") if request is not None else ""
    if not number:
        from sap_devs.adt.errors import AdtError

        raise AdtError("The system did not return the number of the new transport request.")
    return number


async def release(client: AdtClient, number: str) -> tuple[bool, list[str]]:
    """Releases a request or task: (released, the system's report lines)."""
    response = await client.request(
        "POST", f"/sap/bc/adt/cts/transportrequests/{number}/newreleasejobs", accept=ORGANIZER
    )
    root = parse_xml(response.content, source=f"release of {number}")
    reports = list(root.iter(f"{CHKRUN}checkReport"))
    lines = [r.get(f"{CHKRUN}statusText", "") for r in reports if r.get(f"{CHKRUN}statusText")]
    lines += [
        (m.get(f"{CHKRUN}shortText") or "") for m in root.iter(f"{CHKRUN}checkMessage") if m.get(f"{CHKRUN}shortText")
    ]
    released = bool(reports) and all(r.get(f"{CHKRUN}status") == "released" for r in reports)
    return released, lines
