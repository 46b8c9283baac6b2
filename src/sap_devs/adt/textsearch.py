"""ABAP source code search over ADT (the repository information system's text search).

GET /sap/bc/adt/repository/informationsystem/textsearch?searchString=...&searchFromIndex=1&searchToIndex=N
[&objectType=CLAS][&packageName=Z...] answers ``tsr:textSearchResult``: one ``tsr:textSearchObject`` per
object (nested for includes) naming the main object, with ``tsr:textLine`` hits whose URI carries
``#start=line,column`` (percent-encoded) and whose content marks the match with ``<b>``. The search
needs the source search index (SAP HANA); systems without it answer an error ("Source Search is not
supported", message SRIS_SEARCH 006, or SADT_REST 020), which becomes a clear message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from sap_devs.adt.atc import html_text
from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ADTCORE
from sap_devs.core.xml import parse_xml

TSR = "{http://www.sap.com/adt/ris/textSearch}"
PATH = "/sap/bc/adt/repository/informationsystem/textsearch"
_START = re.compile(r"#start=(\d+)(?:,(\d+))?")
_UNSUPPORTED = re.compile(r"not supported|SRIS_SEARCH|SADT_REST", re.I)


@dataclass
class SourceHit:
    name: str
    type: str
    lines: list[tuple[int | None, str]] = field(default_factory=list)


def parse_hits(xml: bytes) -> list[SourceHit]:
    root = parse_xml(xml, source="source search result")
    hits: dict[tuple[str, str], SourceHit] = {}
    for obj in root.iter(f"{TSR}textSearchObject"):
        main = obj.find(f"{TSR}adtMainObject")
        if main is None:
            continue
        key = (main.get(f"{ADTCORE}name", ""), main.get(f"{ADTCORE}type", ""))
        hit = hits.setdefault(key, SourceHit(*key))
        for line in obj.findall(f"{TSR}textLine"):  # direct children only: nested objects add their own
            match = _START.search(unquote(line.get(f"{ADTCORE}uri", "")))
            content = line.find(f"{TSR}content")
            raw = "".join(content.itertext()) if content is not None else ""
            text = html_text(raw) if "<" in raw else raw.strip()
            hit.lines.append((int(match.group(1)) if match else None, " ".join(text.split())))
    return [h for h in hits.values() if h.name]


async def search_source(
    client: AdtClient, text: str, *, limit: int, object_type: str | None = None, package: str | None = None
) -> list[SourceHit]:
    params = {"searchString": text, "searchFromIndex": "1", "searchToIndex": str(limit)}
    if object_type:
        params["objectType"] = object_type.upper()
    if package:
        params["packageName"] = package.upper()
    try:
        response = await client.request("GET", PATH, params=params, accept="application/xml")
    except AdtError as exc:
        if exc.status in (400, 404, 500, 501) and (exc.status in (404, 501) or _UNSUPPORTED.search(exc.message)):
            raise AdtError(
                "This system has no ABAP source code search (it needs the source search index on SAP HANA).",
                status=exc.status,
                hint="Search object names with search_objects, or read candidate objects and search their source.",
            ) from None
        raise
    return parse_hits(response.content)
