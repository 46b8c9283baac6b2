"""The ``sap-devs`` command line, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sap_devs import package_version
from tests.test_stdio_server import server_env

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sap_devs", *args],
        cwd=cwd,
        env=server_env(home),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_version(tmp_path: Path) -> None:
    proc = run("--version", cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"sap-devs {package_version()}"


def test_tools_list_json(tmp_path: Path) -> None:
    proc = run("tools", "list", "--json-output", cwd=tmp_path, home=tmp_path)
    names = [row["name"] for row in json.loads(proc.stdout)]
    assert "get_known_errors" in names and "check_project" in names


def test_tools_call_with_args_returns_matching_known_error(tmp_path: Path) -> None:
    proc = run(
        "tools",
        "call",
        "get_known_errors",
        "--arg",
        "query=CX_SY_ITAB_LINE_NOT_FOUND",
        "--arg",
        "limit=3",
        cwd=tmp_path,
        home=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["count"] <= 3 and "CX_SY_ITAB_LINE_NOT_FOUND" in out["results"][0]["pattern"]


def test_tools_call_with_json_arguments(tmp_path: Path) -> None:
    proc = run(
        "tools", "call", "get_context", "--json", '{"pack": "btp", "verbosity": "minimal"}', cwd=tmp_path, home=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["packs"] == ["btp"]


def test_tools_call_errors_are_clear(tmp_path: Path) -> None:
    unknown = run("tools", "call", "get_knwon_errors", cwd=tmp_path, home=tmp_path)
    assert unknown.returncode == 2 and "Did you mean: get_known_errors" in unknown.stderr
    invalid = run("tools", "call", "get_context", "--arg", "verbosity=loud", cwd=tmp_path, home=tmp_path)
    assert invalid.returncode == 1 and "Invalid arguments for get_context" in invalid.stderr
    bad_json = run("tools", "call", "get_context", "--json", "{nope", cwd=tmp_path, home=tmp_path)
    assert bad_json.returncode == 2 and "--json is not valid JSON" in bad_json.stderr
    bad_pair = run("tools", "call", "get_context", "--arg", "verbosity", cwd=tmp_path, home=tmp_path)
    assert bad_pair.returncode == 2 and "--arg expects key=value" in bad_pair.stderr
    for proc in (unknown, invalid, bad_json, bad_pair):
        assert "Traceback" not in proc.stderr


def test_tools_docs_check_and_write(tmp_path: Path) -> None:
    target = tmp_path / "TOOLS.md"
    stale = run("tools", "docs", "--check", "--output", str(target), cwd=tmp_path, home=tmp_path)
    assert stale.returncode == 1 and "out of date" in stale.stderr
    wrote = run("tools", "docs", "--output", str(target), cwd=tmp_path, home=tmp_path)
    assert wrote.returncode == 0 and target.read_text() == (ROOT / "docs" / "TOOLS.md").read_text()
    fresh = run("tools", "docs", "--check", "--output", str(target), cwd=tmp_path, home=tmp_path)
    assert fresh.returncode == 0


def test_unknown_environment(tmp_path: Path) -> None:
    proc = run("tools", "list", "--environment", "mainframe", cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 2 and "Unknown SAP system environment 'mainframe'" in proc.stderr


def test_content_validate_reports_every_problem_with_file_line_and_field(tmp_path: Path) -> None:
    pack = tmp_path / "company" / "packs" / "acme"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: acme\nname: ACME\ndescription: Company rules\ntags: [acme]\nwieght: 3\n")
    (pack / "resources.yaml").write_text(
        "- id: acme/wiki\n  title: Wiki\n  url: https://wiki.acme.example/a\n  type: official-docs\n"
        "- id: acme/b\n  title: B\n  url: http://insecure.example\n  type: docs\n"
    )
    (pack / "resource.yml").write_text("")
    proc = run("content", "validate", str(tmp_path / "company"), cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 1
    out = proc.stdout
    assert "pack.yaml: field 'wieght': unknown field" in out
    assert "resources.yaml: line 5, item 2 (id 'acme/b'): field 'url'" in out and "https://" in out
    assert "item 2 (id 'acme/b'): field 'type'" in out
    assert "resource.yml: not a pack file. Did you mean resources.yaml?" in out
    assert "2 error(s)" in out and "Traceback" not in proc.stderr


def test_content_validate_passes_a_good_pack_with_host_warning(tmp_path: Path) -> None:
    pack = tmp_path / "acme"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: acme\nname: ACME\ndescription: Company rules\ntags: [acme]\n")
    (pack / "resources.yaml").write_text(
        "- id: acme/wiki\n  title: Wiki\n  url: https://wiki.acme.example/a\n  type: official-docs\n"
    )
    proc = run("content", "validate", str(pack), cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert "WARNING" in proc.stdout and "wiki.acme.example" in proc.stdout and "0 error(s), 1 warning(s)" in proc.stdout


def test_uninstall_and_status_refuse_a_server_id_that_leaves_the_config_folder(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".continue" / "mcpServers").mkdir(parents=True)
    victim = project / "victim.yaml"  # what .continue/mcpServers/../../victim.yaml points at
    original = "name: ../../victim\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: ../../victim\n    command: x\n"
    victim.write_text(original)
    for extra in (["uninstall", "--scope", "project"], ["status"]):
        proc = run(
            "mcp", *extra, "../../victim", "-c", "continue", "--project", str(project), cwd=tmp_path, home=tmp_path
        )
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "Invalid MCP server id '../../victim'" in proc.stderr and "Traceback" not in proc.stderr
    assert victim.read_text() == original


def test_abap_settings_errors_are_one_clear_line(tmp_path: Path) -> None:
    for settings, says in (
        ({"SAP_TIMEOUT": "abc"}, "SAP_TIMEOUT must be a positive number of seconds"),
        ({"SAP_URL": "https://my-s4.example:99999"}, "Port out of range"),
        ({"SAP_URL": "https://my s4.example"}, "invalid host name"),
        ({"SAP_CLIENT": "1OO"}, "SAP_CLIENT must be a three-digit client number"),
    ):
        env = server_env(tmp_path)
        for var in ("SAP_DEVS_SYSTEM", "SAP_SERVICE_KEY", "SAP_BEARER_TOKEN"):
            env.pop(var, None)
        env.update({"SAP_URL": "https://my-s4.example:44300", "SAP_USER": "DEV", "SAP_PASSWORD": "pw", **settings})
        proc = subprocess.run(
            [sys.executable, "-m", "sap_devs", "abap", "test"],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2 and says in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_tools_call_keeps_the_knowledge_tools_when_the_abap_settings_are_broken(tmp_path: Path) -> None:
    env = server_env(tmp_path)
    env.update({"SAP_URL": "https://my-s4.example:99999", "SAP_USER": "DEV", "SAP_PASSWORD": "pw"})

    def call(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sap_devs", "tools", "call", *args],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )

    proc = call("get_known_errors", "--arg", "query=cds: command not found")
    assert proc.returncode == 0 and json.loads(proc.stdout)["count"] >= 1, proc.stderr
    proc = call("get_class", "--arg", "name=ZCL_DEMO")
    assert proc.returncode != 0 and "Port out of range" in proc.stdout + proc.stderr
    assert "pw" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr


def test_tools_call_json_nested_too_deeply_is_one_clear_line(tmp_path: Path) -> None:
    deep = '{"query": ' + "[" * 5000 + "]" * 5000 + "}"
    proc = run("tools", "call", "get_known_errors", "--json", deep, cwd=tmp_path, home=tmp_path)
    assert proc.returncode == 2 and "nested too deeply" in proc.stderr and "Traceback" not in proc.stderr
