"""Surgical edits of one ``[table.<name>]`` in a TOML file (Codex CLI's ``config.toml``).

The standard library reads TOML (``tomllib``) but cannot write it, and re-serialising the whole
file would drop the user's comments and layout. A server entry is a self-contained table, so we
find its header lines in the text, replace or remove just those lines, and let ``tomllib``
confirm the result means exactly what we intended (the caller checks that).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
import tomllib
from typing import Any

_LINE_OF_ERROR = re.compile(r"\(at line (\d+), column (\d+)\)")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_HEADER = re.compile(r"^[ \t]*(\[\[?)(.*?)(\]\]?)[ \t]*(?:#.*)?$")


class TomlError(ValueError):
    """Malformed TOML; ``line`` is 1-based (0 when tomllib did not say)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class EditError(ValueError):
    """Valid TOML we cannot edit safely by lines (e.g. the server is an inline table)."""


def loads(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _LINE_OF_ERROR.search(str(exc))
        raise TomlError(str(exc), int(match.group(1)) if match else 0) from None


def _dotted_key(raw: str) -> list[str] | None:
    """Split a header key such as ``mcp_servers."sap-devs"`` into its parts; None if it is not one."""
    parts: list[str] = []
    pos, raw = 0, raw.strip()
    while True:
        while pos < len(raw) and raw[pos] in " \t":
            pos += 1
        if pos < len(raw) and raw[pos] == '"':
            try:
                part, pos = json.decoder.scanstring(raw, pos + 1, True)  # type: ignore[attr-defined]
            except json.JSONDecodeError:
                return None
        elif pos < len(raw) and raw[pos] == "'":
            end = raw.find("'", pos + 1)
            if end < 0:
                return None
            part, pos = raw[pos + 1 : end], end + 1
        else:
            match = re.compile(r"[A-Za-z0-9_-]+").match(raw, pos)
            if not match:
                return None
            part, pos = match.group(), match.end()
        parts.append(part)
        while pos < len(raw) and raw[pos] in " \t":
            pos += 1
        if pos == len(raw):
            return parts
        if raw[pos] != ".":
            return None
        pos += 1


def _headers(lines: list[str]) -> list[tuple[int, list[str] | None]]:
    """(line index, key) of every table header, skipping lines inside multi-line strings."""
    found: list[tuple[int, list[str] | None]] = []
    open_delim: str | None = None
    for index, line in enumerate(lines):
        if open_delim is None:
            match = _HEADER.match(line.rstrip("\r\n"))
            if match and len(match.group(1)) == len(match.group(3)):
                found.append((index, _dotted_key(match.group(2))))
                continue
        open_delim = _scan_strings(line, open_delim)
    return found


def _scan_strings(line: str, open_delim: str | None) -> str | None:
    """Track whether a multi-line string (\"\"\" or ''') is still open after this line."""
    pos = 0
    while pos < len(line):
        if open_delim:
            end = line.find(open_delim, pos)
            if end < 0:
                return open_delim
            pos, open_delim = end + 3, None
            continue
        ch = line[pos]
        if ch == "#":
            return None
        if line.startswith(('"""', "'''"), pos):
            open_delim, pos = line[pos : pos + 3], pos + 3
        elif ch == '"':
            pos += 1
            while pos < len(line) and line[pos] != '"':
                pos += 2 if line[pos] == "\\" else 1
            pos += 1
        elif ch == "'":
            end = line.find("'", pos + 1)
            pos = len(line) if end < 0 else end + 1
        else:
            pos += 1
    return open_delim


def _blocks(lines: list[str], prefix: list[str]) -> list[tuple[int, int]]:
    """Line ranges [start, end) of every table whose key starts with ``prefix`` (sub-tables included)."""
    headers = _headers(lines)
    ranges = []
    for number, (index, key) in enumerate(headers):
        if key is None or key[: len(prefix)] != prefix:
            continue
        end = headers[number + 1][0] if number + 1 < len(headers) else len(lines)
        # Comments and blank lines just above the next header belong to that header, not to us.
        while end - 1 > index and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        ranges.append((index, end))
    return ranges


def render_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def render_value(value: Any) -> str:
    """A TOML value on one line (nested tables become inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON string escapes are valid TOML basic-string escapes
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, _dt.datetime | _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{render_key(k)} = {render_value(v)}" for k, v in value.items()) + " }"
    raise EditError(f"cannot write a value of type {type(value).__name__}")


def render_table(path: list[str], table: dict[str, Any], nl: str) -> list[str]:
    """``[path]`` with its plain keys, then one ``[path.key]`` sub-table per dict value (e.g. env)."""
    head = ".".join(render_key(p) for p in path)
    lines = [f"[{head}]{nl}"]
    lines += [f"{render_key(k)} = {render_value(v)}{nl}" for k, v in table.items() if not isinstance(v, dict)]
    for key, sub in table.items():
        if isinstance(sub, dict):
            lines.append(f"[{head}.{render_key(key)}]{nl}")
            lines += [f"{render_key(k)} = {render_value(v)}{nl}" for k, v in sub.items()]
    return lines


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def set_table(text: str, container: str, name: str, table: dict[str, Any]) -> str:
    """Write ``[container.name]`` (replacing any existing one and its sub-tables)."""
    data = loads(text)
    lines = text.splitlines(keepends=True)
    blocks = _blocks(lines, [container, name])
    if not blocks and name in (data.get(container) or {}):
        raise EditError(f"'{container}.{name}' is defined inline (not as a [{container}.{name}] table)")
    nl = _newline(text)
    new = render_table([container, name], table, nl)
    if not blocks:
        head = "".join(lines)
        if head and not head.endswith("\n"):
            head += nl
        return head + (nl if head.strip() else "") + "".join(new)
    for start, end in reversed(blocks[1:]):
        del lines[start:end]
    start, end = blocks[0]
    if end == len(lines) and lines and not lines[-1].endswith("\n"):
        lines[-1] += nl
    lines[start:end] = new
    return "".join(lines)


def remove_table(text: str, container: str, name: str) -> str:
    """Remove ``[container.name]`` and its sub-tables; unchanged text when it is not there."""
    data = loads(text)
    lines = text.splitlines(keepends=True)
    blocks = _blocks(lines, [container, name])
    if not blocks:
        if name in (data.get(container) or {}):
            raise EditError(f"'{container}.{name}' is defined inline (not as a [{container}.{name}] table)")
        return text
    for start, end in reversed(blocks):
        del lines[start:end]
        # Drop the one blank line ``set_table`` puts above a table it appends (or one of two left
        # around a table taken from the middle), so install then uninstall gives the text back.
        if start == len(lines) and start > 0 and not lines[start - 1].strip():
            del lines[start - 1]
        elif start < len(lines) and not lines[start].strip() and (start == 0 or not lines[start - 1].strip()):
            del lines[start]
    result = "".join(lines)
    if not result.strip():
        return ""
    return result if result.endswith("\n") else result + _newline(text)
