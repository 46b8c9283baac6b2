"""``sap-devs check``: the project findings grouped by severity, --json for scripts, exit 1 on errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from sap_devs.cli import check_cmd
from sap_devs.cli.app import app

CORPUS = Path(__file__).parent / "fixtures" / "projects"


def run(*args: str) -> tuple[int, str]:
    """The project checks alone: SAP's compilers and linters have their own tests (test_check_linters)."""
    result = CliRunner().invoke(app, ["check", *args, "--no-linters"], env={"COLUMNS": "400"})
    return result.exit_code, result.output


def test_a_healthy_project_exits_0_and_shows_its_warnings_by_severity() -> None:
    code, out = run(str(CORPUS / "fiori-tools-cap-hybrid"), "--no-tools")
    assert code == 0, out
    assert "CAP (Node.js), MTA, App router, SAPUI5 / Fiori" in out
    assert out.index("warning (2)") < out.index("info (3)")
    assert "@sap/cds 6 is out of maintenance" in out and "package.json:" in out
    assert "localrouter/package.json:4" in out and "@sap/approuter '^14.0.0'" in out
    assert "pins @ui5/cli '^3.0.0'; the current UI5 CLI is 4" in out  # one major behind: info
    assert "0 error(s), 2 warning(s), 3 info(s)" in out


def test_errors_exit_1_and_json_names_file_line_and_fix(tmp_path: Path) -> None:
    root = Path(shutil.copytree(CORPUS / "cap-sflight", tmp_path / "sflight"))
    pkg = json.loads((root / "package.json").read_text(encoding="utf-8"))
    pkg["cds"]["requires"]["[production]"] = {"auth": "mocked"}
    (root / "package.json").write_text(json.dumps(pkg, indent=2), encoding="utf-8")
    code, out = run(str(root), "--json", "--no-tools")
    assert code == 1
    data = json.loads(out)
    assert data["path"] == str(root) and data["tools"] == []
    [error] = [f for f in data["findings"] if f["severity"] == "error"]
    assert error["file"] == "package.json" and error["line"] and "mocked" in error["message"] and error["fix"]
    assert data["summary"]["error"] == 1 and isinstance(data["seconds"], float)


def test_a_missing_folder_is_one_clear_sentence(tmp_path: Path) -> None:
    code, out = run(str(tmp_path / "nope"), "--no-tools")
    assert code == 2 and out.count("does not exist") == 1 and out.count("Pass the project root folder") == 0
    assert len(out.strip().splitlines()) == 1


def test_an_empty_folder_is_not_an_sap_project_and_says_what_was_looked_for(tmp_path: Path) -> None:
    code, out = run(str(tmp_path), "--tools", "none")
    assert code == 0 and "is not an SAP project" in out and "No findings" not in out
    for marker in ("package.json with @sap/cds", "mta.yaml", "ui5.yaml", ".abapgit.xml", "xs-app.json"):
        assert marker in out


FAKE_TOOLS = [
    {"id": tool, "name": tool, "status": "missing", "required": ">=1", "install": f"install {tool}"}
    for tool in ("git", "node", "npm", "cds-dk", "java", "maven", "helm", "kubectl", "hana-cli", "yeoman", "mbt")
]


def test_tool_checks_fit_the_detected_project(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "bookshop"
    root.mkdir()
    (root / "package.json").write_text('{"dependencies": {"@sap/cds": "^10", "@cap-js/sqlite": "^3"}}')
    monkeypatch.setattr(check_cmd, "_tools", lambda ctx: [dict(t) for t in FAKE_TOOLS])
    _, shown = run(str(root), "--json")
    assert {t["id"] for t in json.loads(shown)["tools"]} == {"git", "node", "npm", "cds-dk"}  # CAP Node.js
    _, everything = run(str(root), "--json", "--tools", "all")
    assert {t["id"] for t in json.loads(everything)["tools"]} == {t["id"] for t in FAKE_TOOLS}
    _, none = run(str(root), "--json", "--tools", "none")
    assert json.loads(none)["tools"] == []
    code, bad = run(str(root), "--tools", "some")
    assert code == 2 and "--tools takes project, all, none" in bad


def test_fix_commands_are_never_cut_at_80_columns(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "bookshop"
    root.mkdir()
    (root / "package.json").write_text('{"dependencies": {"@sap/cds": "^10"}}')
    command = "git clone https://github.com/SAP-samples/hana-developer-cli-tool-example && cd x && npm link"
    monkeypatch.setattr(check_cmd, "_tools", lambda ctx: [{**FAKE_TOOLS[0], "install": command}])
    result = CliRunner().invoke(app, ["check", str(root)], env={"COLUMNS": "80"})
    assert "…" not in result.output
    assert command in " ".join(line.strip() for line in result.output.splitlines())  # wrapped, whole


def test_detection_shows_the_production_authentication(tmp_path: Path) -> None:
    root = tmp_path / "bookshop"
    root.mkdir()
    cds = {"requires": {"auth": {"[development]": {"kind": "mocked"}, "[production]": {"kind": "xsuaa"}}}}
    (root / "package.json").write_text(json.dumps({"dependencies": {"@sap/cds": "^10"}, "cds": cds}))
    _, out = run(str(root), "--json", "--tools", "none")
    assert json.loads(out)["detection"]["auth"] == "xsuaa"


def test_tool_statuses_become_rows_of_a_severity() -> None:
    tools = [
        {"id": "node", "name": "Node.js", "status": "outdated", "required": ">=22", "found": "20.1.0", "install": "x"},
        {"id": "mbt", "name": "MTA Build Tool", "status": "missing", "required": ">=1.2.0", "detail": "not on PATH"},
        {"id": "git", "name": "Git", "status": "ok", "required": ">=2.0.0", "found": "2.43.0"},
    ]
    project = {"findings": [{"severity": "error", "category": "mta", "file": "mta.yaml", "line": 3, "message": "m"}]}
    project["findings"][0]["fix"] = "f"
    rows = check_cmd._rows(project, tools)
    assert [(r["severity"], r["where"]) for r in rows] == [
        ("error", "mta.yaml:3"),
        ("warning", "node"),
        ("info", "mbt"),
    ]
    assert rows[1]["message"] == "Node.js 20.1.0: outdated (needs >=22)" and rows[1]["fix"] == "x"
