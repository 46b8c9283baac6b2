"""Compact JSON Schemas for tools/list: what the model needs to call a tool, nothing it pays for twice.

Every tool's schemas travel with every request, so tools/list drops what pydantic adds for humans:
``title`` on every node and ``anyOf [X, null]`` with ``default: null`` for optional values (an
omitted optional is the same as null). What one keyword already says is not said again: an
``enum`` implies its ``type``, a name pattern carries its length bounds, a nested model used once
is written where it is used, and parameters whose name, default and bounds explain them
(``SELF_EVIDENT``) travel without their sentence. Apart from null for an optional parameter and
unknown parameters (both refused by the server with the parameter's name), a listed input schema
accepts and refuses exactly what the full one does.

Output schemas name their top-level fields (with the values of a fixed set): the model reads the
answer itself, and some clients (Codex's code mode) show the names. Shapes many tools share (the
list envelope, ABAP source) and the ``hint`` any result may carry are described once in the server
instructions instead. get_tool_schemas and docs/TOOLS.md give the full schemas, types included.
"""

from __future__ import annotations

import re
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
    if node.get("default", 0) is None:  # omitted is null: the default says nothing
        node = {k: v for k, v in node.items() if k != "default"}
    if "enum" in node and "type" in node and all(_is_type(v, node["type"]) for v in node["enum"]):
        node = {k: v for k, v in node.items() if k != "type"}
    node = _bounds_in_pattern(node)
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


_JSON_TYPES: dict[str, type] = {"string": str, "boolean": bool, "array": list, "object": dict}


def _is_type(value: Any, kind: Any) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return kind in _JSON_TYPES and isinstance(value, _JSON_TYPES[kind])


# A positive character class of printable ASCII: one character is one code point (and one UTF-16
# unit, as JSON Schema's ECMA-262 patterns count), so pattern repeats and min/maxLength agree.
_CLASS = r"\[(?!\^)[\x20-\x5b\x5e-\x7e]+\]"
# (patterns as text: compiled on first use, not when the fast front imports this module for the instructions)
_ONE_CLASS = rf"\^({_CLASS})\+\$"  # ^[...]+$: how name-like parameters are constrained
_PIECE = rf"(?:{_CLASS}|\\d|[A-Za-z0-9_])(?:\{{(\d+)\}})?"  # class, digit or literal, maybe {n} times
_FIXED = rf"\^(?:{_PIECE})+\$"


def _bounds_in_pattern(node: dict[str, Any]) -> dict[str, Any]:
    """Move min/maxLength into an anchored one-class pattern, or drop them when the pattern fixes the length."""
    pattern, longest = node.get("pattern"), node.get("maxLength")
    if not isinstance(pattern, str) or not isinstance(longest, int):
        return node
    shortest = max(node.get("minLength", 1), 1)  # the + already asks for one character
    rest = {k: v for k, v in node.items() if k not in ("minLength", "maxLength")}
    if one := re.fullmatch(_ONE_CLASS, pattern):
        return {**rest, "pattern": f"^{one.group(1)}{{{shortest},{longest}}}$"}
    if re.fullmatch(_FIXED, pattern):
        width = sum(int(times or 1) for times in re.findall(_PIECE, pattern[1:-1]))
        if shortest <= width <= longest:
            return rest
    return node


# Parameters whose name, default and bounds say what they do: their sentence stays in the full schema.
SELF_EVIDENT = frozenset({"limit", "start_line", "max_lines", "kind", "description"})
LISTED_BARE = "x-listed-bare"
"""Marks one tool's parameter as self-evident where its name alone is not (``name`` next to a ``kind``,
``line`` and ``column`` with their minimum): listed without its sentence, the mark itself not listed."""


def _refs(node: Any) -> list[str]:
    if isinstance(node, list):
        return [r for n in node for r in _refs(n)]
    if not isinstance(node, dict):
        return []
    own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return own + [r for v in node.values() for r in _refs(v)]


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """Replace each reference to a definition in ``defs`` by the definition itself."""
    if isinstance(node, list):
        return [_inline(n, defs) for n in node]
    if not isinstance(node, dict):
        return node
    target = node.get("$ref")
    if isinstance(target, str) and target in defs:
        return {**{k: v for k, v in node.items() if k != "$ref"}, **defs[target]}
    return {k: _inline(v, defs) for k, v in node.items()}


def _inline_single_use(schema: dict[str, Any]) -> dict[str, Any]:
    """A nested model used once (the item of one list) is written where it is used: the same schema
    without the ``$defs`` entry and the pointer to it."""
    defs = schema.get("$defs")
    if not isinstance(defs, dict):
        return schema
    refs = _refs({k: v for k, v in schema.items() if k != "$defs"})
    once = {
        f"#/$defs/{name}": body
        for name, body in defs.items()
        if refs.count(f"#/$defs/{name}") == 1 and not _refs(body)  # a definition with references stays put
    }
    kept = {name: body for name, body in defs.items() if f"#/$defs/{name}" not in once}
    out = _inline({k: v for k, v in schema.items() if k != "$defs"}, once)
    return {**out, "$defs": kept} if kept else out


def compact_input(schema: dict[str, Any]) -> dict[str, Any]:
    # unknown arguments are still rejected with a message naming them; the flag need not travel
    out = {k: v for k, v in _node(schema, keep_descriptions=True).items() if k != "additionalProperties"}
    for props in [out.get("properties", {}), *(d.get("properties", {}) for d in out.get("$defs", {}).values())]:
        for name, prop in props.items():
            if name in SELF_EVIDENT or prop.get(LISTED_BARE):
                props[name] = {k: v for k, v in prop.items() if k not in ("description", LISTED_BARE)}
    return _inline_single_use(out)


def _field(prop: dict[str, Any]) -> dict[str, Any]:
    # an output field is listed by name (and its values when it has a fixed set): the model reads the
    # answer itself, and types are in get_tool_schemas and docs/TOOLS.md
    return {"enum": prop["enum"]} if "enum" in prop else {}


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


def described_once(fields: set[str] | dict[str, Any]) -> set[str]:
    """The output fields the instructions describe for every tool: the hint any result may carry, and
    the envelope's counts beside its ``results`` (which stays listed: it marks a list answer)."""
    return {"hint"} | ({"count", "total"} if "results" in fields else set())


def compact_output(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """None for a shared shape (described in the instructions)."""
    if schema is None or shared_shape(schema):
        return None
    shown = _node(schema, keep_descriptions=False).get("properties", {})
    props = {name: _field(prop) for name, prop in shown.items() if name not in described_once(shown)}
    return {"type": "object", "properties": props}
