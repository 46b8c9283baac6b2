"""Bracketed server lists in the shapes users write them: the one sap-devs item is cut out with
exactly its comma, added in the list's own layout, and a JSON-looking file stays JSON, with the
user's non-ASCII text as written (mutants scripts/mutation.py found surviving in yaml_flow.py)."""

from __future__ import annotations

import json

import pytest
import yaml

from sap_devs.integrations import yaml_edit

REMOVED = {
    "only item, trailing comma": ("mcpServers: [{name: sap-devs, command: x}, ]\n", "mcpServers: []\n"),
    "middle of one line": (
        "mcpServers: [{name: a}, {name: sap-devs}, {name: b}]\n",
        "mcpServers: [{name: a}, {name: b}]\n",
    ),
    "last of one line": ("mcpServers: [{name: a}, {name: sap-devs}]\n", "mcpServers: [{name: a}]\n"),
    "last of one line, trailing comma": (
        "mcpServers: [{name: a}, {name: sap-devs}, ]\n",
        "mcpServers: [{name: a}, ]\n",
    ),
    "own line, comment after the comma": (
        "mcpServers: [\n  {name: a},\n  {name: sap-devs},  # mine\n]\n",
        "mcpServers: [\n  {name: a},  # mine\n]\n",
    ),
    "own line, comment, no comma": (
        "mcpServers: [\n  {name: a},\n  {name: sap-devs}  # mine\n]\n",
        "mcpServers: [\n  {name: a}  # mine\n]\n",
    ),
    "own last line": ("mcpServers: [\n  {name: a},\n  {name: sap-devs}\n]\n", "mcpServers: [\n  {name: a}\n]\n"),
    "first, beside the bracket": ("mcpServers: [{name: sap-devs},\n  {name: a}]\n", "mcpServers: [\n  {name: a}]\n"),
    "own first line": ("mcpServers: [\n  {name: sap-devs},\n  {name: a}\n]\n", "mcpServers: [\n  {name: a}\n]\n"),
    "last, on the closing line": ("mcpServers: [{name: a},\n  {name: sap-devs}]\n", "mcpServers: [{name: a}]\n"),
    "comma-first, middle": (
        "mcpServers: [\n  {name: a}\n  , {name: sap-devs}\n  , {name: b}\n]\n",
        "mcpServers: [\n  {name: a}\n  , {name: b}\n]\n",
    ),
    # this one used to leave "[\n  , {name: a}" behind, which Continue cannot load
    "comma-first, first": ("mcpServers: [\n  {name: sap-devs}\n  , {name: a}\n]\n", "mcpServers: [\n  {name: a}\n]\n"),
    "comma-first, first, comment after the comma": (
        "mcpServers: [\n  {name: sap-devs}\n  , # theirs\n  {name: a}\n]\n",
        "mcpServers: [\n  # theirs\n  {name: a}\n]\n",
    ),
    "comma-first, first, comment lines before the comma": (
        "mcpServers: [\n  {name: sap-devs}\n  # theirs\n\n  , {name: a}\n]\n",
        "mcpServers: [\n  # theirs\n\n  {name: a}\n]\n",
    ),
    "only item, its comma on the next line": (
        "mcpServers: [\n  {name: sap-devs}\n  ,\n]\n",
        "mcpServers: [\n  \n]\n",
    ),
    "only item, commas further down": (
        "mcpServers: [\n  {name: sap-devs}\n]\n# ,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n",
        "mcpServers: [\n]\n# ,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\n",
    ),
}


@pytest.mark.parametrize(("text", "expected"), REMOVED.values(), ids=REMOVED.keys())
def test_the_item_goes_with_exactly_its_comma(text: str, expected: str) -> None:
    assert yaml_edit.remove_entry(text, "mcpServers", "sap-devs") == (expected, False)
    yaml.safe_load(expected)


ENTRY = {"name": "sap-devs", "command": "/home/jürgen/bin/sap-devs", "args": ["mcp", "serve"]}
AS_YAML = "{name: sap-devs, command: /home/jürgen/bin/sap-devs, args: [mcp, serve]}"
AS_JSON = '{"name": "sap-devs", "command": "/home/jürgen/bin/sap-devs", "args": ["mcp", "serve"]}'

ADDED = {
    "one line": ("mcpServers: [{name: a}]\n", f"mcpServers: [{{name: a}}, {AS_YAML}]\n"),
    "open, empty": ("mcpServers: [\n]\n", f"mcpServers: [\n  {AS_YAML}\n]\n"),
    "open, comment": ("mcpServers: [  # none\n  ]\n", f"mcpServers: [  # none\n  {AS_YAML}\n  ]\n"),
    "closing on the last item's line": (
        "mcpServers: [{name: a},\n  {name: b}]\n",
        f"mcpServers: [{{name: a}},\n  {{name: b}}, {AS_YAML}]\n",
    ),
    "one per line, trailing comma": (
        "mcpServers: [\n  {name: a},\n  {name: b},\n]\n",
        f"mcpServers: [\n  {{name: a}},\n  {{name: b}},\n  {AS_YAML},\n]\n",
    ),
    "flow document": ("{name: Mine}\n", f"{{name: Mine, mcpServers: [{AS_YAML}]}}\n"),
    "JSON": ('{"mcpServers": [{"name": "a"}]}\n', f'{{"mcpServers": [{{"name": "a"}}, {AS_JSON}]}}\n'),
    "JSON without the list": ('{"name": "Mine"}\n', f'{{"name": "Mine", "mcpServers": [{AS_JSON}]}}\n'),
}


@pytest.mark.parametrize(("text", "expected"), ADDED.values(), ids=ADDED.keys())
def test_the_item_is_added_in_the_lists_own_layout(text: str, expected: str) -> None:
    added, rewritten = yaml_edit.set_entry(text, "mcpServers", "sap-devs", ENTRY)
    assert (added, rewritten) == (expected, False)
    if text.startswith('{"'):
        assert json.loads(added)["mcpServers"][-1] == ENTRY, "a JSON file stays JSON"
    if "mcpServers" in text:
        assert yaml_edit.remove_entry(added, "mcpServers", "sap-devs") == (text, False)


def test_a_list_with_plain_items_is_still_edited_in_place() -> None:
    text = "mcpServers: [legacy, {name: a}]  # mine\n"
    added, rewritten = yaml_edit.set_entry(text, "mcpServers", "sap-devs", {"name": "sap-devs"})
    assert (added, rewritten) == ("mcpServers: [legacy, {name: a}, {name: sap-devs}]  # mine\n", False)


def test_a_key_that_is_not_a_plain_name_is_quoted_in_a_flow_document() -> None:
    new = yaml_edit.add_keys("{name: Mine}\n", {"my key": 1, "schema": "v1"})
    assert new == '{name: Mine, "my key": 1, schema: v1}\n'
