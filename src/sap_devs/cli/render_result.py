"""A tool's result as a person reads it at a terminal: titled blocks, Markdown rendered, the hint once.

Agents get JSON; people get the same facts laid out: a list result is a numbered block per item
headed by its title, long text fields are rendered as Markdown (context, fixes, page text), short
fields are ``name: value`` lines, and the envelope's hint is printed once at the end.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.text import Text

# The fields that name an item, in the order one is taken as its heading.
TITLE_KEYS = ("title", "name", "symbol", "id", "pattern", "path", "url")
# Envelope bookkeeping, shown once in the header or not at all.
ENVELOPE_KEYS = {"count", "total", "results", "hint", "has_more", "offset"}
LONG = 100  # characters: a longer string (or one with a line break) is rendered as Markdown
MAX_DEPTH = 3


def _is_long(value: str) -> bool:
    return "\n" in value or len(value) > LONG


def _label(key: str) -> str:
    return key.replace("_", " ")


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _fields(item: dict[str, Any], skip: set[str], depth: int) -> list[RenderableType]:
    short: list[RenderableType] = []
    long: list[RenderableType] = []
    for key, value in item.items():
        if key in skip or value in (None, "", [], {}):
            continue
        if isinstance(value, str) and _is_long(value):
            long.append(Text(_label(key), style="bold cyan"))
            long.append(Padding(Markdown(value), (0, 0, 0, 2)))
        elif isinstance(value, dict):
            if depth >= MAX_DEPTH or (len(value) <= 6 and all(not isinstance(v, (dict, list)) for v in value.values())):
                short.append(_line(key, ", ".join(f"{k}={_scalar(v)}" for k, v in value.items())))
            else:
                long.append(Text(_label(key), style="bold cyan"))
                long.append(Padding(Group(*_fields(value, set(), depth + 1)), (0, 0, 0, 2)))
        elif isinstance(value, list):
            if all(not isinstance(v, (dict, list)) for v in value):
                short.append(_line(key, ", ".join(_scalar(v) for v in value)))
            else:
                long.append(Text(f"{_label(key)} ({len(value)})", style="bold cyan"))
                long.append(Padding(_items(value, depth + 1), (0, 0, 0, 2)))
        else:
            short.append(_line(key, _scalar(value)))
    return short + long


def _line(key: str, value: str) -> Text:
    return Text.assemble((f"{_label(key)}: ", "cyan"), value)


def _title(item: dict[str, Any]) -> tuple[str | None, str]:
    for key in TITLE_KEYS:
        value = item.get(key)
        if isinstance(value, str) and value and not _is_long(value):
            return key, value
    return None, ""


def _items(items: list[Any], depth: int) -> RenderableType:
    blocks: list[RenderableType] = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            blocks.append(Text(f"{number}. {_scalar(item)}"))
            continue
        key, title = _title(item)
        heading = Text(f"{number}. ", style="bold")
        heading.append(title or f"item {number}", style="bold")
        body = _fields(item, {key} if key else set(), depth)
        blocks.append(Group(heading, Padding(Group(*body), (0, 0, 0, 3))) if body else heading)
        if depth == 0:
            blocks.append(Text(""))
    return Group(*blocks)


def render(structured: dict[str, Any]) -> RenderableType:
    """The renderable for a tool's structured result (envelope or single object)."""
    parts: list[RenderableType] = []
    results = structured.get("results")
    if isinstance(results, list):
        shown, total = structured.get("count", len(results)), structured.get("total")
        noun = "result" if total == 1 or (total is None and shown == 1) else "results"
        header = f"{shown} of {total} {noun}" if total not in (None, shown) else f"{shown} {noun}"
        if structured.get("has_more"):
            header += " (more with offset)"
        parts.append(Text(header, style="dim"))
        parts.append(Text(""))
        parts.append(_items(results, 0))
        rest = {k: v for k, v in structured.items() if k not in ENVELOPE_KEYS}
        if rest:
            parts.extend(_fields(rest, set(), 1))
    else:
        parts.extend(_fields(structured, {"hint"}, 0))
    hint = structured.get("hint")
    if hint:
        parts.append(Text.assemble(("hint: ", "bold yellow"), str(hint)))
    return Group(*parts)


def print_result(structured: dict[str, Any], console: Console | None = None) -> None:
    (console or Console()).print(render(structured))
