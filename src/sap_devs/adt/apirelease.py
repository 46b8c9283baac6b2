"""The API release state of an object on the system (the contracts C0 to C4) over ADT.

GET /sap/bc/adt/apireleases/{object URI, percent-encoded} answers ``ars:apiRelease`` with one
``ars:cNRelease`` element per contract the object can have: its state (RELEASED, DEPRECATED,
NOT_RELEASED ...) and whether it is usable in cloud development and in key user apps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from sap_devs.adt.client import AdtClient
from sap_devs.adt.objects import ADTCORE, object_uri
from sap_devs.core.xml import parse_xml

ARS = "{http://www.sap.com/adt/ars}"
ACCEPT = "application/vnd.sap.adt.apirelease.v11+xml, application/vnd.sap.adt.apirelease.v10+xml, application/xml;q=0.8"
_CONTRACT = re.compile(r"^c(\d)Release$")


@dataclass
class Contract:
    contract: str
    state: str
    state_text: str | None
    cloud_development: bool
    key_user_apps: bool
    changed_at: str | None
    changed_by: str | None


def _flag(value: str | None) -> bool:
    return (value or "").lower() == "true"


def parse_release(xml: bytes) -> tuple[str | None, str | None, list[Contract]]:
    """(object name, object type, contracts) of an ``ars:apiRelease`` document."""
    root = parse_xml(xml, source="API release state")
    obj = root.find(f"{ARS}releasableObject")
    contracts = []
    for child in root:
        local = child.tag.rsplit("}", 1)[-1]
        if not _CONTRACT.match(local):
            continue
        status = child.find(f"{ARS}status")
        contracts.append(
            Contract(
                contract=child.get(f"{ARS}contract") or f"C{_CONTRACT.match(local).group(1)}",  # type: ignore[union-attr]
                state=status.get(f"{ARS}state", "") if status is not None else "",
                state_text=status.get(f"{ARS}stateDescription") if status is not None else None,
                cloud_development=_flag(child.get(f"{ARS}useInSAPCloudPlatform")),
                key_user_apps=_flag(child.get(f"{ARS}useInKeyUserApps")),
                changed_at=child.get(f"{ADTCORE}changedAt"),
                changed_by=child.get(f"{ADTCORE}changedBy"),
            )
        )
    name = obj.get(f"{ADTCORE}name") if obj is not None else None
    kind = obj.get(f"{ADTCORE}type") if obj is not None else None
    return name, kind, contracts


async def release_state(client: AdtClient, kind: str, name: str) -> tuple[str | None, str | None, list[Contract]]:
    uri = object_uri(kind, name)
    response = await client.request("GET", f"/sap/bc/adt/apireleases/{quote(uri, safe='')}", accept=ACCEPT)
    return parse_release(response.content)
