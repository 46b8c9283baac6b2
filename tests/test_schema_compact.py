"""What tools/list carries of each schema: shorter than the full schema, never looser or stricter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry, discover
from sap_devs.mcp.schema_compact import LISTED_BARE, SELF_EVIDENT, compact_input, compact_output
from sap_devs.mcp.server import build_server

TOOLS = discover()
BY_NAME = {t.name: t for t in TOOLS}


def _full(name: str) -> dict[str, Any]:
    # generated afresh: a test elsewhere in the run (hypothesis-jsonschema) rewrites the cached schemas in place
    return BY_NAME[name].input.model_json_schema()


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    options = [o for o in node.get("anyOf", []) if o != {"type": "null"}]
    return _resolve(options[0], defs) if len(options) == 1 else node


def _probes(node: dict[str, Any], defs: dict[str, Any], valid: Any) -> Iterator[Any]:
    """Values around the edges of a parameter's rules: lengths, bounds, characters, members, types."""
    node = _resolve(node, defs)
    kind = node.get("type")
    yield from node.get("enum", [])
    yield from ("nope", 7, True, [], {})
    if kind == "string" or "pattern" in node:
        longest = node.get("maxLength", 40)
        for n in (0, 1, 2, 3, 6, 10, 11, longest - 1, longest, longest + 1):
            yield "A" * max(n, 0)
        yield from ("ZCL_X", "$TMP", "/NS/ZX", "Z<X>-1", "a b", "Z.X", "DEVK900123", "DEVK90012", "devk900123", "ZÄ")
        yield from ("000", "0001", "12", "é" * 3)
    if kind in ("integer", "number"):
        for bound in (node.get("minimum", 0), node.get("maximum", 100)):
            yield from (bound - 1, bound, bound + 1)
        yield from (1.5, "1")
    if kind == "array":
        items = node.get("items", {})
        base = valid[0] if isinstance(valid, list) and valid else None
        for item in _probes(items, defs, base):
            yield [item]
        if base is not None:
            yield [base] * (node.get("maxItems", 3) + 1)
            yield [base] * node.get("maxItems", 3)
    if kind == "object" or "properties" in node:
        base = valid if isinstance(valid, dict) else {}
        for name, sub in node.get("properties", {}).items():
            for value in _probes(sub, defs, base.get(name)):
                yield {**base, name: value}
            yield {k: v for k, v in base.items() if k != name}


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_listed_input_schemas_accept_and_refuse_what_the_full_ones_do(tool) -> None:
    """Apart from null for an optional parameter (the listed schema says: omit it) and unknown
    parameters (the server names them in its refusal), a client validating with the listed schema
    decides every call as the server does."""
    full = _full(tool.name)
    listed = compact_input(full)
    full_check, listed_check = Draft202012Validator(full), Draft202012Validator(listed)
    probes = [p for p in _probes(full, full.get("$defs", {}), tool.example) if isinstance(p, dict)]
    assert len(probes) >= 5 * len(full.get("properties", {}))
    for args in probes:
        verdict = full_check.is_valid(args)
        assert listed_check.is_valid(args) == verdict, f"{tool.name} {args!r}: full schema says {verdict}"
    assert listed_check.is_valid(tool.example)


def test_listed_schemas_are_shorter_and_lose_no_parameter() -> None:
    for tool in TOOLS:
        full = _full(tool.name)
        listed = compact_input(full)
        assert set(listed.get("properties", {})) == set(full.get("properties", {})), tool.name
        assert len(str(listed)) < len(str(full)), tool.name


def test_what_a_keyword_already_says_is_not_said_twice() -> None:
    program = compact_input(_full("get_program"))["properties"]
    assert program["name"] == {
        "description": "Object name.",  # one model serves programs, tables, CDS views: no class-name example
        "pattern": "^[A-Za-z0-9_/$<>-]{1,120}$",  # the length bound moved into the pattern
        "type": "string",
    }
    for tool in ("get_table", "get_cds_view", "get_structure", "create_interface"):
        assert "ZCL_" not in str(compact_input(_full(tool))["properties"]["name"]), tool
    assert program["version"]["enum"] == ["active", "inactive"] and "type" not in program["version"]
    for name in ("start_line", "max_lines"):
        assert "description" not in program[name] and _full("get_program")["properties"][name]["description"], (
            "the full schema (docs, get_tool_schemas) keeps the sentence"
        )
    transport = compact_input(_full("create_class"))["properties"]["transport"]
    assert transport["pattern"] == r"^[A-Z0-9]{3}K\d{6}$" and "maxLength" not in transport  # the pattern fixes 10
    docs = compact_input(_full("search_docs"))["properties"]
    assert "description" not in docs["limit"] and docs["limit"]["maximum"] == 50
    assert docs["query"]["description"], "other parameters keep their sentence"
    assert {"limit", "start_line", "max_lines", "kind", "description"} == SELF_EVIDENT


def test_a_parameter_marked_bare_is_listed_without_its_sentence() -> None:
    """The editor tools' shared position (name, line, column, include) says what it is by its names,
    values and bounds: the sentences stay in the full schema only, and the mark is not listed."""
    full = _full("get_quick_fixes")
    listed = compact_input(full)["properties"]
    for name in ("name", "line", "column", "include"):
        assert full["properties"][name]["description"] and full["properties"][name][LISTED_BARE] is True
        assert "description" not in listed[name] and LISTED_BARE not in listed[name], name
    assert listed["line"]["minimum"] == 1 and listed["column"]["minimum"] == 0
    assert listed["source"]["description"] == "Unsaved text.", "unmarked parameters keep their sentence"
    assert "description" in compact_input(_full("get_program"))["properties"]["name"], "marks are per tool"


def test_a_nested_model_used_once_is_written_in_place() -> None:
    full = _full("run_atc")
    listed = compact_input(full)
    assert "$defs" in full and "$defs" not in listed and "$ref" not in str(listed)
    item = listed["properties"]["objects"]["items"]
    assert item["required"] == ["name", "kind"] and "class" in item["properties"]["kind"]["enum"]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        # a negated class matches non-ASCII characters, which JSON Schema patterns count differently
        (
            {"type": "string", "pattern": "^[^ ]+$", "maxLength": 5},
            {"type": "string", "pattern": "^[^ ]+$", "maxLength": 5},
        ),
        # a fixed-width pattern longer than maxLength: the bound still refuses every value, keep it
        (
            {"type": "string", "pattern": r"^\d{6}$", "maxLength": 5},
            {"type": "string", "pattern": r"^\d{6}$", "maxLength": 5},
        ),
        (
            {"type": "string", "pattern": "^[a-z]+$", "minLength": 3, "maxLength": 8},
            {"type": "string", "pattern": "^[a-z]{3,8}$"},
        ),
        # an unanchored pattern allows any length around the match: the bounds stay
        (
            {"type": "string", "pattern": "[a-z]+", "maxLength": 8},
            {"type": "string", "pattern": "[a-z]+", "maxLength": 8},
        ),
        ({"enum": [1, "a"], "type": "string"}, {"enum": [1, "a"], "type": "string"}),  # 1 is no string: type stays
    ],
)
def test_bounds_and_types_are_folded_only_when_equivalent(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    wrapped = {"type": "object", "properties": {"x": schema}}
    assert compact_input(wrapped)["properties"]["x"] == expected


def test_listed_outputs_name_their_fields_and_leave_shared_ones_to_the_instructions() -> None:
    info = compact_output(BY_NAME["get_object_info"].output_schema)
    assert set(info["properties"]) == set(BY_NAME["get_object_info"].output_schema["properties"]) - {"hint"}
    assert all(v == {} for v in info["properties"].values())
    context = compact_output(BY_NAME["get_context"].output_schema)["properties"]
    assert context["verbosity"] == {"enum": ["minimal", "standard", "full"]}, "a fixed set of values stays listed"
    atc = compact_output(BY_NAME["run_atc"].output_schema)["properties"]
    assert "results" in atc and "check_variant" in atc and not {"count", "total", "hint"} & set(atc)
    assert compact_output(BY_NAME["search_docs"].output_schema) is None  # the plain envelope


def test_the_instructions_describe_the_fields_left_out_of_the_listing() -> None:
    registry = Registry(TOOLS, system=True)
    instructions = build_server(registry, ToolContext(), mode="full").instructions
    assert "{count, total, results, hint}, some with more fields" in instructions
    assert "Any result may carry a hint" in instructions


def test_shared_and_recursive_definitions_stay_in_defs() -> None:
    node = {"type": "object", "properties": {"v": {"type": "string", "maxLength": 3}}}
    tree = {"type": "object", "properties": {"child": {"$ref": "#/$defs/Tree"}}}
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Node"}, "b": {"$ref": "#/$defs/Node"}, "t": {"$ref": "#/$defs/Tree"}},
        "$defs": {"Node": node, "Tree": tree},
    }
    listed = compact_input(schema)
    assert set(listed["$defs"]) == {"Node", "Tree"}
    check = Draft202012Validator(listed)
    assert check.is_valid({"a": {"v": "abc"}, "t": {"child": {"child": {}}}})
    assert not check.is_valid({"b": {"v": "abcd"}})
