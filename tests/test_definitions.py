"""Every tool definition is complete and its generated docs are current."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sap_devs.mcp.docs import render_all
from sap_devs.mcp.framework import CATEGORIES, ENVIRONMENTS
from sap_devs.mcp.registry import discover

TOOLS = discover()
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_definition_is_complete(tool) -> None:
    assert re.fullmatch(r"^[a-z][a-z0-9_]{2,63}$", tool.name)
    assert 80 <= len(tool.description) <= 1024, "descriptions say when to use the tool and what it returns"
    assert tool.title and tool.category in CATEGORIES
    assert tool.available_in and tool.available_in <= {"any", *ENVIRONMENTS}
    a = tool.annotations
    assert a.read_only is True or a.destructive in (True, False)
    Draft202012Validator.check_schema(tool.input_schema)
    assert tool.input_schema["type"] == "object"
    if tool.output is None:
        assert tool.progressive_only, "only the pass-through call_tool has no output schema of its own"
    else:
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.output_schema["type"] == "object"
    assert tool.action in ("read", "list", "search", "create", "update", "delete", "execute")
    assert tool.effective_risk in ("low", "medium", "high")
    if not tool.annotations.read_only and tool.risk is None:
        assert tool.effective_risk == "high", "writes are high risk unless stated"
    for name, spec in tool.input_schema.get("properties", {}).items():
        assert spec.get("description"), f"parameter {name} of {tool.name} has no description"
    tool.input.model_validate(tool.example)  # the documented example call is valid


LIMITED = [t for t in TOOLS if "limit" in t.input_schema.get("properties", {})]


@pytest.mark.parametrize("tool", LIMITED, ids=lambda t: t.name)
def test_limits_follow_the_envelope_families(tool) -> None:
    limit = tool.input_schema["properties"]["limit"]
    assert (limit["default"], limit["maximum"]) in {(10, 50), (20, 100), (5, 50)}
    assert limit["minimum"] == 1
    assert {"count", "total", "results", "hint"} <= set(tool.output_schema["properties"])
    args = {k: v for k, v in tool.example.items() if k != "limit"}
    validator = Draft202012Validator(tool.input_schema)
    assert validator.is_valid({**args, "limit": limit["maximum"]})
    assert not validator.is_valid({**args, "limit": limit["maximum"] + 1}), "the maximum is enforced"
    assert not validator.is_valid({**args, "limit": 0})
    with pytest.raises(ValueError):
        tool.input.model_validate({**args, "limit": limit["maximum"] + 1})


def test_every_tool_answering_a_result_list_takes_a_limit() -> None:
    unlimited = {
        t.name
        for t in TOOLS
        if t.output_schema and "results" in t.output_schema.get("properties", {}) and t not in LIMITED
    }
    # check_released_api answers exactly the names it is given, and those are bounded by max_length
    assert unlimited == {"check_released_api"}


# Parameters of modules other engineers own, still unbounded: listed per tool so every other
# parameter of those tools stays checked. Remove an entry once its module bounds it.
PENDING_BOUNDS: dict[str, set[str]] = {
    "preview_table": {"columns[]", "order_by[]"},
}


def _unbounded(schema: dict[str, Any], defs: dict[str, Any], path: str = "") -> Iterator[str]:
    """Paths of the strings without maxLength, arrays without maxItems and open maps without maxProperties."""
    if "$ref" in schema:
        yield from _unbounded(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, path)
        return
    for sub in schema.get("anyOf", []):
        yield from _unbounded(sub, defs, path)
    kind = schema.get("type")
    if kind == "string" and not {"maxLength", "enum", "const"} & set(schema):
        yield path
    elif kind == "array":
        if "maxItems" not in schema:
            yield path
        yield from _unbounded(schema.get("items", {}), defs, f"{path}[]")
    elif kind == "object":
        for name, sub in schema.get("properties", {}).items():
            yield from _unbounded(sub, defs, f"{path}.{name}" if path else name)
        if schema.get("additionalProperties", False) is not False and "maxProperties" not in schema:
            yield path


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_every_string_list_and_map_parameter_is_bounded(tool) -> None:
    """No argument may make the server tokenise, rank or echo megabytes (a 60,000-character query froze it)."""
    schema = tool.input_schema
    unbounded = set(_unbounded(schema, schema.get("$defs", {}))) - PENDING_BOUNDS.get(tool.name, set())
    assert not unbounded, f"{tool.name}: give these parameters a max_length: {sorted(unbounded)}"


def test_docs_tools_md_is_current() -> None:
    committed = (ROOT / "docs" / "TOOLS.md").read_text(encoding="utf-8")
    assert committed == render_all(), "docs/TOOLS.md is stale: run `sap-devs tools docs`"


def test_docs_cover_every_tool_parameter_and_environment() -> None:
    text = render_all()
    for tool in TOOLS:
        assert f"### `{tool.name}`" in text
        for param in tool.input_schema.get("properties", {}):
            assert f"| `{param}` |" in text
    assert "any (no SAP system needed)" in text


def test_tool_manifest_is_current() -> None:
    from sap_devs.mcp.manifest import MANIFEST_PATH, render_manifest

    assert MANIFEST_PATH.read_text(encoding="utf-8") == render_manifest(TOOLS), "run `sap-devs tools docs`"


def test_server_registry_comes_from_the_manifest_without_importing_tools() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from sap_devs.mcp.registry import Registry\n"
        "r = Registry.default()\n"
        "print(len(r), sum(m.startswith('sap_devs.mcp.tools.') for m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    count, imported = map(int, out.stdout.split())
    assert count == len([t for t in TOOLS if not t.needs_system]) and imported == 0


def test_stale_manifest_falls_back_to_discovery(tmp_path) -> None:
    import json

    from sap_devs.mcp.manifest import MANIFEST_PATH, load_specs

    payload = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
    payload["modules"] = payload["modules"][:-1]
    stale = tmp_path / "tools.json"
    stale.write_text(json.dumps(payload))
    assert load_specs(stale) is None
    assert load_specs(tmp_path / "missing.json") is None
    assert load_specs(MANIFEST_PATH) is not None


def test_a_called_tool_is_imported_lazily_and_equals_its_spec() -> None:
    from sap_devs.mcp.registry import Registry

    registry = Registry.default()
    tool = registry.get("get_known_errors")
    assert tool is not None and tool.spec() == registry.spec("get_known_errors")
