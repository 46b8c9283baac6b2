"""A project's ui5lint.config.* honoured without running it: its literal ignores and files are read as
text and handed to SAP's linter; anything that would need the code to run is left out, and said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sap_devs.toolchain.ui5lint_config import OPAQUE, default_export, read_config
from tests.conftest import write_files
from tests.sap_tools import ensure_installed
from tests.test_project_linters import UI5_APP, _clean_node, _direct_ui5lint, call  # noqa: F401

pytestmark = pytest.mark.anyio


@pytest.fixture
def sap_tools(monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = ensure_installed(("node", "@ui5/linter"))
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(folder))
    return folder


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('export default { ignores: ["a/**", "!a/b/**",], };', {"ignores": ["a/**", "!a/b/**"]}),
        (
            "/** @type {import('@ui5/linter').Config} */\nmodule.exports = {\n  // why\n  files: ['webapp/**'] };",
            {"files": ["webapp/**"]},
        ),
        (
            "export default {'ignores': [`webapp/test/**`], ui5Config: \"ui5-lint.yaml\"}",
            {"ignores": ["webapp/test/**"], "ui5Config": "ui5-lint.yaml"},
        ),
    ],
)
def test_literal_default_exports_are_read(text: str, expected: dict) -> None:
    assert default_export(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'const i = ["a"];\nexport default { ignores: i };',
        'export default { ignores: ["a"].concat(more) };',
        "export default { ignores: [`webapp/${dir}/**`] };",
        "export default { ignores: [process.env.X] };",
    ],
)
def test_values_that_need_code_are_opaque(text: str) -> None:
    ignores = default_export(text)["ignores"]
    assert ignores is OPAQUE or OPAQUE in ignores


@pytest.mark.parametrize(
    "text", ["export default defineConfig({ ignores: [] });", "export default makeConfig();", "const x = 1;", "{"]
)
def test_a_default_export_that_is_no_literal_object_is_not_read(text: str, tmp_path: Path) -> None:
    (tmp_path / "ui5lint.config.mjs").write_text(text, encoding="utf-8")
    config = read_config(tmp_path)
    assert config.file == "ui5lint.config.mjs" and config.ignores == [] and config.files == []
    assert config.notes == [
        "ui5lint.config.mjs was not used: sap-devs never runs project code, and its default export is not a "
        "literal object"
    ]


def test_parts_that_are_not_literals_are_named_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "ui5lint.config.js").write_text(
        'module.exports = { ignores: ["webapp/test/**"], files: FILES };', encoding="utf-8"
    )
    config = read_config(tmp_path)
    assert config.ignores == ["webapp/test/**"] and config.files == []
    assert len(config.notes) == 1 and config.notes[0].startswith("ui5lint.config.js: files not used")


def test_patterns_that_leave_the_project_are_not_used(tmp_path: Path) -> None:
    (tmp_path / "ui5lint.config.cjs").write_text('module.exports = { ignores: ["../../etc/**"] };', encoding="utf-8")
    config = read_config(tmp_path)
    assert config.ignores == [] and "ignores not used" in config.notes[0]


def test_a_yaml_config_is_not_one_the_linter_reads(tmp_path: Path) -> None:
    (tmp_path / "ui5lint.config.yaml").write_text("ignores:\n  - webapp/**\n", encoding="utf-8")
    config = read_config(tmp_path)
    assert config.file is None and config.ignores == []
    assert "ui5lint.config.yaml is not a file the UI5 linter reads" in config.notes[0]


def test_a_huge_config_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "ui5lint.config.js").write_text("module.exports = {};" + " " * (300 << 10), encoding="utf-8")
    assert "larger than 256 KB" in read_config(tmp_path).notes[0]


async def test_config_ignores_are_honoured_as_ui5lint_honours_them(sap_tools: Path, tmp_path: Path) -> None:
    config = 'export default {\n  ignores: ["webapp/controller/**"],\n};\n'
    app = write_files(tmp_path / "app", {**UI5_APP, "ui5lint.config.mjs": config})
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app))
    assert not outcome.is_error, outcome.text
    data = outcome.structured or {}
    files = {f["file"] for f in data["results"]}
    assert "webapp/controller/Main.controller.js" not in files and "webapp/Component.js" in files
    # the same findings as ui5lint itself, which imports the (harmless) config
    assert {(f["rule_id"], f["file"], f.get("line")) for f in data["results"]} == _direct_ui5lint(sap_tools, app)
    assert (
        "ui5lint.config.mjs was read as text, never run (nothing from the project runs): its ignores applied"
        in data["hint"]
    )


async def test_config_files_apply_unless_the_call_names_files(sap_tools: Path, tmp_path: Path) -> None:
    config = "module.exports = { files: ['webapp/Component.js'] };\n"
    app = write_files(tmp_path / "app", {**UI5_APP, "ui5lint.config.js": config})
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app))
    assert {f["file"] for f in (outcome.structured or {})["results"]} == {"webapp/Component.js"}
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app), files=["webapp/controller/**"])
    assert {f["file"] for f in (outcome.structured or {})["results"]} == {"webapp/controller/Main.controller.js"}


async def test_a_config_that_would_run_code_does_not_and_its_literals_still_apply(
    sap_tools: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    config = (
        f"import fs from 'node:fs';\nfs.writeFileSync({json.dumps(str(marker))}, 'ran');\n"
        'export default { ignores: ["webapp/controller/**"], files: computeFiles() };\n'
    )
    app = write_files(tmp_path / "app", {**UI5_APP, "ui5lint.config.mjs": config})
    outcome = await call(tmp_path, "run_ui5_linter", path=str(app))
    assert not outcome.is_error, outcome.text
    assert not marker.exists()
    data = outcome.structured or {}
    assert "webapp/controller/Main.controller.js" not in {f["file"] for f in data["results"]}
    assert "ui5lint.config.mjs: files not used" in data["hint"]


def test_a_config_linked_from_outside_the_project_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.js"
    outside.write_text('module.exports = { ignores: ["webapp/**"] };', encoding="utf-8")
    root = tmp_path / "app"
    root.mkdir()
    (root / "ui5lint.config.js").symlink_to(outside)
    config = read_config(root)
    assert config.ignores == [] and config.notes == ["ui5lint.config.js links outside the project and was not read"]


def test_spreads_are_named_as_not_used(tmp_path: Path) -> None:
    (tmp_path / "ui5lint.config.js").write_text('module.exports = { ignores: ["a/**"], ...more };', encoding="utf-8")
    config = read_config(tmp_path)
    assert config.ignores == ["a/**"] and "what its spreads or computed keys add not used" in config.notes[0]
