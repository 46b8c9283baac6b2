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
from typing import Literal

from sap_devs.doctor.versions import satisfies
from sap_devs.knowledge.models import ToolDef

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
    verdict = satisfies(found, tool.required)
    if verdict is None and tool.required == "latest":
        detail = "installed; whether this is the newest release is not checked offline"
        return ToolCheck(tool, pack, "ok", found=found, detail=detail, install=install)
    if verdict is None:
        detail = f"cannot compare {found!r} with {tool.required!r}"
        return ToolCheck(tool, pack, "unknown", found=found, detail=detail, install=install)
    if verdict:
        return ToolCheck(tool, pack, "ok", found=found, install=install)
    return ToolCheck(
        tool, pack, "outdated", found=found, detail=f"{found} does not satisfy {tool.required}", install=install
    )


async def check_tools(tools: list[tuple[str, ToolDef]], *, timeout: float = DEFAULT_TIMEOUT) -> list[ToolCheck]:
    """Run every check concurrently; the result keeps the input order."""
    return list(await asyncio.gather(*(check_tool(t, pack, timeout=timeout) for pack, t in tools)))
