"""Is each developer tool installed, and new enough? Version commands run without a shell, with a timeout."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sap_devs.doctor.versions import parse_version, satisfies
from sap_devs.knowledge.models import ToolDef

if TYPE_CHECKING:
    from sap_devs.doctor.baseline import Baseline

Status = Literal["ok", "outdated", "missing", "unknown", "error"]
DEFAULT_TIMEOUT = 5.0
_OUTPUT_CAP = 64 * 1024


@dataclass(frozen=True)
class ToolCheck:
    tool: ToolDef
    pack: str
    status: Status
    found: str | None = None
    detail: str | None = None
    install: str | None = None


def current_os() -> str:
    if sys.platform.startswith("win"):
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    return "linux"


def install_command(tool: ToolDef, os_name: str | None = None) -> str | None:
    os_name = os_name or current_os()
    return tool.install.get(os_name) or tool.install.get("all")  # type: ignore[call-overload]


async def _run(argv: list[str], timeout: float) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        with contextlib.suppress(Exception):
            await proc.wait()
        raise
    return proc.returncode or 0, out[:_OUTPUT_CAP].decode("utf-8", errors="replace")


async def check_tool(tool: ToolDef, pack: str, *, timeout: float = DEFAULT_TIMEOUT) -> ToolCheck:
    install = install_command(tool)
    try:
        argv = shlex.split(tool.detect.command, posix=os.name != "nt")
    except ValueError as exc:
        return ToolCheck(tool, pack, "error", detail=f"cannot parse the detect command: {exc}", install=install)
    exe = shutil.which(argv[0]) if argv else None
    if exe is None:
        return ToolCheck(tool, pack, "missing", detail=f"'{argv[0] if argv else ''}' is not on PATH", install=install)
    try:
        code, output = await _run([exe, *argv[1:]], timeout)
    except TimeoutError:
        return ToolCheck(
            tool, pack, "error", detail=f"'{tool.detect.command}' did not answer within {timeout:g}s", install=install
        )
    except OSError as exc:
        return ToolCheck(tool, pack, "error", detail=f"could not run '{argv[0]}': {exc.strerror}", install=install)
    match = re.search(tool.detect.pattern, output)
    if not match:
        first = output.strip().splitlines()[0][:120] if output.strip() else "no output"
        return ToolCheck(
            tool,
            pack,
            "error",
            detail=f"'{tool.detect.command}' exited with {code} and printed no version ({first})",
            install=install,
        )
    found = match.group(1)
    status, detail = judge(found, tool.required)
    return ToolCheck(tool, pack, status, found=found, detail=detail, install=install)


def judge(found: str, required: str) -> tuple[Status, str | None]:
    """The status of an installed version against a requirement, and why when it is not plainly ok."""
    verdict = satisfies(found, required)
    if verdict is None and required == "latest":
        return "ok", "installed; whether this is the newest release is not checked offline"
    if verdict is None:
        return "unknown", f"cannot compare {found!r} with {required!r}"
    if verdict:
        return "ok", None
    return "outdated", f"{found} does not satisfy {required}"


# --- what this project needs ----------------------------------------------------------------------


@dataclass(frozen=True)
class ProjectNeed:
    """A tool requirement that comes from the project, not from the pack's minimum for new projects."""

    required: str
    why: str


PROJECT_TOOLS = frozenset({"java", "maven"})
"""Tools whose requirement a project can set itself (project_needs)."""


def project_needs(root: Path, baseline: Baseline) -> dict[str, ProjectNeed]:
    """Tool id -> what this project needs: the JDK and Maven of the CAP Java major in its pom.xml.

    The tools.yaml minimums are for the current CAP Java major; a project on an older major that is
    still maintained builds with an older JDK (CAP Java 4: 17), so it is judged by its own major."""
    from sap_devs.doctor.project.cap_java import cap_java_runtime
    from sap_devs.doctor.project.reader import Reader

    runtime = cap_java_runtime(root, Reader(root))
    have = parse_version(runtime) if runtime else None
    if have is None:
        return {}
    why = f"CAP Java {have[0]} (cds-services {runtime} in pom.xml)"
    tables = {"java": baseline.jdk_for_cap_java, "maven": baseline.maven_for_cap_java}
    return {tool_id: ProjectNeed(table[have[0]], why) for tool_id, table in tables.items() if have[0] in table}


def for_project(result: dict[str, Any], need: ProjectNeed, install: str | None) -> dict[str, Any]:
    """A check_tools result judged again against what the project needs instead of the pack's minimum."""
    out = {**result, "required": need.required}
    found = result.get("found")
    if not found or result.get("status") not in ("ok", "outdated", "unknown"):
        return out  # missing or not answering: the requirement shown is the project's, nothing else changes
    status, detail = judge(str(found), need.required)
    note = f"{need.why} needs {need.required}"
    fix = install if status != "ok" else None
    return {**out, "status": status, "detail": f"{detail}; {note}" if detail else note, "install": fix}


async def check_tools(tools: list[tuple[str, ToolDef]], *, timeout: float = DEFAULT_TIMEOUT) -> list[ToolCheck]:
    """Run every check concurrently; the result keeps the input order."""
    return list(await asyncio.gather(*(check_tool(t, pack, timeout=timeout) for pack, t in tools)))
