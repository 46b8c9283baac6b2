"""Edits of one item in a flow-style YAML list (``mcpServers: [{name: a, ...}]``), keeping comments.

The companion of ``yaml_edit`` for lists written in brackets, including a whole document written
as JSON. PyYAML's nodes give the exact span of every item, so an item is inserted after the last
one, replaced in place or cut out with the one comma that goes with it; everything else in the
file, comments and layout included, stays as it was. Removing an item sap-devs added gives back
the text from before, byte for byte. Shapes these helpers do not recognise return None and the
caller falls back to rewriting the file.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

_LINE_TAIL = re.compile(r"[ \t]*(,?)[ \t]*(#[^\r\n]*)?(\r?\n)")
_COMMA_AFTER = re.compile(r"[ \t]*,[ \t]*")
_COMMA_BEFORE = re.compile(r"\s*,\s*$")
_COMMA_LEADING = re.compile(r"([ \t]*),[ \t]*")
_BLANK_OR_COMMENT = re.compile(r"[ \t]*(?:#[^\r\n]*)?\r?\n")
_PLAIN_SAFE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def render(value: Any, as_json: bool) -> str:
    """``value`` on one line in flow style: JSON in a JSON-looking file, else PyYAML's plain style."""
    if as_json:
        return json.dumps(value, ensure_ascii=False)
    text = yaml.safe_dump(value, default_flow_style=True, width=1 << 30, allow_unicode=True, sort_keys=False)
    return text.strip().removesuffix("...").strip()


def render_key(key: str, as_json: bool) -> str:
    return key if not as_json and _PLAIN_SAFE.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def bracketed(text: str, node: yaml.Node, open_char: str, close_char: str) -> bool:
    start, end = node.start_mark.index, node.end_mark.index
    return text[start : start + 1] == open_char and text[end - 1 : end] == close_char


def editable(text: str, seq: yaml.SequenceNode) -> bool:
    """A bracketed list whose mapping items are all in braces (``[name: a]`` items are left alone)."""
    return bracketed(text, seq, "[", "]") and all(
        not isinstance(item, yaml.MappingNode) or bracketed(text, item, "{", "}") for item in seq.value
    )


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _indent_of_line(text: str, index: int) -> str:
    start = _line_start(text, index)
    return text[start : start + len(text[start:index]) - len(text[start:index].lstrip(" \t"))]


def append(text: str, node: yaml.Node, last: yaml.Node | None, rendered: str) -> str:
    """Add ``rendered`` as the last entry of the bracketed collection ``node`` whose last entry ends
    ``last`` (None when empty): on a line of its own when the entries are one per line, else after
    a comma on the same line."""
    closing = node.end_mark.index - 1
    if last is None:
        opening = node.start_mark.index + 1
        tail = _LINE_TAIL.match(text, opening)
        if tail is not None and not tail.group(1) and tail.end() <= _line_start(text, closing):
            # "[  # none yet" with the "]" lines below: the entry goes on a line of its own
            line = _indent_of_line(text, opening) + "  " + rendered + tail.group(3)
            return text[: tail.end()] + line + text[tail.end() :]
        return text[:opening] + rendered + text[opening:]
    end = last.end_mark.index
    tail = _LINE_TAIL.match(text, end)
    if tail is not None and tail.end() <= _line_start(text, closing):
        # one entry per line: a new line in the same indentation, with the list's own comma habit
        nl = tail.group(3)
        trailing = tail.group(1)
        line = _indent_of_line(text, end) + rendered + trailing + nl
        text = text[: tail.end()] + line + text[tail.end() :]
        return text if trailing else text[:end] + "," + text[end:]
    return text[:end] + ", " + rendered + text[end:]


def replace(text: str, item: yaml.Node, rendered: str) -> str:
    return text[: item.start_mark.index] + rendered + text[item.end_mark.index :]


def remove(text: str, items: list[yaml.Node], index: int) -> str:
    """Cut item ``index`` of a bracketed list out with its comma: the inverse of ``append``."""
    item = items[index]
    start, end = item.start_mark.index, item.end_mark.index
    line_start = _line_start(text, start)
    tail = _LINE_TAIL.match(text, end)
    if not text[line_start:start].strip() and tail is not None and tail.group(2) is None:
        # alone on its line: the whole line goes, and the comma append put after the item before
        text = text[:line_start] + text[tail.end() :]
        if not tail.group(1) and index > 0:
            before = items[index - 1].end_mark.index
            if text[before : before + 1] == ",":
                text = text[:before] + text[before + 1 :]
        elif not tail.group(1):
            # the first item, its comma on the next line (a comma-first list, or a trailing comma on a
            # line of its own): that comma goes too, or the list would open with a comma, which is not YAML
            pos = line_start  # past the user's comment and blank lines between the item and that comma
            while (skip := _BLANK_OR_COMMENT.match(text, pos)) is not None:
                pos = skip.end()
            lead = _COMMA_LEADING.match(text, pos)
            if lead is not None:
                text = text[:pos] + lead.group(1) + text[lead.end() :]
        return text
    after = _COMMA_AFTER.match(text, end)
    if after is not None and index < len(items) - 1:
        return text[:start] + text[after.end() :]
    if index > 0:
        before = items[index - 1].end_mark.index
        if _COMMA_BEFORE.search(text[before:start]):
            return text[:before] + text[end:]
    if after is not None:  # the only item, followed by a trailing comma
        return text[:start] + text[after.end() :]
    return text[:start] + text[end:]
