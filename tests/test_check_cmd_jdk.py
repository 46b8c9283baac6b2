"""``sap-devs check`` judges the installed JDK and Maven by the project's CAP Java major (pom.xml), with
the per-major table of the cap pack, instead of the minimum for new projects (issue 17)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sap_devs.cli.app import app

CORPUS = Path(__file__).parent / "fixtures" / "projects"


@pytest.fixture
def jdk17(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a JDK 17 and a Maven 3.8.8 on PATH (as `java -version` and `mvn --version` print them)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scripts = {
        "java": "echo 'openjdk version \"17.0.12\" 2024-07-16' >&2",
        "mvn": "echo 'Apache Maven 3.8.8 (4c87b05d9aedce574290d1acc98575ed5eb6cd39)'",
    }
    for name, body in scripts.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))


def _tools(root: Path) -> dict[str, dict[str, object]]:
    # every tool: a folder that is no project would otherwise get no tool checks at all
    result = CliRunner().invoke(app, ["check", str(root), "--json", "--tools", "all"], env={"COLUMNS": "400"})
    assert result.exit_code in (0, 1), result.output
    return {t["id"]: t for t in json.loads(result.output)["tools"]}


def _cap_java(tmp_path: Path, version: str) -> Path:
    root = Path(shutil.copytree(CORPUS / "cloud-cap-samples-java", tmp_path / f"java-{version}"))
    pom = root / "pom.xml"
    text = pom.read_text(encoding="utf-8")
    pom.write_text(text.replace("<cds.services.version>5.0.2<", f"<cds.services.version>{version}<"), "utf-8")
    return root


@pytest.mark.usefixtures("jdk17")
def test_cap_java_4_on_jdk_17_is_fine(tmp_path: Path) -> None:
    tools = _tools(_cap_java(tmp_path, "4.3.1"))
    assert tools["java"]["status"] == "ok" and tools["java"]["required"] == ">=17"
    assert "CAP Java 4 (cds-services 4.3.1 in pom.xml) needs >=17" in str(tools["java"]["detail"])
    assert tools["maven"]["status"] == "ok" and tools["maven"]["required"] == ">=3.8.8"


@pytest.mark.usefixtures("jdk17")
def test_cap_java_5_on_jdk_17_is_a_warning_with_the_install(tmp_path: Path) -> None:
    root = _cap_java(tmp_path, "5.0.2")
    tools = _tools(root)
    assert tools["java"]["status"] == "outdated" and tools["java"]["required"] == ">=21"
    assert "17.0.12 does not satisfy >=21; CAP Java 5" in str(tools["java"]["detail"]) and tools["java"]["install"]
    assert tools["maven"]["status"] == "outdated" and tools["maven"]["required"] == ">=3.9.14"
    out = CliRunner().invoke(app, ["check", str(root)], env={"COLUMNS": "400"}).output
    assert "Java JDK 17.0.12: outdated (needs >=21)" in out


@pytest.mark.usefixtures("jdk17")
def test_other_projects_keep_the_packs_minimum(tmp_path: Path) -> None:
    tools = _tools(tmp_path)
    assert tools["java"]["status"] == "outdated" and tools["java"]["required"] == ">=21"
    assert "CAP Java" not in str(tools["java"]["detail"])


@pytest.mark.usefixtures("jdk17")
@pytest.mark.parametrize(("version", "status", "required"), [("4.3.1", "ok", ">=17"), ("5.0.2", "outdated", ">=21")])
def test_the_check_tools_tool_judges_by_the_project_in_the_working_folder(
    tmp_path: Path, version: str, status: str, required: str
) -> None:
    """An agent calling check_tools in a CAP Java 4 project is not told to upgrade a JDK the project does not need."""
    import anyio

    from sap_devs.mcp.dispatch import invoke
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry
    from tests.conftest import bundled_layer

    tool = Registry.default().get("check_tools")
    ctx = ToolContext(cwd=_cap_java(tmp_path, version), layers=[bundled_layer()])
    outcome = anyio.run(invoke, tool, {"tool": "java"}, ctx)
    java = outcome.structured["results"][0]
    assert (java["status"], java["required"]) == (status, required)
    assert f"CAP Java {version[0]} (cds-services {version} in pom.xml)" in java["detail"]
    assert (java.get("install") is None) == (status == "ok")
