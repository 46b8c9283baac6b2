"""Edits of one entry in a YAML list of named servers (Continue's ``mcpServers``), keeping comments.

PyYAML can only re-dump a whole document, which drops every comment. Its node tree, however,
records where each node starts and ends in the text, so for the usual block-style list we
replace, insert or delete only the lines of the one ``- name: <id>`` item, and for a flow-style
list (``[...]``, or a JSON-looking file) only the one ``{name: <id>, ...}`` item (``yaml_flow``).
ruamel.yaml was measured on the same files and re-indents, moves comments and mixes line endings
across the whole document, so it is not used. Only shapes neither editor recognises (``- - x``,
``[name: a]``) are rewritten as a whole; the caller learns that comments could not be kept there.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from sap_devs.core import safe_yaml
from sap_devs.integrations import yaml_flow


class YamlError(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class EditError(ValueError):
    """Valid YAML with a shape we cannot edit (e.g. ``mcpServers`` is a mapping, not a list)."""


class _IndentedDumper(yaml.SafeDumper):
    """Indent list items under their key (``key:\\n  - a``), as Continue's documentation does."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


def dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_IndentedDumper, sort_keys=False, default_flow_style=False, allow_unicode=True)


def _error(exc: yaml.YAMLError) -> YamlError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else 0
    problem = getattr(exc, "problem", None) or str(exc)
    return YamlError(str(problem), line)


def loads(text: str) -> Any:
    """The document's data; alias bombs and cycles are refused like any other malformed file."""
    try:
        return safe_yaml.load(text)
    except yaml.YAMLError as exc:
        raise _error(exc) from None
    except ValueError as exc:  # PyYAML's date and number constructors, e.g. 2024-13-45
        raise YamlError(str(exc)[:200], 0) from None


def _compose(text: str) -> yaml.Node | None:
    # The same bound as ``loads``: the span helpers below walk through aliases.
    try:
        return safe_yaml.compose(text)
    except yaml.YAMLError as exc:
        raise _error(exc) from None


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _end_of(node: yaml.Node) -> int:
    """Offset just after the last character of a node's content (block mappings end later otherwise).

    A block collection ends where its last scalar or flow part ends. Iterative, and each node is
    visited once: nesting may be as deep as libyaml allows, and aliases share nodes.
    """
    end = 0
    seen: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.SequenceNode):
            children = list(current.value)
        elif isinstance(current, yaml.MappingNode):
            children = [part for pair in current.value for part in pair]
        else:
            children = []
        if isinstance(current, yaml.ScalarNode) or current.flow_style or not children:
            end = max(end, current.end_mark.index)
        else:
            stack.extend(children)
    return end


def _item_name(node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "name" and isinstance(value, yaml.ScalarNode):
                return value.value
    return None


def _item_span(text: str, item: yaml.Node) -> tuple[int, int, int] | None:
    """(start of the item's line, end after its last line break, column of its dash); None if unusual."""
    dash = item.start_mark.index - 1
    while dash >= 0 and text[dash] in " \t":
        dash -= 1
    if dash < 0 or text[dash] != "-":
        return None
    line_start = text.rfind("\n", 0, dash) + 1
    if text[line_start:dash].strip(" "):
        return None  # "- - x" or similar: leave it to the whole-file rewrite
    end = _end_of(item)
    if text[end - 1 : end] == "\n":  # block scalars (|, >) end after their line break already
        return line_start, end, dash - line_start
    rest = re.compile(r"[^\r\n]*(?:\r?\n|$)").match(text, end)
    return line_start, rest.end() if rest else end, dash - line_start


def _render_item(entry: dict[str, Any], column: int, nl: str) -> str:
    lines = dump([entry]).splitlines()
    return "".join(" " * column + line + nl for line in lines)


def _ensure_newline(text: str, nl: str) -> str:
    return text if not text or text.endswith("\n") else text + nl


def _find(root: yaml.MappingNode, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    for k, v in root.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k, v
    return None


def _rewrite(data: Any, key: str, name: str, entry: dict[str, Any] | None, header: dict[str, Any] | None = None) -> str:
    data = {**(header or {}), **dict(data or {})}
    items = [i for i in (data.get(key) or []) if not (isinstance(i, dict) and i.get("name") == name)]
    if entry is not None:
        old = data.get(key) or []
        position = next((n for n, i in enumerate(old) if isinstance(i, dict) and i.get("name") == name), len(items))
        items.insert(min(position, len(items)), entry)
    data[key] = items
    return dump(data)


def _as_json(node: yaml.Node) -> bool:
    """Whether a flow collection is written as JSON (its first key double-quoted): new entries match."""
    while isinstance(node, yaml.SequenceNode) and node.value:
        node = node.value[0]
    if isinstance(node, yaml.MappingNode) and node.value:
        return node.value[0][0].style == '"'
    return False


def _flow_set(text: str, seq: yaml.SequenceNode, name: str, entry: dict[str, Any], as_json: bool) -> str:
    items = list(seq.value)
    rendered = yaml_flow.render(entry, as_json)
    matches = [n for n, item in enumerate(items) if _item_name(item) == name]
    if not matches:
        return yaml_flow.append(text, seq, items[-1] if items else None, rendered)
    for index in reversed(matches[1:]):  # from the end: earlier items keep their offsets
        text = yaml_flow.remove(text, items, index)
    return yaml_flow.replace(text, items[matches[0]], rendered)


def _fill_null(text: str, key: yaml.Node, value: yaml.Node, entry: dict[str, Any], nl: str) -> str:
    """``key:`` with no value (or ``~``, ``null``): the list goes on the lines below, indented under it."""
    start = value.start_mark.index
    while start > key.end_mark.index and text[start - 1] in " \t":
        start -= 1
    text = text[:start] + text[value.end_mark.index :]
    line_end = text.find("\n", key.end_mark.index)
    at = len(text) if line_end < 0 else line_end + 1
    prefix = nl if line_end < 0 else ""
    return text[:at] + prefix + _render_item(entry, key.start_mark.column + 2, nl) + text[at:]


def set_entry(
    text: str, key: str, name: str, entry: dict[str, Any], *, header: dict[str, Any] | None = None
) -> tuple[str, bool]:
    """Put ``entry`` into the list ``key`` as the one item named ``name``.

    Returns the new text and whether the whole file had to be rewritten (comments lost).
    ``header`` holds the top-level keys the client requires: a file created from nothing starts with
    them, and a rewritten one gets those it lacks (the caller adds them to an edited file).
    """
    nl = _newline(text)
    root = _compose(text)
    if root is None:
        fresh = dump({**(header or {}), key: [entry]})
        return _ensure_newline(text, nl) + fresh.replace("\n", nl), False
    if not isinstance(root, yaml.MappingNode):
        raise EditError("the top level is not a mapping")
    found = _find(root, key)
    if found is None:
        if root.flow_style:
            if not yaml_flow.bracketed(text, root, "{", "}"):
                return _rewrite(loads(text), key, name, entry, header), True
            as_json = _as_json(root)
            rendered = f"{yaml_flow.render_key(key, as_json)}: [{yaml_flow.render(entry, as_json)}]"
            return yaml_flow.append(text, root, root.value[-1][1] if root.value else None, rendered), False
        indent = " " * root.start_mark.column
        block = "".join(indent + line + nl for line in dump({key: [entry]}).splitlines())
        return _ensure_newline(text, nl) + block, False
    key_node, value = found
    if isinstance(value, yaml.MappingNode) or (isinstance(value, yaml.ScalarNode) and not value.tag.endswith(":null")):
        raise EditError(f"'{key}' must be a list of servers (- name: ...), not a {value.id}")
    if isinstance(value, yaml.SequenceNode) and value.flow_style and yaml_flow.editable(text, value):
        return _flow_set(text, value, name, entry, _as_json(value) or _as_json(root)), False
    if isinstance(value, yaml.SequenceNode) and not value.flow_style and value.value:
        spans = [_item_span(text, item) for item in value.value]
        if all(spans):
            matches = [s for item, s in zip(value.value, spans, strict=True) if _item_name(item) == name]
            edits: list[tuple[int, int, str]]
            if matches:
                start, end, column = matches[0]  # type: ignore[misc]
                edits = [(start, end, _render_item(entry, column, nl))]
                edits += [(s, e, "") for s, e, _ in matches[1:]]  # type: ignore[misc]
            else:
                _, end, column = spans[-1]  # type: ignore[misc]
                prefix = "" if text[:end].endswith("\n") else nl
                edits = [(end, end, prefix + _render_item(entry, column, nl))]
            for start, end, new in sorted(edits, reverse=True):
                text = text[:start] + new + text[end:]
            return text, False
    if isinstance(value, yaml.ScalarNode) and not root.flow_style:
        return _fill_null(text, key_node, value, entry, nl), False
    return _rewrite(loads(text), key, name, entry, header), True


def missing_keys(text: str, header: dict[str, Any]) -> dict[str, Any]:
    """The ``header`` keys a top-level mapping lacks (empty for other documents)."""
    root = _compose(text)
    if not isinstance(root, yaml.MappingNode):
        return {}
    present = {k.value for k, _ in root.value if isinstance(k, yaml.ScalarNode)}
    return {k: v for k, v in header.items() if k not in present}


def add_keys(text: str, keys: dict[str, Any]) -> str:
    """Insert top-level ``keys``: as lines of their own before the document's first key (after a
    ``---`` line) in a block mapping, after the last key in a flow one."""
    if not keys:
        return text
    root = _compose(text)
    if not isinstance(root, yaml.MappingNode):
        raise EditError("the top level is not a mapping")
    if root.flow_style:
        if not yaml_flow.bracketed(text, root, "{", "}"):
            raise EditError("the top level is not a mapping in braces")
        as_json = _as_json(root)
        pairs = [f"{yaml_flow.render_key(k, as_json)}: {yaml_flow.render(v, as_json)}" for k, v in keys.items()]
        return yaml_flow.append(text, root, root.value[-1][1] if root.value else None, ", ".join(pairs))
    if root.start_mark.column != 0:
        raise EditError("the top level is not a block mapping")
    nl = _newline(text)
    at = text.rfind("\n", 0, root.start_mark.index) + 1
    lines = "".join(line + nl for line in dump(keys).splitlines())
    return text[:at] + lines + text[at:]


def remove_entry(text: str, key: str, name: str) -> tuple[str, bool]:
    """Remove every item named ``name`` from the list ``key`` (unchanged text when there is none);
    returns the text and whether the whole file had to be rewritten."""
    root = _compose(text)
    if not isinstance(root, yaml.MappingNode):
        return text, False
    found = _find(root, key)
    if found is None or not isinstance(found[1], yaml.SequenceNode):
        return text, False
    key_node, value = found
    names = [_item_name(item) for item in value.value]
    if name not in names:
        return text, False
    if value.flow_style:
        if not yaml_flow.editable(text, value):
            return _rewrite(loads(text), key, name, None), True
        items = list(value.value)
        for index in reversed([n for n, item_name in enumerate(names) if item_name == name]):
            text = yaml_flow.remove(text, items, index)
        return text, False
    spans = [_item_span(text, item) for item in value.value]
    if not all(spans):
        return _rewrite(loads(text), key, name, None), True
    if all(n == name for n in names):
        # Nothing left: write an explicit empty list rather than a null value.
        colon = text.index(":", key_node.end_mark.index)
        last_end = spans[-1][1]  # type: ignore[index]
        return text[: colon + 1] + " []" + _newline(text) + text[last_end:], False
    for span, item_name in reversed(list(zip(spans, names, strict=True))):
        if item_name == name:
            start, end, _ = span  # type: ignore[misc]
            text = text[:start] + text[end:]
    return text, False
