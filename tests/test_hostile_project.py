"""check_project on folders built to hurt: symbolic link loops, links out of the project, unreadable
folders, oversized and special files, and paths no file system accepts. The walk stays inside the
project, within its budgets, and every problem reaches the user as a finding or a clear error."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import threading
from pathlib import Path

import pytest

from sap_devs.doctor.project import Cancelled, Limits, check_project
from sap_devs.doctor.project import reader as project_module
from sap_devs.mcp.tools.doctor import check_project as tool_module
from tests.conftest import write_files
from tests.tools.test_doctor_tools import cap_project
from tests.tools.test_knowledge_tools import call, ok

pytestmark = pytest.mark.anyio


def ui5_cap_project(root: Path) -> Path:
    cap_project(root)
    write_files(root, {"app/orders/webapp/manifest.json": json.dumps({"sap.app": {"id": "orders"}})})
    return root


async def test_symlink_loops_and_a_link_to_the_file_system_root(bundled_ctx, tmp_path: Path) -> None:
    root = ui5_cap_project(tmp_path / "loops")
    for n in range(24):
        os.symlink(".", root / f"l{n}")
    os.symlink("..", root / "app" / "up")  # a parent inside the project: a loop, not an exit
    os.symlink("/", root / "rootfs")
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["detection"]["ui5_apps"] == ["app/orders"], "each real folder is walked once"
    findings = out["findings"]["results"]
    assert not [f for f in findings if "l0/" in (f["file"] or "") or "rootfs" in (f["file"] or "")]
    assert len(findings) < 10
    assert "1 symbolic link(s) to folders outside the project were not followed (rootfs)" in out["findings"]["hint"]


async def test_file_links_out_of_the_project_are_not_read(bundled_ctx, tmp_path: Path) -> None:
    secret = write_files(tmp_path / "elsewhere", {"package.json": json.dumps({"dependencies": {"@sap/cds": "^8"}})})
    root = tmp_path / "proj"
    root.mkdir()
    os.symlink(secret / "package.json", root / "package.json")
    os.symlink(secret, root / "shared")
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["detection"]["types"] == [], "the outside package.json was not read"
    [finding] = out["findings"]["results"]
    assert finding["severity"] == "warning" and finding["file"] == "package.json"
    assert finding["message"] == "package.json is a symbolic link to a file outside the project; it was not read."
    assert "(shared)" in out["findings"]["hint"]
    assert out["findings"]["hint"].startswith("No SAP project markers found")
    assert "1 finding(s), 0 error(s)" in out["findings"]["hint"]


async def test_links_inside_the_project_are_followed(bundled_ctx, tmp_path: Path) -> None:
    root = write_files(tmp_path / "mono", {"packages/orders/webapp/manifest.json": '{"sap.app": {"id": "o"}}'})
    os.symlink("packages/orders", root / "orders")
    (root / "mta.yaml").symlink_to(write_files(root / "config", {"mta.yaml": "ID: x\n"}) / "mta.yaml")
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["detection"]["ui5_apps"] == ["orders"]
    messages = [f["message"] for f in out["findings"]["results"]]
    assert "mta.yaml has no '_schema-version'." in messages


async def test_unreadable_folder_and_file_are_warnings_and_the_rest_is_checked(
    bundled_ctx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = ui5_cap_project(tmp_path / "app")
    write_files(root, {"app/locked/webapp/manifest.json": "{}"})
    real_scandir = os.scandir

    def scandir(path: os.PathLike[str] | str) -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    def locked_open(path: str, mode: str = "r") -> object:
        if Path(path).name == "xs-security.json":
            raise PermissionError(13, "Permission denied", path)
        return open(path, mode)

    (root / "xs-security.json").write_text("{}")
    monkeypatch.setattr(project_module.os, "scandir", scandir)
    monkeypatch.setattr(project_module, "open", locked_open, raising=False)
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["detection"]["ui5_apps"] == ["app/orders"] and out["detection"]["auth"] == "xsuaa"
    by_file = {f["file"]: f for f in out["findings"]["results"]}
    assert by_file["app/locked"]["severity"] == "warning"
    assert by_file["app/locked"]["message"] == "app/locked cannot be listed (Permission denied); it was not inspected."
    assert by_file["xs-security.json"]["severity"] == "warning"
    assert by_file["xs-security.json"]["message"] == "xs-security.json cannot be read: Permission denied."


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads folders whatever their mode")
async def test_chmod_000_folder_and_file(bundled_ctx, tmp_path: Path) -> None:
    root = ui5_cap_project(tmp_path / "app")
    locked = root / "app" / "locked"
    locked.mkdir()
    (root / "xs-security.json").write_text("{}")
    (root / "xs-security.json").chmod(0)
    locked.chmod(0)
    try:
        out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    finally:
        locked.chmod(0o755)
        (root / "xs-security.json").chmod(0o644)
    by_file = {f["file"]: f for f in out["findings"]["results"]}
    assert "cannot be listed (Permission denied)" in by_file["app/locked"]["message"]
    assert by_file["xs-security.json"]["message"] == "xs-security.json cannot be read: Permission denied."


async def test_budgets_are_named_in_the_hint(bundled_ctx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = ui5_cap_project(tmp_path / "big")
    for n in range(30):
        (root / "lib" / f"m{n:02}").mkdir(parents=True)
    monkeypatch.setattr(tool_module, "LIMITS", Limits(max_dirs=10, max_files=1))
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    hint = out["findings"]["hint"]
    assert "Incomplete check: " in hint
    assert "visited the first 10 folders only" in hint and "read the first 1 files only" in hint


def test_file_and_finding_budgets(tmp_path: Path) -> None:
    root = cap_project(tmp_path / "app", scripts={}, devDependencies={})
    (root / "mta.yaml").write_text("ID: x\n")  # no _schema-version, no version: two errors
    report = check_project(root, limits=Limits(max_findings=2))
    assert [f.severity for f in report.findings] == ["error", "error"]
    assert "kept the first 2 findings (errors first)" in report.notes
    (root / "mta.yaml").write_text("ID: x\n" + "# padding\n" * 400)
    report = check_project(root, limits=Limits(max_file_bytes=2_048))
    [too_big] = [f for f in report.findings if f.file == "mta.yaml"]
    assert too_big.message == "mta.yaml is larger than 2 KB, too large to inspect."
    assert too_big.severity == "warning"
    report = check_project(root, limits=Limits(max_total_bytes=100))  # package.json alone is larger
    assert report.detection.types == ["MTA"], "package.json was not read, so CAP is not detected"
    assert "read the first 100 bytes of files only" in report.notes


async def test_more_findings_than_shown_says_so(bundled_ctx, tmp_path: Path) -> None:
    refs = [f"$XSAPPNAME.Scope{n}" for n in range(150)]
    security = {"xsappname": "demo", "scopes": [], "role-templates": [{"name": "R", "scope-references": refs}]}
    root = cap_project(tmp_path / "sec")
    (root / "xs-security.json").write_text(json.dumps(security))
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["findings"]["count"] == 100 and out["findings"]["total"] > 150
    assert "(s). Fix errors first. Showing the first 100 (errors first)." in out["findings"]["hint"]
    assert "Showing the first 100" in out["findings"]["hint"]


def test_a_set_cancel_event_stops_before_reading(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        check_project(ui5_cap_project(tmp_path / "app"), cancel=cancel)


async def test_cancelling_the_tool_call_stops_the_walk(
    bundled_ctx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = ui5_cap_project(tmp_path / "app")
    listed: list[str] = []
    entered, release, finished = threading.Event(), threading.Event(), threading.Event()
    outcome: list[BaseException | None] = []
    real_scandir, real_check = os.scandir, check_project

    def slow_scandir(path: os.PathLike[str] | str) -> object:
        if not Path(path).is_relative_to(root):
            return real_scandir(path)
        listed.append(str(path))
        entered.set()
        release.wait(10)  # a slow file system: the walk is inside its first listing when cancelled
        return real_scandir(path)

    def watched_check(*args: object, **kwargs: object) -> object:
        try:
            result = real_check(*args, **kwargs)  # type: ignore[arg-type]
            outcome.append(None)
            return result
        except BaseException as exc:
            outcome.append(exc)
            raise
        finally:
            finished.set()

    monkeypatch.setattr(project_module.os, "scandir", slow_scandir)
    monkeypatch.setattr(tool_module, "check_project", watched_check)
    params = tool_module.Input(path=str(root))
    task = asyncio.ensure_future(tool_module.handle(params, bundled_ctx))
    assert await asyncio.to_thread(entered.wait, 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()
    assert await asyncio.to_thread(finished.wait, 10)
    assert isinstance(outcome[0], Cancelled), "the walk stopped instead of finishing for nobody"
    assert listed == [str(root)], "no folder was listed after the cancellation"


async def test_path_too_long_for_the_file_system_is_a_clear_error(bundled_ctx) -> None:
    outcome = await call("check_project", {"path": "/" + "a" * 300}, bundled_ctx)
    assert outcome.is_error and "Internal error" not in outcome.text
    assert "cannot be opened: File name too long." in outcome.text
    assert "a" * 200 not in outcome.text, "the path is shortened in the message"


async def test_huge_path_argument_is_refused_without_echoing_it(bundled_ctx) -> None:
    outcome = await call("check_project", {"path": "/" + "a" * 100_000}, bundled_ctx)
    assert outcome.is_error and "path" in outcome.text and "at most 4096 characters" in outcome.text
    assert len(outcome.text) < 1_000


async def test_nul_in_the_path_is_a_clear_error(bundled_ctx) -> None:
    outcome = await call("check_project", {"path": "/tmp/a\0b"}, bundled_ctx)
    assert outcome.is_error and "NUL character" in outcome.text


async def test_hostile_mta_values_are_shortened(bundled_ctx, tmp_path: Path) -> None:
    long_path = "x" * 100_000
    mta = f"_schema-version: '3.1'\nID: x\nversion: 1.0.0\nmodules:\n  - name: srv\n    path: {long_path}\n"
    mta += "  - name: [a, b]\n    path: missing\n  - name: out\n    path: ../../../../etc\n"
    root = write_files(tmp_path / "mta", {"mta.yaml": mta})
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    found = [f for f in out["findings"]["results"] if f["file"] == "mta.yaml"]
    assert all(len(f["message"]) < 400 for f in found)  # the schema findings (modules without a type) too
    messages = [f["message"] for f in found if f["category"] == "mta"]
    assert len(messages) == 2, "the path leading outside the project is not checked"
    assert "mta.yaml: module <list> points to 'missing', which does not exist." in messages


async def test_bomb_mta_yaml_is_a_finding(bundled_ctx, tmp_path: Path) -> None:
    from tests.test_yaml_bombs import bomb

    mta = "_schema-version: '3.1'\nID: x\nversion: 1.0.0\nx:\n" + bomb() + "modules:\n  - name: *i\n    path: no\n"
    root = write_files(tmp_path / "mta", {"mta.yaml": mta})
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["detection"]["types"] == ["MTA"]
    [finding] = [f for f in out["findings"]["results"] if f["file"] == "mta.yaml"]
    assert finding["severity"] == "error" and finding["message"].startswith("mta.yaml is not valid YAML")
    assert "aliases expand to more than" in finding["message"]


def test_a_pipe_named_like_a_project_file_is_not_opened(tmp_path: Path) -> None:
    root = cap_project(tmp_path / "app")
    (root / "package.json").unlink()
    os.mkfifo(root / "package.json")  # opening a pipe for reading blocks until a writer comes
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(check_project(root)), daemon=True)
    worker.start()
    worker.join(30)
    assert result, "check_project blocked on the pipe"
    assert result[0].detection.types == []  # type: ignore[attr-defined]


async def test_malformed_json_shapes_are_findings_not_crashes(bundled_ctx, tmp_path: Path) -> None:
    security = {"xsappname": "x", "scopes": 5, "role-templates": [{"scope-references": [["x"], {"a": 1}]}]}
    root = write_files(
        tmp_path / "odd",
        {
            "xs-security.json": json.dumps(security),
            "package.json": json.dumps({"dependencies": {"@sap/cds": {"nested": ["x"] * 10_000}}}),
            "app/webapp/manifest.json": "[" * 100_000 + "]" * 100_000,
        },
    )
    out = await ok("check_project", {"path": str(root)}, bundled_ctx)
    assert out["detection"]["auth"] == "xsuaa" and "cap_version" not in out["detection"]
    messages = [f["message"] for f in out["findings"]["results"]]
    assert "app/webapp/manifest.json is not valid JSON." in messages


def test_crowded_folders_are_cut_and_said_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "crowded"
    root.mkdir()
    for n in range(25):
        os.symlink("/", root / f"out{n:02}")
    report = check_project(root)
    assert "25 symbolic link(s) to folders outside the project were not followed (out00, out01, out02 and 22 more)" in (
        report.notes
    )
    monkeypatch.setattr(project_module, "_MAX_ENTRIES", 5)
    assert "looked at 5 entries of . only" in check_project(root).notes


def test_notes_stay_few_however_many_folders_are_crowded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "many"
    for a, b, c, d in itertools.product("xyz", repeat=4):  # three entries in every folder, four deep
        (root / a / b / c / d).mkdir(parents=True)
    monkeypatch.setattr(project_module, "_MAX_ENTRIES", 2)
    notes = check_project(root).notes
    assert len(notes) == 9 and notes[-1] == "more budgets were hit"
