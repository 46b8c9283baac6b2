"""check_tools runs real version commands (a Python child process stands in for SAP CLIs);
check_project reads real project folders written by the tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sap_devs.doctor import tool_checks
from sap_devs.doctor.versions import parse_version, satisfies
from tests.conftest import bundled_layer, ctx_for, write_files
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio
PY = sys.executable


def tool_yaml(tool_id: str, code: str, required: str, pattern: str = r"version (\d+\.\d+\.\d+)") -> str:
    command = json.dumps(f'"{PY}" -c "{code}"')
    return (
        f"- id: {tool_id}\n  name: {tool_id.title()}\n  required: '{required}'\n"
        f"  detect: {{command: {command}, pattern: '{pattern}'}}\n"
        f"  install: {{linux: 'apt install {tool_id}', macos: 'brew install {tool_id}', "
        f"windows: 'winget install {tool_id}'}}\n  docs: https://tools.example/{tool_id}\n"
    )


@pytest.fixture
def tools_ctx(make_pack, tmp_path):
    yaml = (
        tool_yaml("good", "print('good version 20.11.1')", ">=18.0.0")
        + tool_yaml("old", "print('old version 6.4.0')", ">=8.0.0")
        + tool_yaml("noisy", "import sys; print('version 2.0.0'); sys.exit(3)", ">=1.0.0")
        + tool_yaml("silent", "print('no digits here')", ">=1.0.0")
        + tool_yaml("any", "print('version 0.0.1')", "latest")
        + "- id: absent\n  name: Absent\n  required: '>=1.0.0'\n"
        "  detect: {command: 'definitely-not-installed-sap-tool --version', pattern: 'v(\\d+)'}\n"
        "  install: {all: 'npm install -g absent'}\n"
    )
    root = make_pack("demo", {"tools.yaml": yaml})
    return ctx_for(root, cwd=tmp_path)


async def test_check_tools_statuses(tools_ctx) -> None:
    out = await ok("check_tools", {}, tools_ctx)
    by_id = {r["id"]: r for r in out["results"]}
    assert by_id["good"]["status"] == "ok" and by_id["good"]["found"] == "20.11.1"
    assert "install" not in by_id["good"]
    assert by_id["old"]["status"] == "outdated" and by_id["old"]["found"] == "6.4.0"
    expected_install = {"linux": "apt install old", "macos": "brew install old", "windows": "winget install old"}
    assert by_id["old"]["install"] == expected_install[tool_checks.current_os()]
    assert by_id["noisy"]["status"] == "ok", "a version printed with a non-zero exit still counts"
    assert by_id["silent"]["status"] == "error" and "printed no version" in by_id["silent"]["detail"]
    assert by_id["any"]["status"] == "ok" and "not checked offline" in by_id["any"]["detail"]
    assert by_id["absent"]["status"] == "missing" and by_id["absent"]["install"] == "npm install -g absent"
    assert "need attention" in out["hint"] and "old (outdated)" in out["hint"]


async def test_check_tools_single_and_unknown(tools_ctx) -> None:
    out = await ok("check_tools", {"tool": "good"}, tools_ctx)
    assert [r["id"] for r in out["results"]] == ["good"]
    outcome = await call("check_tools", {"tool": "nodejs"}, tools_ctx)
    assert outcome.is_error and "Known tool ids:" in outcome.text and "good" in outcome.text


async def test_check_tools_timeout_kills_the_command(make_pack, tmp_path) -> None:
    from sap_devs.knowledge.models import ToolDef

    slow = ToolDef.model_validate(
        {
            "id": "slow",
            "name": "Slow",
            "required": ">=1.0.0",
            "detect": {"command": f'"{PY}" -c "import time; time.sleep(30)"', "pattern": r"(\d+)"},
        }
    )
    result = await tool_checks.check_tool(slow, "demo", timeout=0.5)
    assert result.status == "error" and "did not answer within 0.5s" in (result.detail or "")


def test_install_command_for_each_os() -> None:
    from sap_devs.knowledge.models import ToolDef

    tool = ToolDef.model_validate(
        {
            "id": "cf-cli",
            "name": "cf",
            "required": ">=8.0.0",
            "detect": {"command": "cf --version", "pattern": r"cf version (\d+\.\d+\.\d+)"},
            "install": {"macos": "brew install cf-cli@8", "all": "see docs"},
        }
    )
    assert tool_checks.install_command(tool, "macos") == "brew install cf-cli@8"
    assert tool_checks.install_command(tool, "linux") == "see docs"


@pytest.mark.parametrize(
    ("found", "required", "expected"),
    [
        ("v20.11.1", ">=18.0.0", True),
        ("16.20.0", ">=18.0.0", False),
        ("8.7.10", ">=8.0.0", True),
        ("17", ">=17", True),
        ("3.6.3", ">3.6.3", False),
        ("1.2.0-beta.1", "=1.2.0", True),
        ("unknown", ">=1.0.0", None),
        ("1.0.0", "latest", None),
    ],
)
def test_version_constraints(found: str, required: str, expected: bool | None) -> None:
    assert satisfies(found, required) is expected


def test_parse_version() -> None:
    assert parse_version("v20.11") == (20, 11, 0)
    assert parse_version("abc") is None


# ---- check_project ---------------------------------------------------------------------------


def cap_project(root: Path, **overrides: object) -> Path:
    pkg = {
        "name": "bookshop",
        "dependencies": {"@sap/cds": "^7.9.0", "@cap-js/hana": "^1"},
        "devDependencies": {"@sap/cds-dk": "^7"},
        "scripts": {"lint": "eslint ."},
    }
    pkg.update(overrides)
    write_files(root, {"package.json": json.dumps(pkg), ".gitignore": "node_modules/\ndefault-env.json\n"})
    return root


async def test_check_project_takes_relative_paths_from_its_folder_and_requires_an_existing_one(
    bundled_ctx, tmp_path
) -> None:
    project = cap_project(tmp_path / "work" / "bookshop")
    ctx = ctx_for(bundled_layer().root, cwd=tmp_path / "work")
    rel = await call("check_project", {"path": "bookshop"}, ctx)  # as `sap-devs check bookshop` would
    assert not rel.is_error and rel.structured["path"] == str(project.resolve())
    here = await call("check_project", {"path": "."}, ctx_for(bundled_layer().root, cwd=project))
    assert not here.is_error and "CAP (Node.js)" in here.structured["detection"]["types"]
    rel_missing = await call("check_project", {"path": "some/relative"}, ctx)
    assert rel_missing.is_error and "does not exist" in rel_missing.text
    missing = await call("check_project", {"path": str(tmp_path / "nope")}, bundled_ctx)
    assert missing.is_error and "does not exist" in missing.text
    (tmp_path / "file.txt").write_text("x")
    not_dir = await call("check_project", {"path": str(tmp_path / "file.txt")}, bundled_ctx)
    assert not_dir.is_error and "not a folder" in not_dir.text


async def test_check_project_defaults_to_server_cwd(bundled_ctx) -> None:
    cap_project(bundled_ctx.cwd)
    out = await ok("check_project", {}, bundled_ctx)
    assert out["path"] == str(bundled_ctx.cwd)
    assert out["detection"]["types"] == ["CAP (Node.js)"]


async def test_cap_project_detection_and_findings(bundled_ctx, tmp_path) -> None:
    root = cap_project(tmp_path / "app", devDependencies={}, scripts={})
    secret = {"VCAP_SERVICES": {"xsuaa": [{"credentials": {"clientid": "sb-x", "clientsecret": "c2VjcmV0"}}]}}
    (root / "default-env.json").write_text(json.dumps(secret))
    (root / ".gitignore").write_text("node_modules/\n")
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    det = out["detection"]
    assert det["cap_runtime"] == "nodejs" and det["cap_version"] == "7.9.0" and det["database"] == "hana"
    findings = out["findings"]["results"]
    messages = " ".join(f["message"] for f in findings)
    assert findings[0]["severity"] == "error"
    assert "default-env.json holds credentials" in messages
    assert "@sap/cds-dk is not a project dependency" in messages
    assert "@sap/cds 7.9.0 is out of maintenance" in messages, "bundled cap pack declares the current @sap/cds"
    assert "No 'lint' script" in messages
    assert out["findings"]["hint"].startswith(f"{len(findings)} finding(s)")


async def test_healthy_cap_project_has_no_findings(make_pack, tmp_path) -> None:
    packs = make_pack("cap", meta="versions:\n  '@sap/cds': 7.9.0\n")
    root = cap_project(tmp_path / "app")
    out = await ok("check_project", {"path": str(root)}, ctx_for(packs))
    assert out["findings"]["results"] == [] and "healthy" in out["findings"]["hint"]


async def test_cap_java_mta_xsuaa_approuter_kyma(bundled_ctx, tmp_path) -> None:
    root = write_files(
        tmp_path / "java",
        {
            "pom.xml": "<project><dependency><groupId>com.sap.cds</groupId></dependency></project>",
            "mta.yaml": "_schema-version: '3.1'\nID: demo\nversion: 1.0.0\nmodules:\n"
            "  - name: demo-srv\n    path: srv\n  - name: demo-db\n    path: gen/db\n",
            "srv/pom.xml": "<project/>",
            "xs-security.json": json.dumps(
                {
                    "xsappname": "demo",
                    "scopes": [{"name": "$XSAPPNAME.Admin"}],
                    "role-templates": [
                        {"name": "Admin", "scope-references": ["$XSAPPNAME.Admin", "$XSAPPNAME.Viewer"]}
                    ],
                }
            ),
            "app/router/xs-app.json": "{}",
            "chart/Chart.yaml": "apiVersion: v2\nname: demo\n",
        },
    )
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    det = out["detection"]
    assert det["types"] == ["CAP (Java)", "MTA", "App router", "Kyma / Helm"]
    assert det["auth"] == "xsuaa" and det["deployment"] == ["mta-cf", "helm-kyma"]
    messages = " ".join(f["message"] for f in out["findings"]["results"])
    assert "module 'demo-db' points to 'gen/db'" in messages
    assert "references scope '$XSAPPNAME.Viewer', which is not defined" in messages


async def test_ui5_app_and_abapgit(bundled_ctx, tmp_path) -> None:
    root = write_files(
        tmp_path / "fiori",
        {
            "app/orders/webapp/manifest.json": json.dumps(
                {"sap.app": {"title": "x"}, "sap.ui5": {"dependencies": {"minUI5Version": "1.38.0"}}}
            ),
            "app/books/webapp/manifest.json": json.dumps({"sap.app": {"id": "books"}}),
            "app/books/ui5.yaml": "metadata:\n  name: books\n",
            ".abapgit.xml": "<asx:abap/>",
        },
    )
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    det = out["detection"]
    assert "SAPUI5 / Fiori" in det["types"] and "ABAP (abapGit)" in det["types"]
    assert det["ui5_apps"] == ["app/books", "app/orders"] and det["abap_packages"] == ["."]
    messages = " ".join(f["message"] for f in out["findings"]["results"])
    assert "app/orders/webapp/manifest.json has no 'sap.app'/'id'" in messages
    assert "minUI5Version 1.38.0" in messages
    assert "UI5 app 'app/orders' has no ui5.yaml" in messages
    assert "app/books/ui5.yaml has no 'specVersion'" in messages


async def test_malformed_project_files_are_findings_not_crashes(bundled_ctx, tmp_path) -> None:
    root = write_files(tmp_path / "broken", {"package.json": "{ not json", "mta.yaml": "ID: [unclosed\n"})
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    messages = [f["message"] for f in out["findings"]["results"]]
    assert any("package.json is not valid JSON (line 1" in m for m in messages)
    assert any("mta.yaml is not valid YAML" in m for m in messages)


async def test_empty_folder_says_no_sap_project(bundled_ctx, tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    out = await ok("check_project", {"path": str(tmp_path / "empty")}, bundled_ctx)
    assert out["detection"]["types"] == [] and "No SAP project markers" in out["findings"]["hint"]


async def test_cap_project_without_gitignore_entry_gets_a_preventive_suggestion(bundled_ctx, tmp_path) -> None:
    root = cap_project(tmp_path / "app")
    (root / ".gitignore").write_text("node_modules/\n")
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    warnings = [f for f in out["findings"]["results"] if f["file"] == ".gitignore"]
    assert len(warnings) == 1 and warnings[0]["severity"] == "info", "no file leaks yet: a suggestion"
    assert "default-env.json" in warnings[0]["message"]


async def test_findings_name_their_line(bundled_ctx, tmp_path) -> None:
    mta = "_schema-version: '3.1'\nID: demo\nversion: 1.0.0\nmodules:\n  - name: demo-srv\n    path: srv-missing\n"
    root = write_files(tmp_path / "mta", {"mta.yaml": mta})
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    [finding] = [f for f in out["findings"]["results"] if f["file"] == "mta.yaml" and f["category"] == "mta"]
    assert finding["severity"] == "error" and finding["line"] == 6
    [schema] = [f for f in out["findings"]["results"] if f["category"] == "schema"]  # the module has no type
    assert "'type' is a required property" in schema["message"] and schema["line"] == 5
    assert "'mbt build' stops there" in finding["fix"]
