"""Runtime errors (ST22 short dumps) over ADT, read from the dumps feed as abap-adt-api reads it.

The feed (GET /sap/bc/adt/runtime/dumps, Atom) names each dump's runtime error and terminated
program as categories; their labels are in the logon language ("ABAP runtime error" in English),
so they are read by label where known and by position otherwise. Which entries it lists is chosen by
a ``$query`` in the feed's own query language: the feed repository (GET /sap/bc/adt/feeds) says
which attributes it filters on and which query variant is the default, and nothing else is sent.
Each entry's ``atom:summary`` (HTML) is the dump itself: header fields, then sections such as
"Short Text", "What happened?", "Error analysis" and "Source Code Extract".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from urllib.parse import unquote

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ATOM
from sap_devs.core.xml import parse_xml

FEED = "/sap/bc/adt/runtime/dumps"
FEEDS = "/sap/bc/adt/feeds"
ATOM_FEED = "application/atom+xml;type=feed"
_FEED_MAX = 5000  # entries read from one feed answer (the system pages at its own size)
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


@dataclass(frozen=True)
class FeedInfo:
    """What the feed repository says about the dumps feed: its filter attributes and default query."""

    attributes: frozenset[str]
    default_query: str | None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _attr(element: object, name: str) -> str | None:
    for key, value in element.attrib.items():  # type: ignore[attr-defined]
        if _local(key) == name:
            return str(value)
    return None


def parse_feeds(xml: bytes, href: str = FEED) -> FeedInfo | None:
    """The dumps feed's entry of GET /sap/bc/adt/feeds (namespaces of the extended data vary)."""
    root = parse_xml(xml, source="feed repository")
    for entry in root.iter(f"{ATOM}entry"):
        if not any(link.get("href", "").split("?", 1)[0] == href for link in entry.findall(f"{ATOM}link")):
            continue
        attributes = {a for el in entry.iter() if _local(el.tag) == "attribute" and (a := _attr(el, "id"))}
        default = None
        for el in entry.iter():
            if _local(el.tag) == "queryVariant" and (_attr(el, "isDefault") or "").lower() == "true":
                default = _attr(el, "queryString") or None
        return FeedInfo(frozenset(attributes), default)
    return None


def _entries(root: object) -> list[object]:
    return list(root.iter(f"{ATOM}entry"))[:_FEED_MAX]  # type: ignore[attr-defined]


def parse_feed_entry(entry: object) -> DumpEntry | None:
    dump_id = _dump_id(entry)
    if not dump_id:
        return None
    terms = [(c.get("term"), (c.get("label") or "").strip().lower()) for c in entry.findall(f"{ATOM}category")]  # type: ignore[attr-defined]
    error = next((t for t, label in terms if label in _ERROR_LABELS), None)
    program = next((t for t, label in terms if label in _PROGRAM_LABELS), None)
    if error is None and program is None and terms:  # labels in another language: ADT's order
        error = terms[0][0]
        program = terms[1][0] if len(terms) > 1 else None
    title = entry.findtext(f"{ATOM}title")  # type: ignore[attr-defined]
    return DumpEntry(
        id=dump_id,
        runtime_error=error,
        program=program,
        user=(entry.findtext(f"{ATOM}author/{ATOM}name") or "").strip() or None,  # type: ignore[attr-defined]
        time=entry.findtext(f"{ATOM}published") or entry.findtext(f"{ATOM}updated"),  # type: ignore[attr-defined]
        title=" ".join(title.split()) if title else None,
    )


def parse_feed(xml: bytes) -> list[DumpEntry]:
    root = parse_xml(xml, source="runtime dumps feed")
    return [e for e in (parse_feed_entry(entry) for entry in _entries(root)) if e is not None]


async def _feed_info(client: AdtClient) -> FeedInfo | None:
    try:
        response = await client.request("GET", FEEDS, accept=ATOM_FEED)
    except AdtError as exc:
        if exc.status in (404, 405):  # a system without the feed repository: the feed's own default
            return None
        raise
    return parse_feeds(response.content)


async def _dumps_feed(client: AdtClient, user: str | None) -> bytes:
    info = await _feed_info(client)
    if user and info is not None and "user" not in info.attributes:
        raise AdtError(
            "This system's dumps feed cannot be filtered by user.",
            hint="Leave out user; the answer then lists the runtime errors the system shows by default.",
        )
    query = f"and( equals( user, {user.upper()} ) )" if user else (info.default_query if info else None)
    params = {"$query": query} if query else None
    response = await client.request("GET", FEED, params=params, accept=ATOM_FEED)
    return response.content


def _after(entry: DumpEntry, since: datetime) -> bool:
    try:
        when = datetime.fromisoformat((entry.time or "").replace("Z", "+00:00"))
    except ValueError:
        return True  # an entry without a readable time is shown rather than hidden
    return when.replace(tzinfo=None) >= since.replace(tzinfo=None)


async def list_dumps(
    client: AdtClient, *, user: str | None = None, since: datetime | None = None, limit: int = 20
) -> list[DumpEntry]:
    """The feed's runtime errors (of ``user``, or the default query's), newest first; ``since`` and
    ``limit`` are applied here, since the feed takes neither as a parameter."""
    found = parse_feed(await _dumps_feed(client, user))
    if since:
        found = [e for e in found if _after(e, since)]
    found.sort(key=lambda e: e.time or "", reverse=True)
    return found[: limit + 1]


class _DumpText(HTMLParser):
    """A dump summary as lines: table cells apart by a tab, headings marked, preformatted text kept."""

    BLOCKS = frozenset({"p", "div", "br", "li", "tr", "table", "ul", "ol", "pre"})
    HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HEADINGS:
            self.parts.append("\n" + _TITLE)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCKS or tag in self.HEADINGS:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append("\t")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


_TITLE = "\x01"
_SUMMARY_MAX = 1_000_000


def parse_summary(html: str, dump_id: str) -> Dump:
    """One dump from its feed entry's HTML summary: the header fields and the titled sections."""
    parser = _DumpText()
    parser.feed(html[:_SUMMARY_MAX])
    parser.close()
    dump = Dump(id=dump_id)
    title: str | None = None
    body: list[str] = []

    def close() -> None:
        if title:
            dump.sections[title] = "\n".join(body).strip("\n")

    fields = {
        "Runtime Errors": "runtime_error",
        "Except.": "exception",
        "Exception": "exception",
        "ABAP: Program": "program",
        "Category": "category",
        "Application Component": "component",
        "Date and Time": "time",
    }
    for raw in "".join(parser.parts).splitlines():
        line = raw.rstrip()
        if line.startswith(_TITLE):
            close()
            title, body = " ".join(line[1:].split()) or None, []
            continue
        cells = [c.strip() for c in line.split("\t") if c.strip()]
        if title is None and len(cells) == 2 and cells[0] in fields:
            setattr(dump, fields[cells[0]], cells[1])
            continue
        if title is not None:
            body.append(line.replace("\t", " ").rstrip())
    close()
    _where(dump)
    return dump


def _where(dump: Dump) -> None:
    where = dump.sections.get("Information on where terminated", "")
    match = _WHERE_LINE.search(where)
    if match:
        dump.line = int(match.group(1))
    include = re.search(r'include\s+"?([A-Z0-9_/=]+)"?', where, re.I)
    if include:
        dump.include = include.group(1)


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
    _where(dump)
    return dump


def _summary_of(xml: bytes, dump_id: str) -> tuple[DumpEntry, str] | None:
    root = parse_xml(xml, source="runtime dumps feed")
    for entry, parsed in ((e, parse_feed_entry(e)) for e in _entries(root)):
        if parsed is not None and parsed.id == dump_id:
            return parsed, entry.findtext(f"{ATOM}summary") or ""  # type: ignore[attr-defined]
    return None


async def read_dump(client: AdtClient, dump_id: str) -> Dump:
    """One dump, from its entry in the dumps feed (the default query's, then its user's: the id
    names the user after the host and work process)."""
    if "/" in dump_id or not dump_id.strip():
        raise AdtError(f"{dump_id!r} is not a dump id.", hint="Pass an id from list_dumps.")
    parts = dump_id.split()
    users = [None, *([parts[1]] if len(parts) >= 2 else [])]
    for user in users:
        found = _summary_of(await _dumps_feed(client, user), dump_id)
        if found is not None:
            entry, summary = found
            dump = parse_summary(summary, dump_id)
            dump.runtime_error = dump.runtime_error or entry.runtime_error
            dump.program = dump.program or entry.program
            dump.time = dump.time or entry.time
            if not dump.sections and entry.title:
                dump.sections["Short Text"] = entry.title
            return dump
    raise AdtError(
        f"The runtime error {dump_id} is not in the system's dumps feed.",
        status=404,
        hint="Dumps are deleted after some days; list_dumps shows the ones still kept.",
    )
