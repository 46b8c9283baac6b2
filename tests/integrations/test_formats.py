"""The JSONC reader and the TOML / YAML surgical editors on their own."""

from __future__ import annotations

import tomllib

import pytest
import yaml

from sap_devs.integrations import jsonc, toml_edit, yaml_edit


def test_jsonc_reads_comments_and_trailing_commas() -> None:
    text = '// head\n{\n  "a": [1, 2,], /* mid */\n  "b": {"c": "//not a comment",},\n}\n'
    assert jsonc.loads(text) == {"a": [1, 2], "b": {"c": "//not a comment"}}
    assert jsonc.loads("  // only a comment\n") is None


@pytest.mark.parametrize(
    ("text", "line"),
    [('{\n  "a": 1\n  "b": 2\n}', 3), ('{\n  "a": tru\n}', 2), ("{\n/* open", 2), ('{"a": 1}\n\nx', 3), ("[1,\n", 2)],
)
def test_jsonc_errors_name_the_line(text: str, line: int) -> None:
    with pytest.raises(jsonc.JsoncError) as err:
        jsonc.loads(text)
    assert err.value.line == line


def test_jsonc_insert_into_empty_and_inline_objects() -> None:
    assert jsonc.loads(jsonc.set_member("{}", ["s"], "k", {"x": [1]})) == {"s": {"k": {"x": [1]}}}
    inline = jsonc.set_member('{"s": {"a": 1}}', ["s"], "k", 2)
    assert inline == '{"s": {"a": 1, "k": 2}}'
    commented = jsonc.set_member('{\n  "s": {\n    // nothing yet\n  }\n}', ["s"], "k", 1)
    assert "// nothing yet" in commented and jsonc.loads(commented) == {"s": {"k": 1}}
    with pytest.raises(jsonc.EditError, match="'s' is not an object"):
        jsonc.set_member('{"s": []}', ["s"], "k", 1)


def test_jsonc_remove_keeps_neighbours_valid() -> None:
    text = '{\n  "s": {\n    "a": 1,\n    "k": 2\n  }\n}\n'
    assert jsonc.remove_member(text, ["s"], "k") == '{\n  "s": {\n    "a": 1\n  }\n}\n'
    assert jsonc.remove_member(text, ["s"], "missing") == text
    assert jsonc.remove_member('{"s": {"k": 1, "a": 2}}', ["s"], "k") == '{"s": {"a": 2}}'


def test_toml_set_replace_and_remove_keep_the_rest() -> None:
    text = '# top\n[mcp_servers.a]\ncommand = "a"\n\n# about b\n[b]\nx = 1\n'
    added = toml_edit.set_table(text, "mcp_servers", "sap-devs", {"command": "c", "args": ["x"], "env": {"K": "v"}})
    data = tomllib.loads(added)
    assert data["mcp_servers"]["sap-devs"] == {"command": "c", "args": ["x"], "env": {"K": "v"}}
    assert added.startswith(text)
    replaced = toml_edit.set_table(added, "mcp_servers", "sap-devs", {"command": "d", "args": []})
    assert tomllib.loads(replaced)["mcp_servers"]["sap-devs"] == {"command": "d", "args": []}
    assert "[mcp_servers.sap-devs.env]" not in replaced and "# about b" in replaced
    assert toml_edit.remove_table(replaced, "mcp_servers", "sap-devs") == text


def test_toml_quoted_header_and_multiline_string() -> None:
    text = 'note = """\n[mcp_servers.sap-devs]\n"""\n[mcp_servers."sap-devs"]\ncommand = "old"\n'
    new = toml_edit.set_table(text, "mcp_servers", "sap-devs", {"command": "new"})
    assert tomllib.loads(new) == {"note": "[mcp_servers.sap-devs]\n", "mcp_servers": {"sap-devs": {"command": "new"}}}


def test_toml_error_line() -> None:
    with pytest.raises(toml_edit.TomlError) as err:
        toml_edit.loads("a = 1\n[x\n")
    assert err.value.line == 2


def test_yaml_edits_keep_comments() -> None:
    text = "# top\nmcpServers:\n  # first\n  - name: a\n    command: a  # c\n# bottom\nother: 1\n"
    added, rewritten = yaml_edit.set_entry(text, "mcpServers", "s", {"name": "s", "command": "x"})
    assert not rewritten and "# first" in added and "# bottom" in added and "# c" in added
    assert yaml.safe_load(added)["mcpServers"] == [{"name": "a", "command": "a"}, {"name": "s", "command": "x"}]
    assert yaml_edit.remove_entry(added, "mcpServers", "s") == (text, False)
    alone, _ = yaml_edit.set_entry("mcpServers:\n", "mcpServers", "s", {"name": "s"})
    assert yaml.safe_load(alone) == {"mcpServers": [{"name": "s"}]}
    emptied, _ = yaml_edit.remove_entry(alone, "mcpServers", "s")
    assert yaml.safe_load(emptied) == {"mcpServers": []}


# Continue config.yaml shapes with the server list in brackets, as users write them or as a tool
# that emits JSON leaves them (comments and `${{ secrets.X }}` references included).
FLOW_CONFIGS = {
    "one line": "# mine\nname: Mine  # picker\nversion: 1.0.0\nschema: v1\n"
    "mcpServers: [{name: other, command: npx, args: [-y, x]}]  # servers\n# end\n",
    "one per line, trailing comma": "name: Mine\nversion: 1.0.0\nschema: v1\n# my servers\nmcpServers: [\n"
    "  # docs\n  {name: other, command: x, env: {KEY: '${{ secrets.KEY }}'}},  # keep\n]\nrules:\n  - Be brief  # style\n",
    "one per line": "name: Mine\r\nversion: 1.0.0\r\nschema: v1\r\nmcpServers: [\r\n  {name: a, command: x},\r\n"
    "  {name: b, command: y}  # last\r\n]\r\n",
    "empty": "name: Mine  # my config\nversion: 1.0.0\nschema: v1\nmcpServers: []  # none yet\n",
    "empty, open": "name: Mine\nversion: 1.0.0\nschema: v1\nmcpServers: [  # none yet\n]\n",
    "JSON": '{\n  "name": "Mine",\n  "version": "1.0.0",\n  "schema": "v1",\n  "mcpServers": [\n'
    '    {"name": "a", "command": "x"}\n  ]\n}\n',
    "JSON without the list": '{"name": "Mine", "version": "1.0.0", "schema": "v1"}',
}
ENTRY = {"name": "sap-devs", "type": "stdio", "command": "/opt/sap devs/bin/sap-devs", "args": ["mcp", "serve"]}


def _comments(text: str) -> list[str]:
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


@pytest.mark.parametrize("text", FLOW_CONFIGS.values(), ids=FLOW_CONFIGS.keys())
def test_yaml_flow_lists_keep_comments_and_come_back_byte_for_byte(text: str) -> None:
    added, rewritten = yaml_edit.set_entry(text, "mcpServers", "sap-devs", ENTRY)
    assert not rewritten and _comments(added) == _comments(text)
    before, after = yaml.safe_load(text), yaml.safe_load(added)
    assert after["mcpServers"] == [*(before.get("mcpServers") or []), ENTRY]
    assert {k: v for k, v in after.items() if k != "mcpServers"} == {
        k: v for k, v in before.items() if k != "mcpServers"
    }
    updated, _ = yaml_edit.set_entry(added, "mcpServers", "sap-devs", {**ENTRY, "args": ["mcp", "serve", "-p", "x"]})
    assert yaml.safe_load(updated)["mcpServers"][-1]["args"][-1] == "x" and _comments(updated) == _comments(text)
    removed, rewritten = yaml_edit.remove_entry(updated, "mcpServers", "sap-devs")
    assert not rewritten
    if "mcpServers" in text:
        assert removed == text
    else:  # the list sap-devs added stays, empty (mcp uninstall restores the file from its record)
        assert yaml.safe_load(removed) == {**before, "mcpServers": []} and removed.startswith(text[:-1])


def test_yaml_flow_duplicates_collapse_and_removal_takes_every_copy() -> None:
    text = "mcpServers: [{name: sap-devs, command: old}, {name: a}, {name: sap-devs, command: dup}]  # x\n"
    new, _ = yaml_edit.set_entry(text, "mcpServers", "sap-devs", ENTRY)
    assert yaml.safe_load(new) == {"mcpServers": [ENTRY, {"name": "a"}]} and new.endswith("  # x\n")
    assert yaml_edit.remove_entry(text, "mcpServers", "sap-devs") == ("mcpServers: [{name: a}]  # x\n", False)


def test_yaml_required_keys_go_into_a_flow_document() -> None:
    text = '{"mcpServers": []}  # generated\n'
    keys = yaml_edit.missing_keys(text, {"name": "Local config", "version": "1.0.0", "schema": "v1"})
    new = yaml_edit.add_keys(text, keys)
    assert yaml.safe_load(new) == {"mcpServers": [], "name": "Local config", "version": "1.0.0", "schema": "v1"}
    assert new.endswith("}  # generated\n")


def test_yaml_a_key_without_value_gets_the_list_below_it() -> None:
    text = "# mine\nmcpServers:  # none yet\nother: 1\n"
    new, rewritten = yaml_edit.set_entry(text, "mcpServers", "sap-devs", ENTRY)
    assert not rewritten and new.startswith("# mine\nmcpServers:  # none yet\n  - name: sap-devs\n")
    assert yaml.safe_load(new) == {"mcpServers": [ENTRY], "other": 1}


def test_yaml_shapes_neither_editor_knows_are_rewritten_and_say_so() -> None:
    new, rewritten = yaml_edit.set_entry("mcpServers: [name: a]\n", "mcpServers", "s", {"name": "s"})
    assert rewritten and yaml.safe_load(new) == {"mcpServers": [{"name": "a"}, {"name": "s"}]}


def test_toml_uninstall_keeps_the_blank_lines_the_user_had() -> None:
    text = 'model = "o3"\n\n\n[mcp_servers.other]\ncommand = "x"\n\n'
    added = toml_edit.set_table(text, "mcp_servers", "sap-devs", {"command": "c"})
    assert toml_edit.remove_table(added, "mcp_servers", "sap-devs") == text
