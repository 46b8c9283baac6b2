"""Run a Node script bounded in time, output and memory, in an environment sap-devs chooses.

Never through a shell; the process runs in its own process group so a timeout kills everything it
started; NODE_OPTIONS, NODE_PATH and npm_config_* from the caller's environment never reach it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sap_devs.toolchain.node import DEFAULT_MINIMUM, find_node, minimal_env, node_version

JS_DIR = Path(__file__).with_name("js")
DEFAULT_MEMORY_MB = 2048
PERMISSION_NODE = (22, 13)  # --permission without "experimental" (22.13.0 and later)


@dataclass(frozen=True)
class NodeResult:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool
    seconds: float
    sandboxed: bool = False  # ran under Node's permission model (reads limited, no writes or child processes)


def script_path(script: Path | str) -> Path:
    """A Path as given; a bare file name (no folder) names a script sap-devs ships in toolchain/js/."""
    if isinstance(script, str) and "/" not in script and os.sep not in script:
        return JS_DIR / script
    return Path(script)


class _Capture:
    """Reads one pipe to the end, keeping at most ``limit`` bytes; ``on_overflow`` fires once past it."""

    def __init__(self, pipe: IO[bytes], limit: int, on_overflow: Callable[[], None]) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.overflow = False
        self._pipe = pipe
        self._limit = limit
        self._on_overflow = on_overflow
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while chunk := self._pipe.read(65536):
                room = self._limit - self.size
                if room > 0:
                    self.chunks.append(chunk[:room])
                    self.size += min(room, len(chunk))
                if len(chunk) > room and not self.overflow:
                    self.overflow = True
                    self._on_overflow()
        except (OSError, ValueError):  # the pipe closed under us when the process was killed
            pass
        finally:
            self._pipe.close()

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and its group (which outlives it while a child it started still runs)."""
    if sys.platform == "win32" and proc.poll() is not None:
        return
    try:
        if sys.platform == "win32":
            proc.kill()
        else:
            os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    try:
        assert proc.stdin is not None
        proc.stdin.write(data)
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):  # the script stopped reading: its exit code says why
        pass


def run_node(
    script: Path | str,
    args: list[str],
    *,
    cwd: Path,
    timeout: float,
    max_output: int = 8 << 20,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    minimum_node: tuple[int, int] = DEFAULT_MINIMUM,
    max_memory_mb: int = DEFAULT_MEMORY_MB,
    node: Path | None = None,
    allow_read: list[Path] | None = None,
) -> NodeResult:
    """``node <script> <args>`` with ``cwd``; killed (process group) after ``timeout`` seconds or once
    stdout or stderr passes ``max_output`` bytes. Raises ToolchainMissing when no Node is new enough.

    With ``allow_read`` and a Node that has the permission model (22.13+), the script may read only
    those folders (and sap-devs' scripts), write nothing and start no process: the second wall behind
    "nothing from the project runs". Older Nodes run without it (``sandboxed`` says which)."""
    binary = node or find_node(minimum_node)
    flags = [f"--max-old-space-size={max_memory_mb}"]
    sandboxed = False
    if allow_read is not None:
        version = node_version(binary)
        if version is not None and version[:2] >= PERMISSION_NODE:
            sandboxed = True
            # workers carry the same permissions; the import guard's module hooks run in one
            flags += ["--permission", "--allow-worker"]
            for folder in (JS_DIR, *allow_read):
                flags.append(f"--allow-fs-read={_readable(folder)}")
    command = [str(binary), *flags, str(script_path(script)), *args]
    started = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=str(cwd),
        env=minimal_env(env),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=sys.platform != "win32",
    )
    assert proc.stdout is not None and proc.stderr is not None
    out = _Capture(proc.stdout, max_output, lambda: _kill(proc))
    err = _Capture(proc.stderr, max_output, lambda: _kill(proc))
    if stdin is not None:
        threading.Thread(target=_feed, args=(proc, stdin), daemon=True).start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(proc)
        proc.wait()
    finally:
        _kill(proc)  # children the script left behind in its group
    out.thread.join(5)
    err.thread.join(5)
    return NodeResult(
        returncode=proc.returncode,
        stdout=out.text(),
        stderr=err.text(),
        timed_out=timed_out,
        truncated=out.overflow or err.overflow,
        seconds=time.monotonic() - started,
        sandboxed=sandboxed,
    )


def _readable(folder: Path) -> str:
    """A folder as Node's --allow-fs-read takes it: resolved (links point elsewhere), with its contents."""
    resolved = folder.resolve()
    return str(resolved) + os.sep if resolved.is_dir() else str(resolved)
