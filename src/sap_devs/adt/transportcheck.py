"""Which transport a change needs, asked before the change (POST /sap/bc/adt/cts/transportchecks).

The answer says whether changes in the object's package are recorded, which modifiable requests
the user may use, and, when the object is already locked in a request, that request and its owner:
what a write would otherwise only learn after taking the lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape

from sap_devs.adt.client import AdtClient
from sap_devs.core.xml import parse_xml

CHECK_TYPE = "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.transport.service.checkData"
OPERATIONS = {"change": "I", "create": "I", "delete": "D"}


@dataclass
class TransportCheck:
    uri: str
    package: str | None
    recording: bool
    object_key: str | None
    requests: list[dict[str, str]] = field(default_factory=list)
    locked_in: dict[str, Any] | None = None
    messages: list[dict[str, str]] = field(default_factory=list)


def _header(el: Element | None) -> dict[str, str]:
    if el is None:
        return {}
    keys = {"TRKORR": "number", "AS4TEXT": "description", "AS4USER": "owner", "TRSTATUS": "status"}
    keys |= {"TRFUNCTION": "function", "TARSYSTEM": "target"}
    return {out: (el.findtext(key) or "").strip() for key, out in keys.items() if (el.findtext(key) or "").strip()}


def parse_check(xml: bytes, uri: str) -> TransportCheck:
    root = parse_xml(xml, source="transport check")
    data = root.find(".//DATA")
    if data is None:
        data = Element("DATA")
    text = lambda tag: (data.findtext(tag) or "").strip() or None  # noqa: E731
    lock = data.find("LOCKS/CTS_OBJECT_LOCK")
    locked_in = None
    if lock is not None:
        holder = lock.find("LOCK_HOLDER")
        request = _header(holder.find("REQ_HEADER") if holder is not None else None)
        tasks = [_header(t) for t in (holder.findall("TASK_HEADERS/CTS_TASK_HEADER") if holder is not None else [])]
        locked_in = {**request, "tasks": tasks}
    messages = [
        {"severity": (m.findtext("SEVERITY") or "").strip(), "text": (m.findtext("TEXT") or "").strip()}
        for m in data.findall("MESSAGES/CTS_MESSAGE")
    ]
    name = text("OBJECTNAME")
    return TransportCheck(
        uri=uri,
        package=text("DEVCLASS"),
        recording=text("RECORDING") == "X",
        object_key=f"{text('PGMID')} {text('OBJECT')} {name}" if name else None,
        requests=[_header(r) for r in data.findall("REQUESTS/CTS_REQUEST/REQ_HEADER")],
        locked_in=locked_in,
        messages=[m for m in messages if m["text"]],
    )


async def check_transport(
    client: AdtClient, uri: str, *, package: str = "", operation: str = "change"
) -> TransportCheck:
    """``uri`` is the object's ADT URI (for a new object, the URI it will have); ``package`` may be empty
    for an existing object, whose package the system knows."""
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">'
        f"<asx:values><DATA><DEVCLASS>{escape(package.upper())}</DEVCLASS>"
        f"<OPERATION>{OPERATIONS[operation]}</OPERATION><URI>{escape(uri)}</URI></DATA></asx:values></asx:abap>"
    )
    response = await client.request(
        "POST", "/sap/bc/adt/cts/transportchecks", content_type=CHECK_TYPE, accept=CHECK_TYPE, body=body
    )
    return parse_check(response.content, uri)
