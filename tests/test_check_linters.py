"""``sap-devs check`` with SAP's compilers and linters: what check_cds, run_ui5_linter and check_abap_code
find joins the project's findings (tables and --json, errors counted in the exit code), a missing
toolchain is one info line with the install command, and nothing of a hostile project runs.

The real tools come from the test cache (tests/sap_tools), laid out as `sap-devs toolchain install`
lays them out; tests skip loudly without it."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sap_devs.cli.app import app
from sap_devs.doctor.linters import run_linters
from sap_devs.doctor.project import detect
from tests.conftest import write_files
from tests.sap_tools import ensure_installed
from tests.test_project_linters import ABAPGIT, CLOUD_SOURCE, UI5_APP, _clean_node, call  # noqa: F401

pytestmark = pytest.mark.anyio
SFLIGHT = Path(__file__).parent / "fixtures" / "cap" / "cap-sflight"
ALL = ("node", "@sap/cds-compiler", "@sap/cds", "@ui5/linter", "@abaplint/core")
CLOUD_XML = """<?xml version="1.0" encoding="utf-8"?>
<asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">
 <asx:values>
  <VSEOCLASS>
   <CLSNAME>ZCL_DEMO</CLSNAME>
   <ABAP_LANGUAGE_VERSION>5</ABAP_LANGUAGE_VERSION>
  </VSEOCLASS>
 </asx:values>
</asx:abap>
"""


@pytest.fixture
def toolchain(monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = ensure_installed(ALL)
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(folder))
    return folder


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", *args, "--tools", "none"], env={"COLUMNS": "400"})
    return result.exit_code, result.output


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out = check(*args, "--json")
    return code, json.loads(out)


def _of(data: dict[str, Any], category: str) -> list[dict[str, Any]]:
    return [f for f in data["findings"] if f["category"] == category]


def _sflight(tmp_path: Path, seed: str | None = None) -> Path:
    root = Path(shutil.copytree(SFLIGHT, tmp_path / "sflight"))
    if seed is not None:
        service = root / "srv" / "travel-service.cds"
        service.write_text(service.read_text(encoding="utf-8") + seed, encoding="utf-8")
    return root


async def test_a_cds_compile_error_is_a_finding_at_its_line_and_exits_1(
    toolchain: Path, tmp_path: Path, bundled_ctx
) -> None:
    root = _sflight(tmp_path, "\nentity Broken { key ID : NoSuchType; }\n")
    code, data = check_json(str(root))
    assert code == 1
    [error] = [f for f in _of(data, "cds") if f["severity"] == "error"]
    # exactly what check_cds reports for the same model: same words, file, line and id
    tool = (await call(tmp_path, "check_cds", path=str(root))).structured or {}
    [expected] = [m for m in tool["results"] if m["severity"] == "Error"]
    assert (error["message"], error["file"], error["line"], error["rule"]) == (
        expected["message"],
        "srv/travel-service.cds",
        expected["line"],
        expected["message_id"],
    )
    assert "NoSuchType" in error["message"] and data["summary"]["error"] >= 1
    [run] = [r for r in data["linters"] if r["tool"] == "cds-compiler"]
    assert run["errors"] == 1 and run["version"] == "7.1.1"
    code, out = check(str(root))
    assert f"srv/travel-service.cds:{expected['line']}" in out and f"{expected['message_id']}: " in out


def test_a_clean_model_adds_no_error_and_no_linters_skips_the_compiler(toolchain: Path, tmp_path: Path) -> None:
    root = _sflight(tmp_path)
    code, data = check_json(str(root))
    assert not [f for f in _of(data, "cds") if f["severity"] == "error"]
    assert [r["tool"] for r in data["linters"]] == ["cds-compiler"] and data["linters"][0]["errors"] == 0
    assert code == (1 if any(f["severity"] == "error" for f in data["findings"]) else 0)
    seeded = _sflight(tmp_path / "seeded", "\nentity Broken { key ID : NoSuchType; }\n")
    code, data = check_json(str(seeded), "--no-linters")
    assert data["linters"] == [] and not _of(data, "cds") and not _of(data, "toolchain")


async def test_ui5_linter_findings_are_the_tools_and_errors_count(toolchain: Path, tmp_path: Path) -> None:
    app_dir = write_files(tmp_path / "app", UI5_APP)
    code, data = check_json(str(app_dir))
    ours = {(f["rule"], f["file"], f["line"]) for f in _of(data, "ui5lint")}
    tool = (await call(tmp_path, "run_ui5_linter", path=str(app_dir))).structured or {}
    assert ours == {(f["rule_id"], f["file"], f["line"]) for f in tool["results"]}
    assert code == 1 and tool["errors"] > 0  # the linter's errors are the project's
    deprecated = next(f for f in _of(data, "ui5lint") if f["rule"] == "no-deprecated-api")
    assert deprecated["known_error"] == "fiori-ui5/ui5-linter-deprecated-api" and deprecated["fix"]
    code, out = check(str(app_dir))
    assert "webapp/Component.js:7" in out and "no-deprecated-api: " in out
    assert "(known error fiori-ui5/ui5-linter-deprecated-api)" in out
    assert "Linters: ui5lint 1.23.6 over ." in out


def test_ui5_apps_in_subfolders_are_linted_with_their_paths(toolchain: Path, tmp_path: Path) -> None:
    root = tmp_path / "mono"
    write_files(root / "app" / "one", UI5_APP)
    _code, data = check_json(str(root))
    files = {f["file"] for f in _of(data, "ui5lint")}
    assert "app/one/webapp/Component.js" in files and all(f.startswith("app/one/") for f in files)


def test_abapgit_cloud_code_is_checked_as_cloud(toolchain: Path, tmp_path: Path) -> None:
    repo = write_files(
        tmp_path / "repo",
        {".abapgit.xml": ABAPGIT, "src/zcl_demo.clas.abap": CLOUD_SOURCE, "src/zcl_demo.clas.xml": CLOUD_XML},
    )
    code, data = check_json(str(repo))
    found = _of(data, "abaplint")
    mara = next(f for f in found if "MARA" in f["message"])
    assert mara["severity"] == "error" and mara["file"] == "src/zcl_demo.clas.abap" and mara["line"] == 7
    assert "I_PRODUCT" in mara["fix"]
    write = next(f for f in found if f["rule"] == "parser_error")
    assert write["line"] == 8 and code == 1
    assert data["linters"][0]["tool"] == "abaplint (cloud)"
    # without the language version the repository is classic ABAP: WRITE and MARA are allowed
    (repo / "src" / "zcl_demo.clas.xml").unlink()
    code, data = check_json(str(repo))
    assert data["linters"][0]["tool"] == "abaplint (standard)"
    assert not [f for f in _of(data, "abaplint") if f["severity"] == "error"]


def test_a_missing_toolchain_is_one_info_line_naming_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(tmp_path / "no-toolchain"))
    root = _sflight(tmp_path, "\nentity Broken { key ID : NoSuchType; }\n")
    write_files(root / "app" / "web", UI5_APP)
    code, data = check_json(str(root))
    [line] = _of(data, "toolchain")
    assert line["severity"] == "info"
    assert line["message"] == (
        "The CDS compiler and UI5 linter are not installed, so sap-devs check did not compile the CDS model or "
        "run the UI5 linter: run `sap-devs toolchain install cds ui5`."
    )
    assert data["linters"] == [] and code == (1 if any(f["severity"] == "error" for f in data["findings"]) else 0)
    code, out = check(str(root))
    assert out.count("sap-devs toolchain install cds ui5") == 2  # the line and its fix, once each
    assert "Traceback" not in out


def test_a_model_that_never_finishes_is_stopped_and_the_check_says_so(toolchain: Path, tmp_path: Path) -> None:
    chain = ["entity E0 { key ID : Integer; }"] + [f"entity E{i} as projection on E{i - 1};" for i in range(1, 4000)]
    root = write_files(
        tmp_path / "slow", {"package.json": '{"dependencies": {"@sap/cds": "*"}}', "srv/chain.cds": "\n".join(chain)}
    )
    det, _pkg = detect(root)
    started = time.perf_counter()
    heard: list[str] = []  # what the spinner shows on a terminal
    # the chain takes the compiler about 1.3 s on an idle 2-core machine: limits of 0.3 s leave room for a faster one
    report = run_linters(root, det, per_run=0.3, total=60.0, progress=heard.append)
    assert time.perf_counter() - started < 30
    assert heard == ["Compiling the CDS model (cds-compiler) over ."]
    assert report.runs == [] and len(report.notes) == 1
    assert "took longer than 0.3 s and was stopped" in report.notes[0]
    # the time for all linters is bounded too: nothing starts once it is used up
    report = run_linters(root, det, per_run=1.0, total=1.0)
    assert report.notes == [
        "Compiling the CDS model (cds-compiler) over . was not run: the 1 s for linters were used up"
    ]


def test_nothing_of_a_hostile_project_runs(toolchain: Path, tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    payload = f"require('fs').writeFileSync({json.dumps(str(marker))}, 'ran');\n"
    esm = f"import fs from 'node:fs'; fs.writeFileSync({json.dumps(str(marker))}, 'ran'); export default {{}};\n"
    scripts = {s: f'node -e "{payload.strip()}"' for s in ("preinstall", "install", "postinstall", "prepare")}
    root = write_files(
        tmp_path / "evil",
        {
            **{f"app/web/{k}": v for k, v in UI5_APP.items()},
            "app/web/ui5lint.config.mjs": esm,
            "package.json": json.dumps(
                {"dependencies": {"@sap/cds": "*", "evil-models": "*", "evil-plugin": "*"}, "scripts": scripts}
            ),
            ".cdsrc.js": payload,
            "node_modules/evil-plugin/package.json": json.dumps({"name": "evil-plugin", "main": "index.js"}),
            "node_modules/evil-plugin/cds-plugin.js": payload,
            "node_modules/evil-plugin/index.js": payload,
            # a model package: its .cds is read as text, its scripts and its .js never run
            "node_modules/evil-models/package.json": json.dumps(
                {"name": "evil-models", "main": "index.js", "scripts": scripts}
            ),
            "node_modules/evil-models/index.cds": "entity Outside { key ID : Integer; }\n",
            "node_modules/evil-models/index.js": payload,
            "node_modules/evil-models/cds-plugin.js": payload,
            "srv/service.cds": "using { Outside } from 'evil-models';\nservice S { entity O as projection on Outside; }\n",
        },
    )
    (root / "srv" / "loop").symlink_to(root / "srv", target_is_directory=True)
    _code, data = check_json(str(root))
    assert not marker.exists()
    assert {r["tool"] for r in data["linters"]} == {"cds-compiler", "ui5lint"}
    assert not [f for f in _of(data, "cds") if f["severity"] == "error"], "the model package's .cds was read"
    assert any(".cdsrc.js is JavaScript and was not run" in n for n in data["notes"])


def test_a_100_mb_cds_file_is_refused_by_its_size_not_read(toolchain: Path, tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "big",
        {"package.json": '{"dependencies": {"@sap/cds": "*"}}', "srv/ok.cds": "entity Small { key ID : Integer; }\n"},
    )
    with open(root / "srv" / "huge.cds", "wb") as fh:
        fh.truncate(100 << 20)  # sparse: 100 MB by its size, nothing on disk
    started = time.perf_counter()
    code, data = check_json(str(root))
    assert time.perf_counter() - started < 60
    [refused] = [f for f in _of(data, "cds") if f["file"] == "srv/huge.cds"]
    assert "104857600 bytes" in refused["message"] and code == (1 if refused["severity"] == "error" else 0)


def test_a_cap_monorepo_compiles_each_workspace(toolchain: Path, tmp_path: Path) -> None:
    cds = '{"dependencies": {"@sap/cds": "*"}}'
    root = write_files(
        tmp_path / "mono",
        {
            "package.json": '{"name": "mono", "workspaces": ["one", "two"], "devDependencies": {"@sap/cds": "*"}}',
            "one/package.json": cds,
            "one/srv/a.cds": "service A { entity E { key ID : Integer; } }\n",
            "two/package.json": cds,
            "two/db/b.cds": "entity B { key ID : Integer; x : Nope; }\n",
        },
    )
    code, data = check_json(str(root))
    assert sorted(r["target"] for r in data["linters"]) == ["one", "two"]
    [error] = [f for f in _of(data, "cds") if f["severity"] == "error"]
    assert error["file"] == "two/db/b.cds" and error["line"] == 1 and code == 1
