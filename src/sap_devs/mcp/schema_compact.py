"""Compact JSON Schemas for tools/list: what the model needs to call a tool, nothing it pays for twice.

Every tool's schemas travel with every request, so tools/list drops what pydantic adds for humans:
``title`` on every node and ``anyOf [X, null]`` with ``default: null`` for optional values (an
omitted optional is the same as null). Output schemas keep their top level with nested shapes
reduced to their type; shapes many tools share (the list envelope, ABAP source) are described once
in the server instructions and not listed per tool. get_tool_schemas and docs/TOOLS.md give the full schemas.
"""

from __future__ import annotations

from typing import Any

_MAPS = ("properties", "$defs", "definitions", "patternProperties")


def _node(node: Any, *, keep_descriptions: bool) -> Any:
    if isinstance(node, list):
        return [_node(n, keep_descriptions=keep_descriptions) for n in node]
    if not isinstance(node, dict):
        return node
    options = node.get("anyOf")
    if (
        isinstance(options, list)
        and len(options) == 2
        and {"type": "null"} in options
        and node.get("default", 0) is None
    ):
        (inner,) = [o for o in options if o != {"type": "null"}]
        merged = {**{k: v for k, v in node.items() if k not in ("anyOf", "default")}, **inner}
        return _node(merged, keep_descriptions=keep_descriptions)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key == "description" and not keep_descriptions:
            continue
        if key in _MAPS and isinstance(value, dict):
            out[key] = {name: _node(sub, keep_descriptions=keep_descriptions) for name, sub in value.items()}
        else:
            out[key] = _node(value, keep_descriptions=keep_descriptions)
    return out


def compact_input(schema: dict[str, Any]) -> dict[str, Any]:
    # unknown arguments are still rejected with a message naming them; the flag need not travel
    return {k: v for k, v in _node(schema, keep_descriptions=True).items() if k != "additionalProperties"}


def _shallow(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in prop:
        prop = defs.get(prop["$ref"].rsplit("/", 1)[-1], {})
    kind = prop.get("type")
    if kind == "array":
        items = prop.get("items", {})
        if "$ref" in items:
            items = defs.get(items["$ref"].rsplit("/", 1)[-1], {})
        return {"type": "array", "items": {"type": items.get("type", "object")}}
    if kind == "object" or "properties" in prop:
        return {"type": "object"}
    return {k: v for k, v in prop.items() if k in ("type", "enum")} or {}


# Output shapes many tools share; the server instructions describe each once instead of every
# tool repeating it in tools/list.
SHARED_SHAPES = {
    "envelope": ("count", "total", "results", "hint"),
    "source": (
        "name",
        "type",
        "uri",
        "package",
        "description",
        "version",
        "source",
        "first_line",
        "last_line",
        "total_lines",
        "hint",
    ),
}


def shared_shape(schema: dict[str, Any] | None) -> str | None:
    fields = set((schema or {}).get("properties", {}))
    return next((name for name, shape in SHARED_SHAPES.items() if fields == set(shape)), None)


def compact_output(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """None for a shared shape (described in the instructions)."""
    if schema is None or shared_shape(schema):
        return None
    full = _node(schema, keep_descriptions=False)
    defs = full.get("$defs", {})
    props = {name: _shallow(prop, defs) for name, prop in full.get("properties", {}).items()}
    return {"type": "object", "properties": props}
