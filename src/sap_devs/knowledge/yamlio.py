"""YAML reading that reports problems with the file name and line, never silently.

Pack files may come from a cloned repository, so every message quotes file content only in
shortened form and lists a bounded number of problems.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from sap_devs.core import safe_yaml
from sap_devs.core.errors import ContentError

M = TypeVar("M", bound=BaseModel)
MAX_YAML_BYTES = 4 * 1024 * 1024
"""The largest bundled pack file has ~22 KB; anything this big is not a hand-written pack file."""
MAX_PROBLEMS = 20
_MAX_MESSAGE = 300


def _read_bounded(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_YAML_BYTES + 1)
    except OSError as exc:
        raise ContentError(str(path), f"cannot be read: {exc.strerror or exc}") from None
    return bounded(path, raw)


def read_yaml(path: Path) -> Any:
    return parse_yaml(path, _read_bounded(path))


def bounded(path: Path, raw: bytes) -> bytes:
    """``raw`` (read by the caller), or ContentError when it is too large for a pack file."""
    if len(raw) > MAX_YAML_BYTES:
        raise ContentError(str(path), f"larger than {MAX_YAML_BYTES // (1024 * 1024)} MB; split it or remove it")
    return raw


def parse_yaml(path: Path, raw: bytes) -> Any:
    """The YAML in ``raw``, the bytes of ``path`` (named in errors)."""
    from sap_devs.knowledge.parsed_yaml import lookup

    raw = bounded(path, raw)
    found, data = lookup(path, raw)
    if found:
        return data
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(str(path), f"not UTF-8 text ({exc.reason})") from None
    try:
        return safe_yaml.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ContentError(str(path), f"{where}invalid YAML ({_cut(str(problem))})") from None
    except ValueError as exc:
        # PyYAML builds dates and numbers with Python's constructors, which raise plain ValueError
        # (e.g. 2024-13-45, or an integer with more digits than Python converts).
        raise ContentError(str(path), f"invalid YAML value ({_cut(str(exc))})") from None


def _cut(text: str, limit: int = _MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _location(loc: tuple[Any, ...]) -> str:
    # A key of the user's mapping lands in ``loc`` (unknown fields); keys can be any length.
    return ".".join(_cut(str(part), 60) for part in loc)


def describe_validation_error(exc: ValidationError, *, prefix: str = "", sep: str = "; ") -> str:
    """One entry per problem: ``field 'x': what is wrong`` with the location spelled out.

    At most ``MAX_PROBLEMS`` entries, each of bounded length: messages can quote the input value.
    """
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    lines = []
    for err in errors[:MAX_PROBLEMS]:
        loc = _location(err["loc"])
        msg = _cut(err["msg"])
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check the spelling against docs/PACKS.md)"
        lines.append(f"{prefix}field '{loc}': {msg}" if loc else f"{prefix}{msg}")
    if len(errors) > MAX_PROBLEMS:
        lines.append(f"{prefix}... and {len(errors) - MAX_PROBLEMS} more problem(s)")
    return sep.join(lines)


def validate_mapping(model: type[M], data: Any, path: Path) -> M:
    if not isinstance(data, dict):
        raise ContentError(str(path), f"expected a mapping of fields, found {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(str(path), describe_validation_error(exc)) from None


def _item_lines(path: Path, raw: bytes | None) -> list[int]:
    """1-based start line of each top-level list item, for error messages (parsed only on failure)."""
    try:
        node = safe_yaml.compose((_read_bounded(path) if raw is None else bounded(path, raw)).decode("utf-8"))
    except (ContentError, UnicodeDecodeError, yaml.YAMLError):
        return []
    if not isinstance(node, yaml.SequenceNode):
        return []
    return [item.start_mark.line + 1 for item in node.value]


def validate_list(model: type[M], data: Any, path: Path, source: bytes | None = None) -> list[M]:
    """Validate a YAML list of items; an empty or comment-only file is an empty list.

    Every bad item is reported, not just the first, each with its line (from ``source``, the bytes
    ``data`` was parsed from, when given; else the file is read again).
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
            label += f" (id {safe_yaml.shorten(raw['id'])})"
        elif isinstance(raw, dict) and raw.get("slug") is not None:
            label += f" (slug {safe_yaml.shorten(raw['slug'])})"
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
                problems.append((index, f"{label}: duplicate id {safe_yaml.shorten(key)}"))
                continue
            seen.add(key)
        items.append(item)
    if problems:
        lines = _item_lines(path, source)
        shown = problems[:MAX_PROBLEMS]
        located = [f"line {lines[i - 1]}, {text}" if i - 1 < len(lines) else text for i, text in shown]
        if len(problems) > MAX_PROBLEMS:
            located.append(f"... and {len(problems) - MAX_PROBLEMS} more problem(s)")
        raise ContentError(str(path), "\n  ".join(located))
    return items
