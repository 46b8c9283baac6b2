"""Error messages reduced to what identifies them: variable parts out, error codes pulled out.

A pasted message carries the user's own table names, paths, GUIDs, ports and timestamps; the
bundled pattern carries placeholders. Both are stripped the same way before matching, and error
codes (HANA ``[258]``, ABAP runtime error names, HDI ``[8212002]``, npm ``E404``, HTTP status
with its reason) are matched exactly on top.

Not everything variable is noise: a path or URL ends in the file that was asked for
(``Component-preload.js``, ``manifest.json``, ``.hdiconfig``), and a quoted lower-case word is
usually the tool or service the message is about (``'cds' is not recognized``, offering
``"xsuaa"``), so those stay. Stack frames (``at fn (file:1:2)``, ``at com.x.Y.m(Y.java:9)``) name
the user's and the libraries' code, never the error, and go.
"""

from __future__ import annotations

import re

# a stack frame line: "at fn (file:1:2)", "at async X.y (url)", "at com.x.Y.m(Y.java:9) ~[jar]", "at /f.js:1:2"
_STACK_FRAME = re.compile(
    r"^[ \t]*at (?:async )?(?:[\w$.<>\[\]/~-]+ ?\(.*\)[ \t]*(?:~?\[[^\]]*\])?|\S+:\d+:\d+\)?)[ \t]*$", re.M
)
# URLs and file paths keep their last segment, the file that was asked for (each segment starts
# at a separator, so matching stays linear on a 60,000-letter paste)
_URL = re.compile(r"https?://[^\s'\"?#]*(?:[?#][^\s'\"]*)?")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.@~-]+){2,}[\\/]?")
_SEPARATORS = re.compile(r"[\\/]+")
# quoted one-word names; a quoted lower-case word (a command, a service offering) is kept
_QUOTED = re.compile(r"'([^'\s]{1,120})'|\"([^\"\s]{1,120})\"|“([^”\s]{1,120})”|‘([^’\s]{1,120})’")
_PLAIN_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
# where the CDS compiler found it, "(in entity:“Books”/element:“price”)" or ", at entity:“A”/query:1":
# a location like a path, whose words ("entity", "element") are not the message's
_CDS_LOCATION = re.compile(r"\b(?:in|at) [a-z]+:(?:“[^”\n]{0,200}”|\d+)(?:/[a-z]+:(?:“[^”\n]{0,200}”|\d+))*\)?")
# where a tool found it, "srv/cat-service.cds:2:63-64:" or "service.js:42": a file's name before a
# line number is the place, not the error ("service" is no evidence for "Service ... has no handler")
_FILE_LINE = re.compile(r"[\w./\\@-]{1,300}\.[A-Za-z]{1,8}:\d+(?::\d+)?(?:-\d+)?(?::\d+)?")
_VARIABLE = [
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),  # GUIDs
    re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?"),  # timestamps
    re.compile(r"\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b"),  # clock times
    re.compile(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{16,}\b", re.I),  # hex ids
    re.compile(r"\b\d{6,}\b"),  # long numbers (ids, byte counts)
    re.compile(r"\.{3}|…"),  # placeholders in the bundled patterns
    # user identifiers such as sap_capire_bookshop_Books or my_table (ABAP names are all caps and stay)
    re.compile(r"\b(?=\w*[a-z])\w+(?:_\w+)+\b"),
]
# each code pattern with its kind: numbers (HANA, HDI, SQL), names (ABAP runtime errors, exception
# classes, constants), Node/npm codes, HTTP statuses
_CODES: list[tuple[str, re.Pattern[str]]] = [
    ("number", re.compile(r"\[(\d{1,7})\]")),  # HANA / HDI codes in brackets: [258], [8212002]
    (
        "number",
        re.compile(r"\b(?:sql|jdbc|hdb\w*)\s*(?:error)?\s*(?:code)?\s*[:#]?\s*(\d{1,5})\b", re.I),
    ),  # SQL error 258
    ("number", re.compile(r"\berror\s+(\d{3,5})\b", re.I)),
    # HANA through ODBC and CAP: "General error;1299 no data found", {"code":"260"}
    ("number", re.compile(r";(\d{1,5}) (?=[a-z])")),
    ("number", re.compile(r"\"code\"\s*:\s*\"?(\d{1,7})\b")),
    ("name", re.compile(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+){1,})\b")),  # ABAP runtime errors / exception classes
    ("node", re.compile(r"\b((?!ERROR\b)E[A-Z]{3,}|E\d{3})\b")),  # Node/npm codes: EADDRINUSE, ENOENT, E404 (not ERROR)
    (
        "http",
        re.compile(
            r"\b([1-5]\d\d)\s+(?:Forbidden|Unauthorized|Not Found|Internal Server Error|Bad Gateway|Service Unavailable)\b"
        ),
    ),
]


def _last_segment(match: re.Match[str]) -> str:
    address = match.group().partition("?")[0].partition("#")[0]
    if address.startswith(("http://", "https://")):
        address = address.partition("://")[2].partition("/")[2]  # the host is not a file
    segments = [s for s in _SEPARATORS.split(address) if s]
    return f" {segments[-1]} " if segments else " "


def _quoted(match: re.Match[str]) -> str:
    word = next(g for g in match.groups() if g is not None)
    return f" {word} " if _PLAIN_WORD.fullmatch(word) else " "


def strip_variable_parts(text: str) -> str:
    text = _STACK_FRAME.sub(" ", text)
    text = _CDS_LOCATION.sub(" ", text)
    text = _URL.sub(_last_segment, text)
    text = _PATH.sub(_last_segment, text)
    text = _FILE_LINE.sub(" ", text)
    text = _QUOTED.sub(_quoted, text)
    for pattern in _VARIABLE:
        text = pattern.sub(" ", text)
    return " ".join(text.split())


def coded(text: str) -> dict[str, frozenset[str]]:
    """The error codes of ``text`` (lower-cased) by kind: number, name, node, http; kinds without a code left out."""
    found: dict[str, set[str]] = {}
    for kind, pattern in _CODES:
        for match in pattern.finditer(text):
            found.setdefault(kind, set()).add(match.group(1).lower())
    return {kind: frozenset(codes) for kind, codes in found.items()}


def error_codes(text: str) -> frozenset[str]:
    return frozenset().union(*coded(text).values())
