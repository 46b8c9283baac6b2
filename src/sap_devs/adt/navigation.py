"""Go to definition over ADT (the navigation service).

POST /sap/bc/adt/navigation/target?uri={source URI}#start=L,C;end=L,C&filter=definition with the
source as a text/plain body (so unsaved code navigates too) answers one ``adtcore:objectReference``
whose URI carries ``#start=line,column`` of the definition. A cursor on a keyword or a comment
answers 400 ``NavigationFailure`` ("Incorrect cursor position ...") or an empty body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ADTCORE, object_uri, read_source
from sap_devs.core.xml import parse_xml

_TARGET = re.compile(r"^([^#]+)(?:#start=(\d+),(\d+))?")


@dataclass
class Definition:
    uri: str
    name: str | None
    type: str | None
    line: int | None
    column: int | None


async def find_definition(
    client: AdtClient, kind: str, name: str, line: int, column: int, *, source: str | None = None
) -> Definition | None:
    uri = f"{object_uri(kind, name)}/source/main"
    body = source if source is not None else await read_source(client, kind, name, version="inactive")
    try:
        response = await client.request(
            "POST",
            "/sap/bc/adt/navigation/target",
            params={"uri": f"{uri}#start={line},{column};end={line},{column}", "filter": "definition"},
            content_type="text/plain",
            accept="application/*",
            body=body,
        )
    except AdtError as exc:
        if exc.status == 400 and exc.type_id == "NavigationFailure":
            return None
        raise
    if not response.content.strip():
        return None
    root = parse_xml(response.content, source="navigation target")
    ref = root if root.tag == f"{ADTCORE}objectReference" else root.find(f".//{ADTCORE}objectReference")
    if ref is None:
        return None
    match = _TARGET.match(ref.get(f"{ADTCORE}uri", ""))
    if match is None:
        return None
    return Definition(
        uri=match.group(1),
        name=ref.get(f"{ADTCORE}name"),
        type=ref.get(f"{ADTCORE}type"),
        line=int(match.group(2)) if match.group(2) else None,
        column=int(match.group(3)) if match.group(3) else None,
    )
