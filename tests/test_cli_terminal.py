"""What a person sees at a terminal (issue 30): readable tool results, tool help, conventional CLI help."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.terminal import run_in_terminal
from tests.test_cli import run


def test_tool_result_reads_as_text_with_the_hint_once(tmp_path: Path) -> None:
    code, shown = run_in_terminal(
        "tools", "call", "search_docs", "--arg", "query=destination service", "--arg", "limit=2",
        cwd=tmp_path, home=tmp_path,
    )  # fmt: skip
    assert code == 0, shown
    assert not shown.lstrip().startswith("{") and '"results"' not in shown  # not the JSON an agent gets
    assert re.search(r"^2 of \d+ results", shown, re.M)
    assert re.search(r"^1\. \S", shown, re.M) and re.search(r"^2\. \S", shown, re.M)  # a block per result
    assert shown.count("read_doc") == 1 and shown.count("hint:") == 1


def test_markdown_fields_are_rendered(tmp_path: Path) -> None:
    code, shown = run_in_terminal("tools", "call", "get_context", "--arg", "pack=cap", cwd=tmp_path, home=tmp_path)
    assert code == 0, shown
    assert "### Constraints" not in shown and "Constraints" in shown  # headings rendered, not raw Markdown
    assert "\\n" not in shown  # no escaped line breaks


def test_json_output_stays_json_on_a_terminal(tmp_path: Path) -> None:
    code, shown = run_in_terminal(
        "tools", "call", "search_docs", "--arg", "query=destination", "--arg", "limit=1", "--json-output",
        cwd=tmp_path, home=tmp_path,
    )  # fmt: skip
    assert code == 0 and json.loads(shown)["count"] == 1


def test_tool_help_lists_parameters_with_types_defaults_and_bounds(tmp_path: Path) -> None:
    for args in (("tools", "call", "get_known_errors", "--help"), ("tools", "describe", "get_known_errors")):
        code, shown = run_in_terminal(*args, cwd=tmp_path, home=tmp_path, columns=160)
        assert code == 0, shown
        row = next(line for line in shown.splitlines() if "│ limit" in line)
        assert "integer" in row and "10" in row and "<= 50" in row
        assert "required" in next(line for line in shown.splitlines() if "│ query" in line)
        assert "sap-devs tools call get_known_errors --arg query=..." in shown


def test_meta_tools_are_callable(tmp_path: Path) -> None:
    proc = run("tools", "call", "search_tools", "--arg", "query=explain an error message", cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"][0]["name"] == "get_known_errors"


def test_help_uses_conventional_metavars(tmp_path: Path) -> None:
    for args in (("check", "--help"), ("tools", "call", "--help"), ("sync", "--help"), ("mcp", "install", "--help")):
        code, shown = run_in_terminal(*args, cwd=tmp_path, home=tmp_path)
        assert code == 0, shown
        assert not re.search(r"<(str|int|bool|path|list\[[a-z]+\])>|(?<!\$)\{[A-Za-z_]+\}", shown), shown
    _, check_help = run_in_terminal("check", "--help", cwd=tmp_path, home=tmp_path)
    assert "Usage: sap-devs check [OPTIONS] [PATH]" in check_help
    assert re.search(r"--profile\s+-p\s+TEXT", check_help)


def test_tools_docs_is_hidden_from_users(tmp_path: Path) -> None:
    code, shown = run_in_terminal("tools", "--help", cwd=tmp_path, home=tmp_path)
    assert code == 0 and "describe" in shown and not re.search(r"^│\s+docs\b", shown, re.M)


def test_http_serve_help_reads_like_the_rest_of_the_cli(tmp_path: Path) -> None:
    from sap_devs.cli.serve import http_parser

    for action in http_parser()._actions:
        if action.option_strings and action.dest != "help":
            assert action.help and action.help.strip(), f"{action.option_strings[0]} has no help"
            assert action.nargs == 0 or action.metavar in ("TEXT", "INTEGER") or action.metavar.startswith("[")
    proc = run("mcp", "serve", "--transport", "http", "--help", cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    shown = " ".join(proc.stdout.split())  # argparse wraps at the terminal width
    assert shown.startswith("usage: sap-devs mcp serve --transport http [OPTIONS]")
    assert not re.search(r"--[a-z-]+ [A-Z]+_[A-Z_]+", shown)  # no argparse dest names (OIDC_ISSUER) as metavars
    assert "--port INTEGER" in shown and "[env var: SAP_DEVS_HTTP_PORT or PORT]" in shown


def test_check_on_a_terminal_wraps_fixes_instead_of_cutting_them(tmp_path: Path) -> None:
    project = Path(__file__).parent / "fixtures" / "projects" / "fiori-tools-cap-hybrid"
    code, shown = run_in_terminal("check", str(project), "--tools", "none", cwd=tmp_path, home=tmp_path, columns=80)
    assert code == 0, shown
    assert "…" not in shown
    joined = " ".join(line.strip() for line in shown.splitlines())
    assert "Upgrade @sap/cds and @sap/cds-dk to 10 (read the CAP release notes for each major in between)." in joined
    assert all(len(line) <= 80 for line in shown.splitlines())
