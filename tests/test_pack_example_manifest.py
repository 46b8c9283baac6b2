"""The fiori-ui5 pack's example manifest.json passes the current UI5 linter (issue 28, item 5).

The pack's context shows agents a manifest to copy. When the linter's rules move on (manifest
Version 2, a minimum UI5 version), an example that was fine becomes one that the linter flags in
every app generated from it; the real @ui5/linter pinned in tests/sap_tools/package.json decides.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from sap_devs.core import paths
from tests.sap_tools import sap_tool_path, sap_tools_node

CONTEXT = paths.bundled_root() / "packs" / "fiori-ui5" / "context.md"


def example_manifest() -> str:
    text = CONTEXT.read_text(encoding="utf-8")
    match = re.search(r"`webapp/manifest\.json`[^\n]*\n```json\n(.*?)```", text, re.S)
    assert match, "the fiori-ui5 context no longer has its manifest.json example"
    return match.group(1)


def test_the_example_manifest_has_no_linter_findings(tmp_path: Path) -> None:
    manifest = json.loads(example_manifest())
    app_id = manifest["sap.app"]["id"]
    (tmp_path / "webapp").mkdir()
    (tmp_path / "webapp" / "manifest.json").write_text(example_manifest(), encoding="utf-8")
    # a component the linter accepts, so that every finding left is the manifest's
    (tmp_path / "webapp" / "Component.js").write_text(
        'sap.ui.define(["sap/ui/core/UIComponent"], (UIComponent) => UIComponent.extend("'
        + app_id
        + '.Component", {\n  metadata: { manifest: "json", interfaces: ["sap.ui.core.IAsyncContentCreation"] }\n}));\n',
        encoding="utf-8",
    )
    (tmp_path / "package.json").write_text('{"name": "example", "version": "1.0.0"}', encoding="utf-8")
    (tmp_path / "ui5.yaml").write_text(
        f'specVersion: "4.0"\nmetadata:\n  name: {app_id}\ntype: application\n', encoding="utf-8"
    )
    linter = sap_tool_path("@ui5/linter") / "bin" / "ui5lint.js"
    proc = subprocess.run(
        [str(sap_tools_node()), str(linter), "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(proc.stdout or "[]")
    findings = [f"{m.get('ruleId')}: {m.get('message')}" for entry in report for m in entry.get("messages", [])]
    assert findings == [], findings
