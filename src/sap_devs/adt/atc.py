"""ABAP Test Cockpit (ATC) runs over ADT, and the documentation of a finding.

A run takes three calls: a worklist bound to a check variant (POST /atc/worklists?checkVariant=...),
the run itself on that worklist (POST /atc/runs?worklistId=...) and the worklist read back with its
findings (GET /atc/worklists/{id}). A worklist created without ``checkVariant`` runs the Code
Inspector variant literally named DEFAULT, not the system's ATC variant, so the variant is always
sent: the one asked for, or ``systemCheckVariant`` from /atc/customizing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ADTCORE, ATOM
from sap_devs.core.xml import parse_xml

ATCWORKLIST = "{http://www.sap.com/adt/atc/worklist}"
ATCOBJECT = "{http://www.sap.com/adt/atc/object}"
ATCFINDING = "{http://www.sap.com/adt/atc/finding}"
ATCINFO = "{http://www.sap.com/adt/atc/info}"
DOCS_REL = "http://www.sap.com/adt/relations/documentation"
DOCS_PREFIX = "/sap/bc/adt/documentation/atc/"
_POSITION = re.compile(r"#start=(\d+),(\d+)")
_CUSTOMIZING_ACCEPT = "application/xml, application/vnd.sap.atc.customizing-v1+xml"


@dataclass
class Finding:
    object_name: str
    object_type: str
    package: str | None
    priority: int | None
    check: str
    check_id: str
    message: str
    message_id: str
    line: int | None
    column: int | None
    location: str | None
    quick_fix: bool
    exempted: bool
    docs_uri: str | None


@dataclass
class AtcResult:
    check_variant: str
    variant_source: str  # "given" or "system default"
    worklist_id: str
    findings: list[Finding] = field(default_factory=list)
    objects_checked: list[str] = field(default_factory=list)
    infos: list[tuple[str, str]] = field(default_factory=list)  # (type, description) from the run


async def system_check_variant(client: AdtClient) -> str | None:
    """The ATC check variant the system is customised to use (``systemCheckVariant``)."""
    response = await client.request("GET", "/sap/bc/adt/atc/customizing", accept=_CUSTOMIZING_ACCEPT)
    root = parse_xml(response.content, source="ATC customizing")
    for prop in root.iter("property"):
        if prop.get("name") == "systemCheckVariant" and (prop.get("value") or "").strip():
            return prop.get("value", "").strip()
    return None


def _run_body(uris: list[str], max_verdicts: int) -> str:
    refs = "".join(f"<adtcore:objectReference adtcore:uri={quoteattr(u)}/>" for u in uris)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><atc:run xmlns:atc="http://www.sap.com/adt/atc" '
        f'maximumVerdicts="{max_verdicts}"><objectSets xmlns:adtcore="http://www.sap.com/adt/core">'
        f'<objectSet kind="inclusive"><adtcore:objectReferences>{refs}</adtcore:objectReferences></objectSet>'
        "</objectSets></atc:run>"
    )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def parse_infos(xml: bytes) -> list[tuple[str, str]]:
    root = parse_xml(xml, source="ATC run result")
    return [
        ((info.findtext(f"{ATCINFO}type") or "").strip(), (info.findtext(f"{ATCINFO}description") or "").strip())
        for info in root.iter(f"{ATCINFO}info")
    ]


def parse_worklist(xml: bytes) -> tuple[list[Finding], list[str]]:
    """Findings of an ATC worklist, and the names of the objects it covers."""
    root = parse_xml(xml, source="ATC worklist")
    findings: list[Finding] = []
    objects: list[str] = []
    for obj in root.iter(f"{ATCOBJECT}object"):
        name = obj.get(f"{ADTCORE}name", "")
        objects.append(name)
        for f in obj.iter(f"{ATCFINDING}finding"):
            location = f.get(f"{ATCFINDING}location")
            match = _POSITION.search(location or "")
            quick = f.find(f"{ATCFINDING}quickfixes")
            quick_fix = bool((f.get(f"{ATCFINDING}quickfixInfo") or "").strip()) or (
                quick is not None
                and (_flag(quick.get(f"{ATCFINDING}automatic")) or _flag(quick.get(f"{ATCFINDING}manual")))
            )
            docs = next(
                (link.get("href") for link in f.findall(f"{ATOM}link") if link.get("rel") == DOCS_REL),
                None,
            )
            findings.append(
                Finding(
                    object_name=name,
                    object_type=obj.get(f"{ATCOBJECT}objectTypeId") or obj.get(f"{ADTCORE}type", ""),
                    package=obj.get(f"{ADTCORE}packageName"),
                    priority=_int(f.get(f"{ATCFINDING}priority")),
                    check=(f.get(f"{ATCFINDING}checkTitle") or "").strip(),
                    check_id=f.get(f"{ATCFINDING}checkId", ""),
                    message=(f.get(f"{ATCFINDING}messageTitle") or "").strip(),
                    message_id=f.get(f"{ATCFINDING}messageId", ""),
                    line=int(match.group(1)) if match else None,
                    column=int(match.group(2)) if match else None,
                    location=location.split("#", 1)[0] if location else None,
                    quick_fix=quick_fix,
                    exempted=bool((f.get(f"{ATCFINDING}exemptionApproval") or "").strip("- ")),
                    docs_uri=docs,
                )
            )
    return findings, objects


async def run_atc(
    client: AdtClient, uris: list[str], *, check_variant: str | None = None, max_verdicts: int = 100
) -> AtcResult:
    variant, source = check_variant, "given"
    if not variant:
        variant, source = await system_check_variant(client), "system default"
        if not variant:
            raise AdtError(
                "The system names no ATC check variant (systemCheckVariant is empty in the ATC customizing).",
                hint="Pass check_variant explicitly, e.g. the variant your team's ATC configuration uses.",
            )
    created = await client.request(
        "POST", "/sap/bc/adt/atc/worklists", params={"checkVariant": variant}, accept="text/plain"
    )
    worklist_id = created.text().strip()
    if not re.fullmatch(r"[A-Za-z0-9]{1,64}", worklist_id):
        raise AdtError(f"The system returned no usable ATC worklist id for check variant {variant}.")
    run = await client.request(
        "POST",
        "/sap/bc/adt/atc/runs",
        params={"worklistId": worklist_id},
        accept="application/xml",
        content_type="application/xml",
        body=_run_body(uris, max_verdicts),
    )
    infos = parse_infos(run.content)
    worklist = await client.request(
        "GET",
        f"/sap/bc/adt/atc/worklists/{worklist_id}",
        params={"includeExemptedFindings": "false"},
        accept="application/atc.worklist.v1+xml",
    )
    findings, objects = parse_worklist(worklist.content)
    return AtcResult(variant, source, worklist_id, findings, objects, infos)


class _Text(HTMLParser):
    """Visible text of an HTML page: block elements become line breaks, scripts and styles vanish."""

    BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.parts).splitlines())
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.text()


async def finding_docs(client: AdtClient, docs_uri: str) -> str:
    """The check documentation of one finding (its ``docs_uri`` from a run), as plain text."""
    path = docs_uri.split("#", 1)[0]
    if not path.startswith(DOCS_PREFIX) or ".." in path:
        raise AdtError(
            f"{docs_uri!r} is not an ATC documentation link.",
            hint="Pass a finding's docs_uri from run_atc (it starts with /sap/bc/adt/documentation/atc/).",
        )
    response = await client.request("GET", path, accept="text/html, text/plain;q=0.8")
    kind = response.headers.get("content-type", "")
    body = response.text()
    return html_text(body) if "html" in kind or body.lstrip().startswith("<") else body.strip()
