"""run_ui5_linter and check_abap_code: SAP's real linters (from the test cache, as a toolchain
install would lay them out) over seeded projects, and what the tools say when the toolchain is
missing or the project is hostile."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

from sap_devs.mcp.dispatch import Outcome, invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import discover
from sap_devs.toolchain import node as node_mod
from sap_devs.toolchain.runner import JS_DIR, run_node
from tests.conftest import bundled_layer, write_files
from tests.sap_tools import ensure_installed

pytestmark = pytest.mark.anyio
TOOLS = {t.name: t for t in discover()}


@pytest.fixture(autouse=True)
def _clean_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SAP_DEVS_NODE", raising=False)
    node_mod._probed.clear()


@pytest.fixture
def sap_tools(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test cache as the toolchain folder (node_modules/<pkg>, node_modules/.bin/node = Node 22)."""
    folder = ensure_installed(("node", "@ui5/linter", "@abaplint/core"))
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(folder))
    return folder


async def call(tmp_path: Path, name: str, **args: Any) -> Outcome:
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()])
    return await invoke(TOOLS[name], args, ctx)


UI5_APP = {
    "ui5.yaml": """
        specVersion: "3.0"
        metadata:
          name: my.app
        type: application
        """,
    "webapp/manifest.json": """
        {
          "_version": "1.12.0",
          "sap.app": {"id": "my.app", "type": "application"},
          "sap.ui5": {
            "rootView": {"viewName": "my.app.view.Main", "type": "XML", "id": "app"},
            "dependencies": {"minUI5Version": "1.120.0", "libs": {"sap.m": {}}}
          }
        }
        """,
    "webapp/Component.js": """
        sap.ui.define(["sap/ui/core/UIComponent"], function (UIComponent) {
          "use strict";
          return UIComponent.extend("my.app.Component", {
            metadata: { manifest: "json" },
            init: function () {
              UIComponent.prototype.init.apply(this, arguments);
              jQuery.sap.log.info("started");
            }
          });
        });
        """,
    "webapp/controller/Main.controller.js": """
        sap.ui.define(["sap/ui/core/mvc/Controller"], function (Controller) {
          "use strict";
          return Controller.extend("my.app.controller.Main", {
            onPress: function () {
              var button = new sap.m.Button({ text: "x" });
              sap.ui.getCore().byId("x");
              return button;
            }
          });
        });
        """,
    "webapp/view/Main.view.xml": """
        <mvc:View controllerName="my.app.controller.Main" xmlns:mvc="sap.ui.core.mvc" xmlns="sap.m">
          <Page title="Main"><Button text="Go" press="onPress" /></Page>
        </mvc:View>
        """,
}


def _direct_ui5lint(sap_tools: Path, app: Path) -> set[tuple[str, str, int]]:
    """What `ui5lint --format json` itself reports, run the way a developer runs it."""
    node = sap_tools / "node_modules" / ".bin" / "node"
    cli = sap_tools / "node_modules" / "@ui5" / "linter" / "bin" / "ui5lint.js"
    proc = subprocess.run(
        [str(node), str(cli), "--format", "json"], cwd=app, capture_output=True, text=True, timeout=600
    )
    data = json.loads(proc.stdout)
    return {(m["ruleId"], f["filePath"], m.get("line")) for f in data for m in f["messages"]}


async def test_run_ui5_linter_reports_what_ui5lint_itself_reports(sap_tools: Path, tmp_path: Path) -> None:
    app = write_files(tmp_path / "app", UI5_APP)
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app))
    assert not outcome.is_error, outcome.text
    data = outcome.structured or {}
    ours = {(f["rule_id"], f["file"], f.get("line")) for f in data["results"]}
    assert ours == _direct_ui5lint(sap_tools, app)
    rules = {f["rule_id"] for f in data["results"]}
    assert {"no-globals", "no-deprecated-api", "no-outdated-manifest-version", "async-component-flags"} <= rules
    deprecated = next(f for f in data["results"] if f["rule_id"] == "no-deprecated-api")
    assert deprecated["file"] == "webapp/Component.js" and deprecated["line"] == 7 and deprecated["column"] == 7
    assert deprecated["docs"].endswith("#no-deprecated-api")
    assert deprecated["known_error"]["id"] == "fiori-ui5/ui5-linter-deprecated-api"
    byid = next(f for f in data["results"] if "byId" in f["message"])
    assert "Element.getElementById" in byid["fix"]
    assert data["linter_version"] == "1.23.6"
    assert data["errors"] + data["warnings"] == len(data["results"]) and data["errors"] >= 7


async def test_run_ui5_linter_limits_to_files(sap_tools: Path, tmp_path: Path) -> None:
    app = write_files(tmp_path / "app", UI5_APP)
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app), files=["webapp/controller/**"])
    data = outcome.structured or {}
    assert {f["file"] for f in data["results"]} == {"webapp/controller/Main.controller.js"}


async def test_project_config_and_node_modules_never_run(sap_tools: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    hostile = {
        **UI5_APP,
        "ui5lint.config.js": f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x');\nmodule.exports = {{}};\n",
        "ui5lint.config.mjs": f"import fs from 'fs'; fs.writeFileSync({json.dumps(str(marker))}, 'x'); export default {{}};\n",
        "node_modules/@ui5/linter/package.json": '{"name": "@ui5/linter", "version": "9.9.9", "main": "index.js"}',
        "node_modules/@ui5/linter/index.js": f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x');\n",
        "package.json": '{"name": "x", "scripts": {"preinstall": "touch ' + str(marker) + '"}}',
    }
    app = write_files(tmp_path / "app", hostile)
    (app / "webapp" / "loop").symlink_to(app / "webapp", target_is_directory=True)
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app))
    assert not outcome.is_error, outcome.text
    assert not marker.exists()
    assert "ui5lint.config.js was read as text, never run" in (outcome.structured or {})["hint"]


def test_a_linter_run_past_its_time_is_killed_and_says_so(sap_tools: Path, tmp_path: Path) -> None:
    from sap_devs.toolchain import ui5lint
    from sap_devs.toolchain.errors import ToolchainFailed

    app = write_files(tmp_path / "app", UI5_APP)
    with pytest.raises(ToolchainFailed, match="did not finish within 1 s"):
        ui5lint.lint(app, timeout=1)


def test_the_import_guard_refuses_project_modules(sap_tools: Path, tmp_path: Path) -> None:
    project = write_files(tmp_path / "project", {"evil.mjs": "console.log('RAN');\n"})
    script = tmp_path / "probe.mjs"
    guard = (JS_DIR / "guard.mjs").as_uri()
    script.write_text(
        f"import {{ guardImports }} from {json.dumps(guard)};\n"
        f"guardImports([{json.dumps(str(sap_tools / 'node_modules'))}]);\n"
        f"try {{ await import({json.dumps((project / 'evil.mjs').as_uri())}); }}"
        " catch (e) { console.log('REFUSED ' + e.code); }\n"
    )
    result = run_node(script, [], cwd=tmp_path, timeout=60, node=sap_tools / "node_modules" / ".bin" / "node")
    assert "RAN" not in result.stdout
    assert "REFUSED SAP_DEVS_REFUSED" in result.stdout


def test_sandboxed_run_reads_only_what_it_is_allowed_and_writes_nothing(sap_tools: Path, tmp_path: Path) -> None:
    allowed = write_files(tmp_path / "allowed", {"a.txt": "yes"})
    secret = write_files(tmp_path / "secret", {"b.txt": "no"})
    script = tmp_path / "allowed" / "probe.cjs"
    script.write_text(
        "const fs=require('fs'),cp=require('child_process');const out={};"
        f"try{{out.read=fs.readFileSync({json.dumps(str(allowed / 'a.txt'))},'utf8')}}catch(e){{out.read=e.code}}"
        f"try{{fs.readFileSync({json.dumps(str(secret / 'b.txt'))});out.secret='read'}}catch(e){{out.secret=e.code}}"
        f"try{{fs.writeFileSync({json.dumps(str(allowed / 'w.txt'))},'x');out.write='wrote'}}catch(e){{out.write=e.code}}"
        "try{cp.execFileSync('true');out.spawn='ran'}catch(e){out.spawn=e.code}"
        "console.log(JSON.stringify(out))"
    )
    node = sap_tools / "node_modules" / ".bin" / "node"
    result = run_node(script, [], cwd=tmp_path, timeout=60, node=node, allow_read=[allowed])
    assert result.sandboxed, result.stderr
    assert json.loads(result.stdout) == {
        "read": "yes",
        "secret": "ERR_ACCESS_DENIED",
        "write": "ERR_ACCESS_DENIED",
        "spawn": "ERR_ACCESS_DENIED",
    }
    assert not (allowed / "w.txt").exists()


CLOUD_SOURCE = textwrap.dedent(
    """
    CLASS zcl_demo DEFINITION PUBLIC FINAL CREATE PUBLIC.
      PUBLIC SECTION.
        METHODS run.
    ENDCLASS.
    CLASS zcl_demo IMPLEMENTATION.
      METHOD run.
        SELECT * FROM mara INTO TABLE @DATA(lt_mara) UP TO 10 ROWS.
        WRITE 'hello'.
        DATA(lo_random) = cl_abap_random=>create( ).
      ENDMETHOD.
    ENDCLASS.
    """
).lstrip()


async def test_check_abap_code_flags_write_and_mara_in_cloud_code(sap_tools: Path, tmp_path: Path) -> None:
    outcome = await call(tmp_path, "check_abap_code", source=CLOUD_SOURCE, language_version="cloud")
    assert not outcome.is_error, outcome.text
    data = outcome.structured or {}
    write = [f for f in data["results"] if f["rule"] == "parser_error"]
    assert len(write) == 1 and "WRITE" in write[0]["message"] and write[0]["line"] == 8
    mara = next(f for f in data["results"] if f.get("object_name") == "MARA")
    assert mara["severity"] == "error" and mara["line"] == 7 and mara["state"] == "notToBeReleased"
    assert "I_PRODUCT" in mara["successors"]
    # a released class is not reported
    assert not any(f.get("object_name") == "CL_ABAP_RANDOM" for f in data["results"])
    assert data["objects"] == ["CLAS ZCL_DEMO"]
    assert data["abaplint_version"] == "2.120.105"


async def test_standard_abap_allows_write_and_mara(sap_tools: Path, tmp_path: Path) -> None:
    outcome = await call(tmp_path, "check_abap_code", source=CLOUD_SOURCE, language_version="standard")
    data = outcome.structured or {}
    assert not outcome.is_error, outcome.text
    assert not [f for f in data["results"] if f["severity"] == "error"], data["results"]


async def test_statements_are_checked_with_their_own_line_numbers(sap_tools: Path, tmp_path: Path) -> None:
    source = "DATA lv_count TYPE i.\nWRITE lv_count.\nSELECT SINGLE * FROM mara INTO @DATA(ls_mara).\n"
    outcome = await call(tmp_path, "check_abap_code", source=source)
    data = outcome.structured or {}
    lines = {(f["rule"], f["line"]) for f in data["results"]}
    assert ("parser_error", 2) in lines and ("released-api", 3) in lines
    assert all(1 <= f["line"] <= 3 for f in data["results"])
    assert "generated class" in data["hint"]


async def test_syntax_error_is_reported_at_its_line(sap_tools: Path, tmp_path: Path) -> None:
    source = "DATA lv_a TYPE i.\nlv_a = lv_unknown + 1.\n"
    data = (await call(tmp_path, "check_abap_code", source=source, language_version="standard")).structured or {}
    problem = next(f for f in data["results"] if f["rule"] == "check_syntax")
    assert problem["line"] == 2 and "lv_unknown" in problem["message"].lower()


ABAPGIT = """
<?xml version="1.0" encoding="utf-8"?>
<asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0">
 <asx:values>
  <DATA>
   <MASTER_LANGUAGE>E</MASTER_LANGUAGE>
   <STARTING_FOLDER>/src/</STARTING_FOLDER>
   <FOLDER_LOGIC>PREFIX</FOLDER_LOGIC>
  </DATA>
 </asx:values>
</asx:abap>
"""


async def test_abapgit_folder_from_its_starting_folder_and_hostile_parts(sap_tools: Path, tmp_path: Path) -> None:
    repo = write_files(
        tmp_path / "repo",
        {
            ".abapgit.xml": ABAPGIT,
            "src/zcl_demo.clas.abap": CLOUD_SOURCE,
            "outside/zcl_other.clas.abap": "this is not abap and is outside the starting folder",
        },
    )
    loop = repo / "src" / "loop"
    loop.symlink_to(repo / "src", target_is_directory=True)
    big = repo / "src" / "zbig.prog.abap"
    big.write_bytes(b"* x\n" * (3 << 18))  # 3 MB
    outcome = await call(tmp_path, "check_abap_code", path=str(repo))
    assert not outcome.is_error, outcome.text
    data = outcome.structured or {}
    assert {f["file"] for f in data["results"]} == {"src/zcl_demo.clas.abap"}
    assert any(f.get("object_name") == "MARA" for f in data["results"])
    assert any("loop" in s and "symlink" in s for s in data["skipped"])
    assert any("zbig.prog.abap" in s for s in data["skipped"])


async def test_one_file_path(sap_tools: Path, tmp_path: Path) -> None:
    file = write_files(tmp_path / "f", {"zcl_demo.clas.abap": CLOUD_SOURCE}) / "zcl_demo.clas.abap"
    data = (await call(tmp_path, "check_abap_code", path=str(file))).structured or {}
    assert {f["file"] for f in data["results"]} == {"zcl_demo.clas.abap"}


async def test_missing_toolchain_is_one_line_with_the_command(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(tmp_path / "none"))
    app = write_files(tmp_path / "app", UI5_APP)
    ui5 = await call(tmp_path, "run_ui5_linter", path=str(app))
    assert ui5.is_error and "\n" not in ui5.text
    assert "`sap-devs toolchain install ui5`" in ui5.text
    abap = await call(tmp_path, "check_abap_code", source="WRITE 'x'.")
    assert abap.is_error and "\n" not in abap.text
    assert "`sap-devs toolchain install abap`" in abap.text


async def test_node_too_old_for_abaplint_says_what_to_run(sap_tools: Path, tmp_path: Path, monkeypatch) -> None:
    old = tmp_path / "old" / "node"
    old.parent.mkdir()
    old.write_text("#!/bin/sh\necho v20.19.0\n")
    old.chmod(0o755)
    monkeypatch.setenv("SAP_DEVS_NODE", str(old))
    outcome = await call(tmp_path, "check_abap_code", source="WRITE 'x'.")
    assert outcome.is_error and "\n" not in outcome.text
    assert "Node >= 22.0" in outcome.text and "SAP_DEVS_NODE" in outcome.text


async def test_a_folder_too_big_to_be_a_repository_is_refused_not_walked(
    sap_tools: Path, tmp_path: Path, monkeypatch
) -> None:
    from sap_devs.toolchain import abap_files

    monkeypatch.setattr(abap_files, "ENTRIES_MAX", 50)
    write_files(tmp_path / "big", {f"d{i}/x{j}.txt": "" for i in range(10) for j in range(10)})
    outcome = await call(tmp_path, "check_abap_code", path=str(tmp_path / "big"))
    assert outcome.is_error and "more than 50 files and folders" in outcome.text


async def test_bad_input_is_a_clear_error(sap_tools: Path, tmp_path: Path) -> None:
    both = await call(tmp_path, "check_abap_code", source="WRITE 'x'.", path="/tmp")
    assert both.is_error and "exactly one of source" in both.text
    relative = await call(tmp_path, "run_ui5_linter", path="relative/app")
    assert relative.is_error and "absolute" in relative.text
    not_ui5 = await call(tmp_path, "run_ui5_linter", path=str(tmp_path))
    assert not_ui5.is_error and "not a UI5 project" in not_ui5.text
    climbing = await call(tmp_path, "run_ui5_linter", path=str(write_files(tmp_path / "a", UI5_APP)), files=["../x"])
    assert climbing.is_error and "without '..'" in climbing.text
    assert os.environ.get("SAP_DEVS_NODE") is None
