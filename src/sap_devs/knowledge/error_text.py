"""Error messages reduced to what identifies them: variable parts out, error codes pulled out.

A pasted message carries the user's own table names, paths, GUIDs, ports and timestamps; the
bundled pattern carries placeholders. Both are stripped the same way before matching, and error
codes (HANA ``[258]``, ABAP runtime error names, HDI ``[8212002]``, npm ``E404``, HTTP status
with its reason) are matched exactly on top.
"""

from __future__ import annotations

import re

_VARIABLE = [
    re.compile(r"https?://\S+"),  # URLs
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),  # GUIDs
    re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?"),  # timestamps
    re.compile(r"\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b"),  # clock times
    re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.@~-]+){2,}[\\/]?"),  # file paths
    re.compile(r"'[^'\s]{1,120}'|\"[^\"\s]{1,120}\"|“[^”\s]{1,120}”|‘[^’\s]{1,120}’"),  # quoted names (one word)
    re.compile(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{16,}\b", re.I),  # hex ids
    re.compile(r"\b\d{6,}\b"),  # long numbers (ids, byte counts)
    re.compile(r"\.{3}|…"),  # placeholders in the bundled patterns
    # user identifiers such as sap_capire_bookshop_Books or my_table (ABAP names are all caps and stay)
    re.compile(r"\b(?=\w*[a-z])\w+(?:_\w+)+\b"),
]
_CODES = [
    re.compile(r"\[(\d{1,7})\]"),  # HANA / HDI codes in brackets: [258], [8212002]
    re.compile(r"\b(?:sql|jdbc|hdb\w*)\s*(?:error)?\s*(?:code)?\s*[:#]?\s*(\d{1,5})\b", re.I),  # SQL error 258
    re.compile(r"\berror\s+(\d{3,5})\b", re.I),
    re.compile(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+){1,})\b"),  # ABAP runtime errors / exception classes
    re.compile(r"\b(E[A-Z]{3,}|E\d{3})\b"),  # Node/npm codes: EADDRINUSE, ENOENT, E404
    re.compile(
        r"\b([1-5]\d\d)\s+(?:Forbidden|Unauthorized|Not Found|Internal Server Error|Bad Gateway|Service Unavailable)\b"
    ),
]


def strip_variable_parts(text: str) -> str:
    for pattern in _VARIABLE:
        text = pattern.sub(" ", text)
    return " ".join(text.split())


def error_codes(text: str) -> frozenset[str]:
    codes: set[str] = set()
    for pattern in _CODES:
        for match in pattern.finditer(text):
            codes.add(match.group(1).lower())
    return frozenset(codes)
