"""Syntax checks (also of unsaved source), activation, where-used and inactive objects over ADT."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.objects import ADTCORE, object_uri
from sap_devs.core.xml import parse_xml

CHKRUN = "{http://www.sap.com/adt/checkrun}"
USAGE = "{http://www.sap.com/adt/ris/usageReferences}"
IOC = "{http://www.sap.com/abapxml/inactiveCtsObjects}"
_POSITION = re.compile(r"#start=(\d+),(\d+)")


@dataclass(frozen=True)
class Message:
    type: str  # E error, W warning, I info
    text: str
    line: int | None = None
    column: int | None = None
    code: str | None = None
    uri: str | None = None


def _position(uri: str | None) -> tuple[int | None, int | None]:
    match = _POSITION.search(uri or "")
    return (int(match.group(1)), int(match.group(2))) if match else (None, None)


async def syntax_check(
    client: AdtClient, kind: str, name: str, *, source: str | None = None, version: str = "active"
) -> list[Message]:
    """Check the saved object, or ``source`` as if it were saved (nothing is written)."""
    uri = object_uri(kind, name)
    artifact = ""
    if source is not None:
        encoded = base64.b64encode(source.encode("utf-8")).decode()
        artifact = (
            f'<chkrun:artifacts><chkrun:artifact chkrun:contentType="text/plain; charset=utf-8" '
            f"chkrun:uri={quoteattr(uri + '/source/main')}><chkrun:content>{encoded}</chkrun:content>"
            "</chkrun:artifact></chkrun:artifacts>"
        )
        version = "inactive"
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><chkrun:checkObjectList xmlns:chkrun="http://www.sap.com/adt/checkrun" '
        f'xmlns:adtcore="http://www.sap.com/adt/core"><chkrun:checkObject adtcore:uri={quoteattr(uri)} '
        f'chkrun:version="{version}">{artifact}</chkrun:checkObject></chkrun:checkObjectList>'
    )
    response = await client.request(
        "POST",
        "/sap/bc/adt/checkruns",
        params={"reporters": "abapCheckRun"},
        content_type="application/vnd.sap.adt.checkobjects+xml",
        accept="application/vnd.sap.adt.checkmessages+xml",
        body=body,
    )
    root = parse_xml(response.content, source="check run result")
    messages = []
    for msg in root.iter(f"{CHKRUN}checkMessage"):
        where = msg.get(f"{CHKRUN}uri")
        line, column = _position(where)
        messages.append(
            Message(
                type=msg.get(f"{CHKRUN}type", "I"),
                text=msg.get(f"{CHKRUN}shortText", ""),
                line=line,
                column=column,
                code=msg.get(f"{CHKRUN}code"),
                uri=where,
            )
        )
    return messages


async def activate(client: AdtClient, refs: list[tuple[str, str]]) -> list[Message]:
    """Activate (uri, name) objects together; returns the system's messages (errors mean not activated)."""
    items = "".join(
        f"<adtcore:objectReference adtcore:uri={quoteattr(u)} adtcore:name={quoteattr(n)}/>" for u, n in refs
    )
    body = f'<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences xmlns:adtcore="http://www.sap.com/adt/core">{items}</adtcore:objectReferences>'
    response = await client.request(
        "POST",
        "/sap/bc/adt/activation",
        params={"method": "activate", "preauditRequested": "true"},
        content_type="application/xml",
        accept="application/xml",
        body=body,
    )
    if not response.content.strip():
        return []
    root = parse_xml(response.content, source="activation result")
    out = []
    for msg in root.iter("msg"):
        line, column = _position(msg.get("href"))
        text = " ".join("".join(msg.find("shortText").itertext()).split()) if msg.find("shortText") is not None else ""
        out.append(
            Message(
                type=msg.get("type", "I"),
                text=f"{msg.get('objDescr', '')}: {text}".strip(": "),
                line=line,
                column=column,
                uri=msg.get("href"),
            )
        )
    return out


async def where_used(client: AdtClient, uri: str) -> list[dict[str, Any]]:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><usagereferences:usageReferenceRequest '
        'xmlns:usagereferences="http://www.sap.com/adt/ris/usageReferences"><usagereferences:affectedObjects/>'
        "</usagereferences:usageReferenceRequest>"
    )
    response = await client.request(
        "POST",
        "/sap/bc/adt/repository/informationsystem/usageReferences",
        params={"uri": uri},
        content_type="application/vnd.sap.adt.repository.usagereferences.request.v1+xml",
        accept="application/vnd.sap.adt.repository.usagereferences.result.v1+xml",
        body=body,
    )
    root = parse_xml(response.content, source="where-used result")
    found = []
    for ref in root.iter(f"{USAGE}referencedObject"):
        obj = ref.find(f"{USAGE}adtObject")
        if obj is None:
            continue
        package = obj.find(f"{ADTCORE}packageRef")
        found.append(
            {
                "name": obj.get(f"{ADTCORE}name", ""),
                "type": obj.get(f"{ADTCORE}type", ""),
                "uri": ref.get("uri", ""),
                "package": package.get(f"{ADTCORE}name") if package is not None else None,
                "usage": ref.get("usageInformation"),
            }
        )
    return found


async def inactive_objects(client: AdtClient) -> list[dict[str, Any]]:
    response = await client.request(
        "GET",
        "/sap/bc/adt/activation/inactiveobjects",
        accept="application/vnd.sap.adt.inactivectsobjects.v1+xml, application/xml;q=0.8",
    )
    root = parse_xml(response.content, source="inactive objects")
    out = []
    for entry in root.iter(f"{IOC}entry"):
        ref = entry.find(f"{IOC}object/{IOC}ref")
        if ref is None:
            continue
        transport = entry.find(f"{IOC}transport/{IOC}ref")
        out.append(
            {
                "name": ref.get(f"{ADTCORE}name", ""),
                "type": ref.get(f"{ADTCORE}type", ""),
                "uri": ref.get(f"{ADTCORE}uri", ""),
                "transport": transport.get(f"{ADTCORE}name") if transport is not None else None,
            }
        )
    return out
