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


def test_yaml_flow_style_is_rewritten_and_says_so() -> None:
    new, rewritten = yaml_edit.set_entry('{"mcpServers": [{"name": "a"}]}', "mcpServers", "s", {"name": "s"})
    assert rewritten and yaml.safe_load(new) == {"mcpServers": [{"name": "a"}, {"name": "s"}]}
