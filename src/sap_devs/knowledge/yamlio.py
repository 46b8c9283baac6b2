"""YAML reading that reports problems with the file name and line, never silently."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from sap_devs.core.errors import ContentError

M = TypeVar("M", bound=BaseModel)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    from sap_devs.knowledge.parsed_yaml import lookup

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(str(path), f"cannot be read: {exc.strerror}") from None
    found, data = lookup(path, raw)
    if found:
        return data
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(str(path), f"not UTF-8 text ({exc.reason})") from None
    try:
        return yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ContentError(str(path), f"{where}invalid YAML ({problem})") from None


def describe_validation_error(exc: ValidationError, *, prefix: str = "", sep: str = "; ") -> str:
    """One entry per problem: ``field 'x': what is wrong`` with the location spelled out."""
    lines = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"])
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check the spelling against docs/PACKS.md)"
        lines.append(f"{prefix}field '{loc}': {msg}" if loc else f"{prefix}{msg}")
    return sep.join(lines)


def validate_mapping(model: type[M], data: Any, path: Path) -> M:
    if not isinstance(data, dict):
        raise ContentError(str(path), f"expected a mapping of fields, found {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(str(path), describe_validation_error(exc)) from None


def _item_lines(path: Path) -> list[int]:
    """1-based start line of each top-level list item, for error messages (parsed only on failure)."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=LOADER)
    except (OSError, yaml.YAMLError):
        return []
    if not isinstance(node, yaml.SequenceNode):
        return []
    return [item.start_mark.line + 1 for item in node.value]


def validate_list(model: type[M], data: Any, path: Path) -> list[M]:
    """Validate a YAML list of items; an empty or comment-only file is an empty list.

    Every bad item is reported, not just the first, each with its line.
    """
    if data is None:
        return []
    if not isinstance(data, list):
        raise ContentError(str(path), f"expected a list of items, found {type(data).__name__}")
    items: list[M] = []
    problems: list[tuple[int, str]] = []
    seen: set[str] = set()
    for index, raw in enumerate(data, start=1):
        label = f"item {index}"
        if isinstance(raw, dict) and raw.get("id") is not None:
            label += f" (id {raw['id']!r})"
        elif isinstance(raw, dict) and raw.get("slug") is not None:
            label += f" (slug {raw['slug']!r})"
        if not isinstance(raw, dict):
            problems.append((index, f"{label}: expected a mapping, found {type(raw).__name__}"))
            continue
        try:
            item = model.model_validate(raw)
        except ValidationError as exc:
            for line in describe_validation_error(exc, prefix=f"{label}: ", sep="\n").splitlines():
                problems.append((index, line))
            continue
        key = getattr(item, "id", None) or getattr(item, "slug", None)
        if key is not None:
            if key in seen:
                problems.append((index, f"{label}: duplicate id {key!r}"))
                continue
            seen.add(key)
        items.append(item)
    if problems:
        lines = _item_lines(path)
        located = [f"line {lines[i - 1]}, {text}" if i - 1 < len(lines) else text for i, text in problems]
        raise ContentError(str(path), "\n  ".join(located))
    return items
