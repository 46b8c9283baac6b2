"""What the ABAP editor knows about a position in a source: code completion, element information
and the F1 keyword documentation. All three send the (possibly unsaved) source with the cursor in
the URI fragment (``#start=line,column``; lines from 1, columns from 0) and change nothing."""

from __future__ import annotations

from dataclasses import dataclass, field

from sap_devs.adt.atc import html_text
from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.core.xml import parse_xml

ADTCORE = "{http://www.sap.com/adt/core}"
ABAPSOURCE = "{http://www.sap.com/adt/abapsource}"
MAX_DOC = 60_000


def cursor(source_uri: str, line: int, column: int) -> str:
    return f"{source_uri}#start={line},{column}"


def check_position(source: str, line: int, column: int) -> None:
    lines = source.splitlines() or [""]
    if line > len(lines):
        raise AdtError(f"Line {line} is past the end of the source ({len(lines)} lines).")
    if column > len(lines[line - 1]):
        raise AdtError(f"Column {column} is past the end of line {line} ({len(lines[line - 1])} characters).")


@dataclass(frozen=True)
class Proposal:
    identifier: str
    kind: int | None
    is_meta: bool


async def complete(client: AdtClient, source_uri: str, source: str, line: int, column: int) -> list[Proposal]:
    response = await client.request(
        "POST",
        "/sap/bc/adt/abapsource/codecompletion/proposal",
        params={"uri": cursor(source_uri, line, column), "signalCompleteness": "true"},
        content_type="application/*",
        accept="application/*, */*",
        body=source,
    )
    root = parse_xml(response.content, source="code completion")
    found = []
    for item in root.iter("SCC_COMPLETION"):
        ident = (item.findtext("IDENTIFIER") or "").strip()
        if not ident or ident == "@end":  # the marker that the list is complete
            continue
        kind = (item.findtext("KIND") or "").strip()
        found.append(Proposal(ident, int(kind) if kind.isdigit() else None, (item.findtext("IS_META") or "") == "1"))
    return found


@dataclass
class ElementInfo:
    name: str | None
    type: str | None
    documentation: str
    components: list[dict[str, object]] = field(default_factory=list)


async def element_info(client: AdtClient, source_uri: str, source: str, line: int, column: int) -> ElementInfo:
    response = await client.request(
        "POST",
        "/sap/bc/adt/abapsource/codecompletion/elementinfo",
        params={"uri": cursor(source_uri, line, column)},
        content_type="text/plain",
        accept="application/*",
        body=source,
    )
    if not response.content.lstrip().startswith(b"<"):  # older systems answer with plain text
        return ElementInfo(None, None, response.text()[:MAX_DOC].strip())
    root = parse_xml(response.content, source="element information")
    info = root if root.tag == f"{ABAPSOURCE}elementInfo" else root.find(f".//{ABAPSOURCE}elementInfo")
    if info is None:
        return ElementInfo(None, None, html_text(response.text())[:MAX_DOC])
    components = []
    for child in info.findall(f"{ABAPSOURCE}elementInfo"):
        entries = {
            e.get(f"{ABAPSOURCE}key", ""): (e.text or "").strip()
            for e in child.findall(f"{ABAPSOURCE}properties/{ABAPSOURCE}entry")
        }
        components.append(
            {"name": child.get(f"{ADTCORE}name"), "type": child.get(f"{ADTCORE}type"), "properties": entries}
        )
    return ElementInfo(
        name=info.get(f"{ADTCORE}name"),
        type=info.get(f"{ADTCORE}type"),
        documentation=html_text(info.findtext(f"{ABAPSOURCE}documentation") or "")[:MAX_DOC],
        components=components[:200],
    )


async def keyword_docs(
    client: AdtClient, source_uri: str, source: str, line: int, column: int, *, language: str = "EN"
) -> tuple[str, bool]:
    """The F1 documentation of the keyword at the cursor, as text, and whether it was cut."""
    response = await client.request(
        "POST",
        "/sap/bc/adt/docu/abap/langu",
        params={"uri": cursor(source_uri, line, column), "language": language, "format": "eclipse"},
        content_type="text/plain",
        accept="application/vnd.sap.adt.docu.v1+html, text/html",
        body=source,
    )
    text = html_text(response.text())
    return text[:MAX_DOC], len(text) > MAX_DOC
