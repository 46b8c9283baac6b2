"""The lines of a pasted log or stack trace that carry the error.

Developers paste whole build logs and stack traces (tens of kilobytes) into ``get_known_errors``.
Matching all of it lets the noise decide: every INFO line, dependency list and stack frame adds
words that some entry happens to share. What identifies the error sits on a few lines: the ones a
tool marks as an error (``Error:``, ``[ERROR]``, ``npm ERR!``, ``Error[code]``, ``E  ...`` in ABAP
dumps), the ``Caused by:`` chain of a Java trace, the message line right above a block of stack
frames, and the lines naming an ABAP runtime error or exception class (``CX_SY_*``, ``DBSQL_*``,
``MESSAGE_TYPE_X``). A short message is used whole: it is all error.

Every pattern here is matched line by line and anchored or bounded, so a 64 KB paste (or one
64 KB line) costs one linear pass.
"""

from __future__ import annotations

import re

SHORT_PASTE = 2000
"""Up to this many characters a paste is used whole (one message with a few lines around it)."""
MAX_LINES = 40
MAX_CHARS = 4000
"""What is matched at most: the first error lines up to these bounds (the first error is the cause;
the rest mostly repeat or follow from it)."""
LINE_CHARS = 500
"""One line of a log is cut to this length: minified bundles and JSON dumps put 60 KB on one line."""

# a line a tool marks as an error, wherever the marker sits on the line
_MARKED = re.compile(
    r"\bERR!|\[(?:ERROR|FATAL|SEVERE|error)\]|\b(?:ERROR|FATAL|SEVERE)\b|"
    r"\b(?:Error|error|Exception|Fehler)\b\s*(?:\[[\w.-]{1,60}\])?\s*:|"  # Error: / Error[code]: / error:
    r"(?:Error|Exception|Fault)(?::|\s*\[)|"  # TypeError: / java.io.IOException: / SqliteError [
    r"^\s*(?:Caused by|Uncaught|Unhandled|fatal|FAILED|Failed|failed|Error|error)\b|"
    r"^\s*\d+:\d+\s+error\b"  # a linter finding: "12:5 error ..."
)
# words of a failure on an unmarked line: matched only while the marked lines leave room
_FAILURE_WORDS = re.compile(r"\b(?:failed|cannot|could not|not found|denied|refused|invalid|unable to)\b", re.I)
# ABAP runtime errors and exception classes, HANA / HDI codes, npm codes: the error's own name
_NAMED = re.compile(
    r"\b(?:CX_[A-Z0-9_]{2,}|[A-Z0-9_]{2,}_(?:ERROR|FAILED|NOT_FOUND|OVERFLOW|ZERODIVIDE|EXCEPTION)|"
    r"MESSAGE_TYPE_X|TIME_OUT|DBSQL_[A-Z0-9_]+|SAPSQL_[A-Z0-9_]+|ITAB_[A-Z0-9_]+|CONVT_[A-Z0-9_]+|"
    r"OBJECTS_[A-Z0-9_]+|GETWA_[A-Z0-9_]+|COMPUTE_[A-Z0-9_]+|ASSERTION_FAILED|UNCAUGHT_EXCEPTION)\b|"
    r"^\s*(?:Runtime Errors?|Except\.|Exception|Short Text|Short dump)\b|"
    r"\[\d{1,7}\]\s*:|\bcode\s+E[A-Z0-9]{3,}\b"
)
_FRAME = re.compile(r"\s*(?:at\s+\S|\.\.\.\s*\d+\s+more\b|File \"[^\"\n]*\", line \d+)")
# log lines that say nothing went wrong, even where they name an error class (retry notices, summaries)
_QUIET = re.compile(r"^\s*(?:\[?(?:INFO|DEBUG|TRACE)\]?\b|\d+ (?:problems?|errors?|warnings?)\b.*\bfound\b)", re.I)


# substrings one of the patterns needs: lines without any skip the regular expressions (a log is
# mostly such lines, and a substring test is far cheaper than a search with many alternatives)
_MARKED_KEYS = (
    "ERR",
    "rror",
    "FATAL",
    "Fatal",
    "fatal",
    "SEVERE",
    "xception",
    "Fault",
    "Fehler",
    "Caused",
    "ncaught",
    "nhandled",
    "FAILED",
    "Failed",
    "failed",
)
_NAMED_KEYS = ("_", "Runtime Error", "Except", "Short ", "code E", "]:", "] :")
_FAILURE_KEYS = (
    "ail",
    "annot",
    "ould not",
    "ot found",
    "enied",
    "efused",
    "nvalid",
    "nable to",
    "AIL",
    "ANNOT",
    "NVALID",
)


def _kind(line: str, above_frames: bool) -> int:
    """2 for a line that carries the error, 1 for one that only sounds like a failure, 0 otherwise."""
    if _QUIET.match(line):
        return 0
    if above_frames:
        return 2
    if any(k in line for k in _MARKED_KEYS) and _MARKED.search(line):
        return 2
    if any(k in line for k in _NAMED_KEYS) and _NAMED.search(line):
        return 2
    return 1 if any(k in line for k in _FAILURE_KEYS) and _FAILURE_WORDS.search(line) else 0


def error_lines(text: str) -> str:
    """The part of ``text`` to match on: all of a short paste; of a long one the lines that carry
    the error, in their order, at most MAX_LINES and MAX_CHARS; the paste's head and tail when no
    line says so (a log that never says "error" still ends where it failed)."""
    if len(text) <= SHORT_PASTE:
        return text
    lines = text.splitlines()
    kinds: dict[int, int] = {}
    seen: set[str] = set()
    for i, raw in enumerate(lines):
        line = raw.strip()[:LINE_CHARS]
        if not line or _FRAME.match(line) or line in seen:
            continue
        above_frames = i + 1 < len(lines) and _FRAME.match(lines[i + 1][:LINE_CHARS]) is not None
        kind = _kind(line, above_frames)
        if kind:
            seen.add(line)
            kinds[i] = kind
    chosen: list[int] = []
    size = 0
    for wanted in (2, 1):  # the marked lines first, in their order; failure words fill what is left
        for i, kind in kinds.items():
            if kind != wanted or len(chosen) >= MAX_LINES or size >= MAX_CHARS:
                continue
            chosen.append(i)
            size += min(len(lines[i].strip()), LINE_CHARS) + 1
    if chosen:
        return "\n".join(lines[i].strip()[:LINE_CHARS] for i in sorted(chosen))[:MAX_CHARS]
    half = SHORT_PASTE // 2
    return f"{text[:half]}\n{text[-half:]}"
