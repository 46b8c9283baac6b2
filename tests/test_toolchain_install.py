"""``sap-devs toolchain install | status | remove`` with the real npm against a registry stand-in on
127.0.0.1 (tiny packages written here under the pinned names), and the messages a user sees when
npm is offline, a licence is not accepted or the folder is not sap-devs'."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.toolchain import install as tc
from sap_devs.toolchain import node as node_mod
from sap_devs.toolchain.components import COMPONENTS, NODE_VERSION
from sap_devs.toolchain.locate import package_dir
from sap_devs.toolchain.node import find_node
from sap_devs.toolchain.npm import node_platform_package
from tests.npm_registry import Registry, npm_registry

pytestmark = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")


@pytest.fixture(autouse=True)
def toolchain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data" / "toolchain"
    monkeypatch.setenv("SAP_DEVS_TOOLCHAIN_DIR", str(folder))
    monkeypatch.delenv("SAP_DEVS_NODE", raising=False)
    monkeypatch.setenv("npm_config_cache", str(tmp_path / "npm-cache"))  # never the user's npm cache
    monkeypatch.setenv("npm_config_userconfig", str(tmp_path / "npmrc"))  # nor their registry settings
    node_mod._probed.clear()
    return folder


def _fake_node_script(version: str) -> str:
    return f"#!/bin/sh\necho v{version}\n"


def _publish_component(registry: Registry, name: str) -> None:
    for package, version in COMPONENTS[name].packages.items():
        registry.publish(package, version, files={"index.js": "module.exports = 1;\n"})


def _publish_node(registry: Registry) -> None:
    registry.publish(
        node_platform_package(),
        NODE_VERSION,
        files={"bin/node": _fake_node_script(NODE_VERSION)},
        meta={"bin": {"node": "bin/node"}},
    )


def test_install_abap_brings_its_own_node_when_the_machine_node_is_too_old(
    toolchain: Path, tmp_path: Path, monkeypatch
) -> None:
    old = tmp_path / "oldbin"
    old.mkdir()
    # npm runs on the machine's Node; the "node" the checks find first on PATH is too old for abaplint
    real_node = shutil.which("node")
    assert real_node is not None
    monkeypatch.setattr(node_mod, "_wheel_node", lambda: None)
    fake = old / "node"
    fake.write_text(_fake_node_script("20.10.0"))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{old}:{Path(shutil.which('npm')).parent}:{Path(real_node).parent}")
    lines: list[str] = []
    with npm_registry() as registry:
        _publish_component(registry, "abap")
        _publish_node(registry)
        result = tc.install(["abap"], accepted=False, progress=lines.append, registry=registry.base + "/")
    assert result.installed == {"@abaplint/core": "2.120.105", node_platform_package(): NODE_VERSION}
    assert any("adding Node" in line for line in lines)
    assert package_dir("@abaplint/core") == toolchain / "node_modules" / "@abaplint" / "core"
    node_mod._probed.clear()
    assert find_node((22, 0)) == toolchain / "node_modules" / ".bin" / "node"
    manifest = json.loads((toolchain / "package.json").read_text())
    assert manifest["name"] == tc.MARKER_NAME
    assert not list(toolchain.parent.glob(".toolchain.staging-*"))


def _use_real_node(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A Node 22 chosen by SAP_DEVS_NODE (a stand-in that only answers --version), so no Node is installed;
    npm itself runs on the machine's Node."""
    fake = tmp_path / "node22" / "node"
    fake.parent.mkdir()
    fake.write_text(_fake_node_script("22.12.0"))
    fake.chmod(0o755)
    monkeypatch.setenv("SAP_DEVS_NODE", str(fake))


def test_install_adds_to_what_is_there_and_remove_takes_it_away(toolchain: Path, tmp_path: Path, monkeypatch) -> None:
    _use_real_node(monkeypatch, tmp_path)
    with npm_registry() as registry:
        _publish_component(registry, "abap")
        _publish_component(registry, "ui5")
        tc.install(["abap"], accepted=True, registry=registry.base + "/")
        second = tc.install(["ui5"], accepted=True, registry=registry.base + "/")
    assert set(second.installed) == {"@abaplint/core", "@ui5/linter", "@ui5/manifest"}
    report = tc.status()
    states = {s.component.name: s.state for s in report.components}
    assert states["abap"] == "ok" and states["ui5"] == "ok" and states["cds"] == "missing"
    removed = tc.remove(["abap"])
    assert removed == ["@abaplint/core"]
    assert not (toolchain / "node_modules" / "@abaplint" / "core").exists()
    assert (toolchain / "node_modules" / "@ui5" / "linter").exists()
    tc.remove(["all"])
    assert not toolchain.exists()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_offline_install_names_what_is_missing_and_changes_nothing(
    toolchain: Path, tmp_path: Path, monkeypatch
) -> None:
    _use_real_node(monkeypatch, tmp_path)
    with npm_registry() as registry:
        _publish_component(registry, "abap")
        tc.install(["abap"], accepted=True, registry=registry.base + "/")
    before = sorted(p.relative_to(toolchain) for p in toolchain.rglob("*"))
    with pytest.raises(tc.InstallError) as info:
        tc.install(["ui5"], accepted=True, registry=f"http://127.0.0.1:{_closed_port()}/", timeout=120)
    message = str(info.value)
    assert message.startswith("Offline: npm could not reach")
    assert "@ui5/linter@1.23.6" in message and "@ui5/manifest@1.89.0" in message
    assert "@abaplint/core" not in message  # installed already: not missing
    assert "unchanged" in message
    assert sorted(p.relative_to(toolchain) for p in toolchain.rglob("*")) == before


def test_cds_needs_the_licence_accepted() -> None:
    with pytest.raises(tc.ConsentRequired) as info:
        tc.install(["cds"], accepted=False)
    assert "SAP Developer License" in str(info.value)
    assert "--yes" in str(info.value)


def test_remove_refuses_a_folder_sap_devs_did_not_make(toolchain: Path) -> None:
    toolchain.mkdir(parents=True)
    (toolchain / "package.json").write_text(json.dumps({"name": "my-project"}))
    with pytest.raises(SapDevsError, match="did not write"):
        tc.remove(["all"])
    assert (toolchain / "package.json").exists()


def test_unknown_component_lists_the_choices() -> None:
    with pytest.raises(SapDevsError, match="choose from cds, ui5, abap, node, all"):
        tc.parse_targets(["java"])


def _cli(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "sap_devs.cli.entry", "toolchain", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_cli_install_cds_names_the_licence_and_needs_yes_without_a_terminal(toolchain: Path) -> None:
    proc = _cli("install", "cds")
    assert proc.returncode == 2
    assert "SAP Developer License Agreement" in proc.stderr
    assert "--yes" in proc.stderr
    assert not toolchain.exists()


def test_cli_status_shows_versions_and_where_they_live(toolchain: Path) -> None:
    core = toolchain / "node_modules" / "@abaplint" / "core"
    core.mkdir(parents=True)
    (core / "package.json").write_text(json.dumps({"name": "@abaplint/core", "version": "2.120.105"}))
    proc = _cli("status")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"Toolchain folder: {toolchain}" in out
    assert f"@abaplint/core: 2.120.105 at {core}" in out
    assert "@ui5/linter: not installed" in out
    assert "fix: sap-devs toolchain install ui5" in out


def test_cli_install_shows_progress_and_what_it_installed(toolchain: Path, tmp_path: Path, monkeypatch) -> None:
    _use_real_node(monkeypatch, tmp_path)
    with npm_registry() as registry:
        _publish_component(registry, "abap")
        proc = _cli("install", "abap", "--registry", registry.base + "/")
    assert proc.returncode == 0, proc.stderr
    assert "Installing abap:" in proc.stderr and "@abaplint/core@2.120.105" in proc.stderr
    assert "Running npm install" in proc.stderr
    assert f"Installed into {toolchain}" in proc.stdout
    assert "@abaplint/core 2.120.105" in proc.stdout
    offline = _cli("install", "ui5", "--yes", "--registry", f"http://127.0.0.1:{_closed_port()}/")
    assert offline.returncode == 1
    assert "Offline: npm could not reach" in offline.stderr and "Traceback" not in offline.stderr
