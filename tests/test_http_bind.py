"""A team server whose port is taken says so in one line, without first announcing itself (issue 30)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from tests.test_stdio_server import server_env


def test_a_taken_port_is_one_line_that_says_use_port(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "sap_devs", "mcp", "serve", "--transport", "http", "--port", str(port)],
            env=server_env(tmp_path),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert lines == [f"sap-devs: cannot serve on 127.0.0.1:{port}: Address already in use; use --port to pick "
                     "another, or stop the server on it"]  # fmt: skip
    assert "MCP server on" not in proc.stderr
