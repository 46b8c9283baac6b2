"""Run the real ``sap-devs`` in a pseudo-terminal, as a person at a terminal would."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.test_stdio_server import server_env

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def run_in_terminal(
    *args: str,
    cwd: Path,
    home: Path,
    columns: int = 100,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    answer: str | None = None,
) -> tuple[int, str]:
    """Exit code and the text the terminal showed (colours stripped, line ends normalised); ``answer``
    is typed once the program asks (its output ends in '] ' or '? ')."""
    leader, follower = pty.openpty()
    env = dict(env) if env is not None else server_env(home)
    env.update(COLUMNS=str(columns), LINES="50", TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sap_devs", *args], cwd=cwd, env=env, stdin=follower, stdout=follower, stderr=follower
    )
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the follower side closed: the process is gone
                break
            if not data:
                break
            chunks.append(data)
            if answer is not None and b"".join(chunks).rstrip(b" ").endswith((b"]:", b"]", b"?")):
                os.write(leader, answer.encode())
                answer = None
        elif proc.poll() is not None:
            break
    else:
        proc.kill()
        raise AssertionError(f"sap-devs {' '.join(args)} did not finish in {timeout} s")
    os.close(leader)
    code = proc.wait(timeout=10)
    text = ANSI.sub("", b"".join(chunks).decode("utf-8", "replace")).replace("\r\n", "\n")
    return code, text
