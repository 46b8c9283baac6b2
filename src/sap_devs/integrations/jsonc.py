"""JSON with comments (JSONC): a reader that remembers where every value sits, and surgical edits.

AI-client config files are hand-edited: VS Code and Zed officially allow ``//`` and ``/* */``
comments and trailing commas, and people put them into the other clients' files too. Rewriting
such a file with ``json.dumps`` would drop every comment, so instead we parse it keeping the
character offsets of each object member and change only the text of the one member we own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JsoncError(ValueError):
    """Malformed JSONC; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.detail = message
        self.line = line
        self.column = column


class EditError(ValueError):
    """The file is valid but has a shape we cannot edit (e.g. a key that should be an object is a list)."""


@dataclass
class Node:
    kind: str  # "object", "array" or "scalar"
    start: int
    end: int  # offset just after the value
    value: Any = None
    members: list[Member] = field(default_factory=list)


@dataclass
class Member:
    key: str
    key_start: int
    value: Node
    comma: int | None = None  # offset of the comma after the value, if any


def line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.trailing: list[int] = []  # offsets of commas just before a closing '}' or ']'

    def error(self, message: str, pos: int | None = None) -> JsoncError:
        line, col = line_col(self.text, self.pos if pos is None else pos)
        return JsoncError(message, line, col)

    def skip(self) -> None:
        """Skip whitespace and comments."""
        text, n = self.text, len(self.text)
        while self.pos < n:
            ch = text[self.pos]
            if ch in " \t\r\n\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = n if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.error("unterminated /* comment")
                self.pos = end + 2
            else:
                return

    def value(self) -> Node:
        text, start = self.text, self.pos
        if start >= len(text):
            raise self.error("unexpected end of file, expected a value")
        ch = text[start]
        if ch == "{":
            return self.obj()
        if ch == "[":
            return self.array()
        if ch == '"':
            return self._string_node()
        match = _NUMBER.match(text, start)
        if match and match.end() > start:
            self.pos = match.end()
            return Node("scalar", start, self.pos, value=json.loads(match.group()))
        for word, val in _LITERALS.items():
            if text.startswith(word, start):
                self.pos = start + len(word)
                return Node("scalar", start, self.pos, value=val)
        raise self.error(f"unexpected character {ch!r}")

    def _string_node(self) -> Node:
        start = self.pos
        try:
            value, end = json.decoder.scanstring(self.text, start + 1, True)  # type: ignore[attr-defined]
        except json.JSONDecodeError as exc:
            raise self.error(exc.msg, exc.pos) from None
        self.pos = end
        return Node("scalar", start, end, value=value)

    def obj(self) -> Node:
        node = Node("object", self.pos, self.pos, value={})
        self.pos += 1
        self.skip()
        while True:
            if self.pos >= len(self.text):
                raise self.error("unexpected end of file, expected '}'")
            if self.text[self.pos] == "}":
                break
            if self.text[self.pos] != '"':
                raise self.error("expected a quoted key or '}'")
            key_start = self.pos
            key = self._string_node().value
            self.skip()
            if not self.text.startswith(":", self.pos):
                raise self.error("expected ':' after the key")
            self.pos += 1
            self.skip()
            member = Member(key, key_start, self.value())
            node.members.append(member)
            node.value[key] = member.value.value  # the last duplicate wins, as in json.loads
            self.skip()
            if self.text.startswith(",", self.pos):
                member.comma = self.pos
                self.pos += 1
                self.skip()
                if self.text.startswith("}", self.pos):
                    self.trailing.append(member.comma)
            elif not self.text.startswith("}", self.pos):
                raise self.error("expected ',' or '}'")
        self.pos += 1
        node.end = self.pos
        return node

    def array(self) -> Node:
        node = Node("array", self.pos, self.pos, value=[])
        self.pos += 1
        self.skip()
        while True:
            if self.pos >= len(self.text):
                raise self.error("unexpected end of file, expected ']'")
            if self.text[self.pos] == "]":
                break
            node.value.append(self.value().value)
            self.skip()
            if self.text.startswith(",", self.pos):
                comma = self.pos
                self.pos += 1
                self.skip()
                if self.text.startswith("]", self.pos):
                    self.trailing.append(comma)
            elif not self.text.startswith("]", self.pos):
                raise self.error("expected ',' or ']'")
        self.pos += 1
        node.end = self.pos
        return node


def parse_tree(text: str) -> Node | None:
    """The document's root node; None for a file holding only whitespace and comments."""
    parser = _Parser(text)
    parser.skip()
    if parser.pos >= len(text):
        return None
    root = parser.value()
    parser.skip()
    if parser.pos < len(text):
        raise parser.error("unexpected content after the end of the document")
    return root


def trailing_commas(text: str) -> list[tuple[int, int]]:
    """(line, column) of every trailing comma, which JSONC allows and strict readers such as Gemini CLI's
    settings loader reject; the text must parse."""
    parser = _Parser(text)
    parser.skip()
    if parser.pos < len(text):
        parser.value()
    return [line_col(text, pos) for pos in parser.trailing]


def loads(text: str) -> Any:
    """Parse JSONC into Python values (None for an empty document)."""
    root = parse_tree(text)
    return None if root is None else root.value


# --- surgical edits -------------------------------------------------------------------------------


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _indent_unit(text: str) -> str:
    """The file's indentation step, from its first indented line (2 spaces when there is none)."""
    for line in text.splitlines():
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else lead
    return "  "


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_indent(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _first_on_line(text: str, pos: int) -> bool:
    return text[_line_start(text, pos) : pos].strip(" \t") == ""


def _dump(value: Any, unit: str, base: str, nl: str) -> str:
    """Pretty JSON as people write config by hand: nested objects indented, arrays of scalars on one line."""
    if isinstance(value, dict) and value:
        inner = base + unit
        members = [
            f"{nl}{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(v, unit, inner, nl)}" for k, v in value.items()
        ]
        return "{" + ",".join(members) + nl + base + "}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        inner = base + unit
        return "[" + ",".join(f"{nl}{inner}{_dump(v, unit, inner, nl)}" for v in value) + nl + base + "]"
    return json.dumps(value, ensure_ascii=False)


def _nest(path: list[str], value: Any) -> Any:
    for key in reversed(path):
        value = {key: value}
    return value


Edit = tuple[int, int, str]  # replace text[start:end] with the string


def _apply(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits from the end; edits at the same offset keep their list order."""
    ordered = sorted(enumerate(edits), key=lambda item: (item[1][0], item[0]), reverse=True)
    for _, (start, end, new) in ordered:
        text = text[:start] + new + text[end:]
    return text


def _insert_member(text: str, obj: Node, key: str, value: Any) -> list[Edit]:
    nl, unit = _newline(text), _indent_unit(text)
    obj_indent = _line_indent(text, obj.start)
    multiline = "\n" in text[obj.start : obj.end]
    key_json = json.dumps(key, ensure_ascii=False)
    if not obj.members:
        inner = obj_indent + unit
        member = f"{key_json}: {_dump(value, unit, inner, nl)}"
        if multiline:  # keep whatever comments sit inside the braces, after the new member
            return [(obj.start + 1, obj.start + 1, nl + inner + member)]
        return [(obj.start + 1, obj.end - 1, nl + inner + member + nl + obj_indent)]
    last = obj.members[-1]
    if not multiline:  # a one-line object such as {"a": 1}: stay on one line
        compact = json.dumps(value, ensure_ascii=False)
        if last.comma is None:
            return [(last.value.end, last.value.end, f", {key_json}: {compact}")]
        return [(last.comma + 1, last.comma + 1, f" {key_json}: {compact}")]
    indent = _line_indent(text, last.key_start) if _first_on_line(text, last.key_start) else obj_indent + unit
    anchor = last.value.end if last.comma is None else last.comma + 1
    # Insert after a trailing "// comment" on the same line, so the comment stays with its member.
    rest = re.compile(r"[ \t]*(?://[^\r\n]*)?(?=\r?\n)").match(text, anchor)
    at = rest.end() if rest else anchor
    member = f"{nl}{indent}{key_json}: {_dump(value, unit, indent, nl)}"
    edits: list[Edit] = []
    if last.comma is None:
        edits.append((last.value.end, last.value.end, ","))
    else:
        member += ","  # the file uses trailing commas: keep its style
    edits.append((at, at, member))
    return edits


def _member_span(text: str, member: Member) -> tuple[int, int]:
    """The text of one member including its comma and, when it fills its lines, the line break."""
    start = member.key_start
    end = member.value.end if member.comma is None else member.comma + 1
    if _first_on_line(text, start):
        rest = re.compile(r"[ \t]*(?://[^\r\n]*)?(\r?\n)").match(text, end)
        if rest:
            return _line_start(text, start), rest.end()
    rest = re.compile(r"[ \t]*").match(text, end)
    return start, rest.end() if rest else end


def _remove_members(text: str, obj: Node, key: str, keep_last: bool) -> list[Edit]:
    doomed = [m for m in obj.members if m.key == key]
    if keep_last:
        doomed = doomed[:-1]
    if not doomed:
        return []
    edits = [(*_member_span(text, m), "") for m in doomed]
    kept = [m for m in obj.members if m not in doomed]
    last = obj.members[-1]
    if last in doomed and last.comma is None and kept and kept[-1].comma is not None:
        # The removed member closed the object; the new last member must not keep its separator comma.
        comma = kept[-1].comma
        edits.append((comma, comma + 1, ""))
    return edits


def _walk(root: Node, path: list[str]) -> tuple[Node, int]:
    """Follow ``path`` through objects; returns the deepest object reached and how many keys matched."""
    node = root
    for depth, key in enumerate(path):
        matches = [m for m in node.members if m.key == key]
        if not matches:
            return node, depth
        child = matches[-1].value
        if child.kind != "object":
            raise EditError(f"'{'.'.join(path[: depth + 1])}' is not an object")
        node = child
    return node, len(path)


def set_member(text: str, container: list[str], key: str, value: Any) -> str:
    """Set ``container...[key] = value``, creating missing objects; the rest of the text is untouched."""
    root = parse_tree(text)
    if root is None:
        nl = _newline(text)
        fresh = _dump(_nest([*container, key], value), "  ", "", nl) + nl
        return text.rstrip() + (nl if text.strip() else "") + fresh
    if root.kind != "object":
        raise EditError("the top level is not an object")
    obj, depth = _walk(root, container)
    if depth < len(container):
        return _apply(text, _insert_member(text, obj, container[depth], _nest([*container[depth + 1 :], key], value)))
    matches = [m for m in obj.members if m.key == key]
    if not matches:
        return _apply(text, _insert_member(text, obj, key, value))
    target = matches[-1]
    indent = _line_indent(text, target.key_start)
    replacement = _dump(value, _indent_unit(text), indent, _newline(text))
    edits = [(target.value.start, target.value.end, replacement), *_remove_members(text, obj, key, keep_last=True)]
    return _apply(text, edits)


def remove_member(text: str, container: list[str], key: str) -> str:
    """Remove every ``container...[key]`` member; the text is returned unchanged when there is none."""
    root = parse_tree(text)
    if root is None or root.kind != "object":
        return text
    obj, depth = _walk(root, container)
    if depth < len(container):
        return text
    return _apply(text, _remove_members(text, obj, key, keep_last=False))


def count_members(text: str, container: list[str], key: str) -> int:
    """How often ``key`` appears in the container object (hand-edited files may repeat a key)."""
    root = parse_tree(text)
    if root is None or root.kind != "object":
        return 0
    obj, depth = _walk(root, container)
    return sum(1 for m in obj.members if m.key == key) if depth == len(container) else 0
