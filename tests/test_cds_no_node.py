"""search_cds_model and check_cds on the Python side, without Node: a missing toolchain, projects with no
model, and compiler answers that are unusable (cut off, out of memory, not JSON) or carry errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sap_devs.toolchain import runner
from sap_devs.toolchain.cds import CdsCompileError, compile_project
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _result(stdout: str = "", *, returncode: int = 0, stderr: str = "", truncated: bool = False) -> runner.NodeResult:
    return runner.NodeResult(
        returncode=returncode, stdout=stdout, stderr=stderr, timed_out=False, truncated=truncated, seconds=0.1
    )


@pytest.fixture
def fake_toolchain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A toolchain folder with the compiler's package.json only: enough for locate, never run."""
    folder = _project(
        tmp_path / "toolchain",
        {
            "node_modules/@sap/cds-compiler/package.json": json.dumps(
                {"name": "@sap/cds-compiler", "version": "7.1.1"}
            ),
            "node_modules/@sap/cds/package.json": json.dumps({"name": "@sap/cds", "version": "10.1.1"}),
        },
    )
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(folder))
    return folder


async def test_missing_toolchain_is_one_line_naming_the_command(
    bundled_ctx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(tmp_path / "empty"))
    root = _project(tmp_path / "p", {"srv/a.cds": "entity A { key ID : Integer; }\n"})
    for tool in ("search_cds_model", "check_cds"):
        args: dict[str, Any] = {"path": str(root)} | ({"query": "A"} if tool == "search_cds_model" else {})
        outcome = await call(tool, args, bundled_ctx)
        assert outcome.is_error
        assert outcome.text.strip() == (
            "The CDS compiler (@sap/cds-compiler) is not installed: run `sap-devs toolchain install cds`."
        )


@pytest.mark.usefixtures("fake_toolchain")
async def test_no_model_and_bad_paths(bundled_ctx, tmp_path: Path) -> None:
    empty = _project(tmp_path / "empty-project", {"package.json": "{}", "srv/handler.js": "module.exports = 1"})
    outcome = await call("check_cds", {"path": str(empty)}, bundled_ctx)
    assert outcome.is_error and "has no CDS model" in outcome.text and "db/, srv/, app/" in outcome.text
    outcome = await call("search_cds_model", {"query": "x", "path": "relative/path"}, bundled_ctx)
    assert outcome.is_error and "relative/path does not exist" in outcome.text and str(bundled_ctx.cwd) in outcome.text
    relative = os.path.relpath(empty, bundled_ctx.cwd)  # taken from the server's folder, as check_project takes it
    outcome = await call("check_cds", {"path": relative}, bundled_ctx)
    assert outcome.is_error and "has no CDS model" in outcome.text
    outcome = await call("search_cds_model", {"query": "x", "path": str(tmp_path / "nowhere")}, bundled_ctx)
    assert outcome.is_error and "does not exist" in outcome.text


@pytest.mark.usefixtures("fake_toolchain")
def test_unusable_compiler_answers_are_errors_not_tracebacks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path / "p", {"srv/a.cds": "entity A { key ID : Integer; }\n"})
    cases = [
        (_result("not json"), "could not be read"),
        (_result("{}" * 10, truncated=True), "larger than 96 MB"),
        (_result("[1, 2]"), "not a JSON object"),
        (
            _result(
                returncode=134,
                stderr="FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            ),
            "it ran out of memory",
        ),
        (_result(returncode=1, stderr="Error: boom\n    at x.js:1\n"), "exit code 1: "),
        (_result("[" * 100_000 + "]" * 100_000), "could not be read"),  # nested past Python's recursion limit
    ]
    for answer, words in cases:
        monkeypatch.setattr(runner, "run_node", lambda *a, _answer=answer, **k: _answer)
        with pytest.raises(CdsCompileError, match=words):
            compile_project(root, use_cache=False)


async def test_compiler_messages_become_results_with_the_known_error(
    fake_toolchain: Path, bundled_ctx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "broken", {"srv/a.cds": "entity A { b : Association to B; }\n", "package.json": "{oops"})
    text = "Artifact “B” has not been found"
    answer = {
        "compiler": "7.1.1",
        "csn": None,
        "files": [{"path": str(root / "srv" / "a.cds"), "size": 1, "mtime_ns": "1"}],
        "probes": [],
        "messages": [
            {
                "severity": "Info",
                "messageId": "anno-builtin",
                "message": "an info",
                "file": "srv/a.cds",
                "line": 1,
                "col": 1,
            },
            {
                "severity": "Error",
                "messageId": "ref-undefined-def",
                "message": text,
                "file": "srv/a.cds",
                "line": 1,
                "col": 31,
                "endLine": 1,
                "endCol": 32,
                "formatted": f"srv/a.cds:1:31-32: Error[ref-undefined-def]: {text} (in entity:“A”/element:“b”)",
            },
        ],
    }
    monkeypatch.setattr(runner, "run_node", lambda *a, **k: _result(json.dumps(answer)))
    out = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    error, info = out["results"]
    assert (error["severity"], error["message"], error["file"], error["line"], error["column"]) == (
        "Error",
        text,
        "srv/a.cds",
        1,
        31,
    )
    assert error["known_error"]["id"] == "cap/cds-compiler-artifact-not-found"
    assert info["severity"] == "Info" and info.get("known_error") is None
    assert out["hint"].startswith("1 error(s), 0 warning(s): the model does not compile.")
    assert "package.json could not be read" in out["hint"]
    search = await call("search_cds_model", {"query": "A", "path": str(root)}, bundled_ctx)
    assert search.is_error and text in search.text and "check_cds" in search.text


async def test_a_message_matching_no_known_error_has_none(
    fake_toolchain: Path, bundled_ctx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p", {"srv/a.cds": "entity A {}\n"})
    answer = {
        "compiler": "7.1.1",
        "csn": {"definitions": {"A": {"kind": "entity", "elements": {}}}},
        "files": [],
        "probes": [],
        "messages": [{"severity": "Warning", "messageId": "def-missing-type", "message": "Missing type for “A:x”"}],
    }
    monkeypatch.setattr(runner, "run_node", lambda *a, **k: _result(json.dumps(answer)))
    out = await ok("check_cds", {"path": str(root)}, bundled_ctx)
    assert out["results"][0].get("known_error") is None
    assert out["hint"].startswith("The model compiles with 1 warning(s).")
