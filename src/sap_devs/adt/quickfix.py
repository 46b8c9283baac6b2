"""Quick fixes: the proposals ADT offers for a position, and applying one.

Applying re-evaluates the proposals at the same position and picks the chosen one there, so the
proposal's opaque user content never travels through the agent. The system answers with text
deltas (a range and its new text); they are applied to the source here and saved with the usual
lock, write, unlock under the safety policy. Deltas for any other object refuse the whole fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.codeassist import check_position, cursor
from sap_devs.adt.errors import AdtError
from sap_devs.core.xml import parse_xml

ADTCORE = "{http://www.sap.com/adt/core}"
QF_PREFIX = "/sap/bc/adt/quickfixes/"
_RANGE = re.compile(r"^([^#]*)#start=(\d+),(\d+)(?:;end=(\d+),(\d+))?$")


@dataclass(frozen=True)
class FixProposal:
    name: str
    description: str
    uri: str
    user_content: str


@dataclass(frozen=True)
class Delta:
    uri: str
    start: tuple[int, int]
    end: tuple[int, int]
    content: str


async def proposals(client: AdtClient, source_uri: str, source: str, line: int, column: int) -> list[FixProposal]:
    check_position(source, line, column)
    response = await client.request(
        "POST",
        "/sap/bc/adt/quickfixes/evaluation",
        params={"uri": cursor(source_uri, line, column)},
        content_type="application/*",
        accept="application/*",
        body=source,
    )
    root = parse_xml(response.content, source="quick fix proposals")
    found = []
    for result in root.iter("evaluationResult"):
        ref = result.find(f"{ADTCORE}objectReference")
        if ref is None:
            continue
        found.append(
            FixProposal(
                name=ref.get(f"{ADTCORE}name", ""),
                description=ref.get(f"{ADTCORE}description", "") or ref.get(f"{ADTCORE}name", ""),
                uri=ref.get(f"{ADTCORE}uri", ""),
                user_content=result.findtext("userContent") or "",
            )
        )
    return found


async def fix_deltas(
    client: AdtClient, proposal: FixProposal, source_uri: str, source: str, line: int, column: int
) -> list[Delta]:
    path = proposal.uri.split("#", 1)[0]
    if not path.startswith(QF_PREFIX) or ".." in path:
        raise AdtError(f"The system proposed a fix at {proposal.uri!r}, which is not a quick fix resource.")
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><quickfixes:proposalRequest '
        'xmlns:quickfixes="http://www.sap.com/adt/quickfixes" xmlns:adtcore="http://www.sap.com/adt/core">'
        f"<input><content>{escape(source)}</content>"
        f"<adtcore:objectReference adtcore:uri={quoteattr(cursor(source_uri, line, column))}/></input>"
        f"<userContent>{escape(proposal.user_content)}</userContent></quickfixes:proposalRequest>"
    )
    response = await client.request("POST", path, content_type="application/*", accept="application/*", body=body)
    root = parse_xml(response.content, source="quick fix result")
    deltas = []
    for unit in root.iter("unit"):
        ref = unit.find(f"{ADTCORE}objectReference")
        match = _RANGE.match(ref.get(f"{ADTCORE}uri", "") if ref is not None else "")
        if not match:
            raise AdtError("The quick fix answer has a change without a source range; nothing was changed.")
        uri, sl, sc, el, ec = match.groups()
        start = (int(sl), int(sc))
        deltas.append(Delta(uri, start, (int(el), int(ec)) if el else start, unit.findtext("content") or ""))
    return deltas


def _offset(lines: list[str], line: int, column: int) -> int:
    if not 1 <= line <= len(lines) + 1:
        raise AdtError(f"The quick fix changes line {line}, outside the source; nothing was changed.")
    before = sum(len(text) for text in lines[: line - 1])
    width = len(lines[line - 1].rstrip("\r\n")) if line <= len(lines) else 0
    return before + min(column, width)


def apply_deltas(source: str, deltas: list[Delta], source_uri: str) -> str:
    """The source with every delta applied (from the last to the first, so ranges stay valid)."""
    # the system may spell the URI in another case (object names in ADT URIs are case-insensitive)
    foreign = sorted({d.uri for d in deltas if d.uri.split("?", 1)[0].lower() != source_uri.lower()})
    if foreign:
        raise AdtError(
            f"The quick fix also changes {', '.join(foreign)}; sap-devs applies fixes to one source only, "
            "so nothing was changed.",
            hint="Apply this fix in ADT, or make the change by hand with write_source.",
        )
    lines = source.splitlines(keepends=True)
    text = source
    for delta in sorted(deltas, key=lambda d: (d.start, d.end), reverse=True):
        begin, end = _offset(lines, *delta.start), _offset(lines, *delta.end)
        if end < begin:
            raise AdtError("The quick fix answer has a change whose range ends before it starts.")
        text = text[:begin] + delta.content + text[end:]
    return text
