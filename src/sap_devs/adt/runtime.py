"""Runtime errors (ST22 short dumps) over ADT: the dumps feed and one dump's formatted text.

The feed (GET /sap/bc/adt/runtime/dumps, Atom) names each dump's runtime error and terminated
program as categories; their labels are in the logon language ("ABAP runtime error" in English),
so they are read by label where known and by position otherwise. One dump reads as the ST22 text
(GET /sap/bc/adt/runtime/dump/{id}/formatted): header lines, then boxed sections such as
"Short Text", "What happened?", "Error analysis" and "Source Code Extract".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import quote, unquote

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ATOM
from sap_devs.core.xml import parse_xml

FEED = "/sap/bc/adt/runtime/dumps"
_ERROR_LABELS = {"abap runtime error", "laufzeitfehler", "abap-laufzeitfehler"}
_PROGRAM_LABELS = {"terminated abap program", "beendetes abap-programm", "abgebrochenes abap-programm"}
_DUMP_ID = re.compile(r"/runtime/dumps?/([^/?#]+)")
_HEADER = re.compile(
    r"^(Category|Runtime Errors|Except\.|Exception|ABAP: Program|Application Component|Date and Time)\s{2,}(.+?)\s*$"
)
_RULE = re.compile(r"^-{20,}\s*$")
_WHERE_LINE = re.compile(r"\bline (\d+)\b", re.I)


@dataclass
class DumpEntry:
    id: str
    runtime_error: str | None
    program: str | None
    user: str | None
    time: str | None
    title: str | None


@dataclass
class Dump:
    id: str
    runtime_error: str | None = None
    exception: str | None = None
    program: str | None = None
    category: str | None = None
    component: str | None = None
    time: str | None = None
    line: int | None = None
    include: str | None = None
    sections: dict[str, str] = field(default_factory=dict)


def _dump_id(entry: object) -> str | None:
    for element in (*entry.findall(f"{ATOM}link"), entry.find(f"{ATOM}id")):  # type: ignore[attr-defined]
        if element is None:
            continue
        text = element.get("href") if element.tag == f"{ATOM}link" else element.text
        match = _DUMP_ID.search(text or "")
        if match:
            return unquote(match.group(1))
    return None


def parse_feed(xml: bytes) -> list[DumpEntry]:
    root = parse_xml(xml, source="runtime dumps feed")
    entries = []
    for entry in root.iter(f"{ATOM}entry"):
        dump_id = _dump_id(entry)
        if not dump_id:
            continue
        terms = [(c.get("term"), (c.get("label") or "").strip().lower()) for c in entry.findall(f"{ATOM}category")]
        error = next((t for t, label in terms if label in _ERROR_LABELS), None)
        program = next((t for t, label in terms if label in _PROGRAM_LABELS), None)
        if error is None and program is None and terms:  # labels in another language: ADT's order
            error = terms[0][0]
            program = terms[1][0] if len(terms) > 1 else None
        title = entry.findtext(f"{ATOM}title")
        entries.append(
            DumpEntry(
                id=dump_id,
                runtime_error=error,
                program=program,
                user=(entry.findtext(f"{ATOM}author/{ATOM}name") or "").strip() or None,
                time=entry.findtext(f"{ATOM}published") or entry.findtext(f"{ATOM}updated"),
                title=" ".join(title.split()) if title else None,
            )
        )
    return entries


async def list_dumps(
    client: AdtClient, *, user: str | None = None, since: datetime | None = None, limit: int = 20
) -> list[DumpEntry]:
    params = {"$top": str(limit)}
    if user:
        params["$query"] = f"and( equals( user, {user.upper()} ) )"
    if since:
        params["from"] = since.strftime("%Y%m%d%H%M%S")
    response = await client.request("GET", FEED, params=params, accept="application/atom+xml;type=feed")
    return parse_feed(response.content)


def parse_formatted(text: str, dump_id: str) -> Dump:
    dump = Dump(id=dump_id)
    lines = text.splitlines()
    title: str | None = None
    body: list[str] = []

    def close() -> None:
        if title:
            content = "\n".join(body).strip("\n")
            dump.sections[title] = "\n".join(line.rstrip() for line in content.splitlines())

    previous_rule = False
    for raw in lines:
        line = raw.rstrip()
        if _RULE.match(line):
            previous_rule = True
            continue
        header = _HEADER.match(line)
        if header and title is None:
            key, value = header.groups()
            if key == "Runtime Errors":
                dump.runtime_error = value
            elif key in ("Except.", "Exception"):
                dump.exception = value
            elif key == "ABAP: Program":
                dump.program = value
            elif key == "Category":
                dump.category = value
            elif key == "Application Component":
                dump.component = value
            elif key == "Date and Time":
                dump.time = value
            previous_rule = False
            continue
        if line.startswith("|") and line.endswith("|") and len(line) > 1:
            inner = line[1:-1]
            if previous_rule and inner.strip() and not inner.startswith(" ") and "|" not in inner:
                close()
                title, body = inner.strip(), []
            elif title is not None:
                body.append(inner[4:] if inner.startswith("    ") else inner)
        previous_rule = False
    close()
    where = dump.sections.get("Information on where terminated", "")
    match = _WHERE_LINE.search(where)
    if match:
        dump.line = int(match.group(1))
    include = re.search(r'include\s+"?([A-Z0-9_/=]+)"?', where, re.I)
    if include:
        dump.include = include.group(1)
    return dump


async def read_dump(client: AdtClient, dump_id: str) -> Dump:
    if "/" in dump_id or not dump_id.strip():
        raise AdtError(f"{dump_id!r} is not a dump id.", hint="Pass an id from list_dumps.")
    path = f"/sap/bc/adt/runtime/dump/{quote(dump_id, safe='')}/formatted"
    text = await client.get_text(path)
    return parse_formatted(text, dump_id)
