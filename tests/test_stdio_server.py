"""``sap-devs mcp serve`` as a real subprocess over stdio, the way AI clients start it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio


def server_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SAP_DEVS_CONFIG_DIR=str(home / "config"),
        SAP_DEVS_CACHE_DIR=str(home / "cache"),
        SAP_DEVS_DATA_DIR=str(home / "data"),
    )
    return env


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_round_trip(tmp_path: Path, mode: str) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sap_devs", "mcp", "serve", "--profile", "cap-developer"],
        env=server_env(tmp_path),
        cwd=str(tmp_path),
    )
    async with Client(params, mode=mode) as client:
        tools = (await client.list_tools()).tools
        assert {"get_known_errors", "get_context", "check_project"} <= {t.name for t in tools}
        result = await client.call_tool("get_context", {"verbosity": "minimal"})
        assert not result.is_error
        assert result.structured_content["packs"][:2] == ["base", "cap"], "the profile orders the packs"
        project = await client.call_tool("check_project", {})
        assert project.structured_content["path"] == str(tmp_path.resolve())


def test_unknown_profile_fails_fast_with_a_clear_message(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sap_devs", "mcp", "serve", "--profile", "nope"],
        env=server_env(tmp_path),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == "", "stdout belongs to the protocol"
    assert "Unknown profile 'nope'" in proc.stderr and "cap-developer" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_ready_line_on_a_terminal(tmp_path: Path) -> None:
    import pty
    import select

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sap_devs", "mcp", "serve"],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=server_env(tmp_path),
        cwd=tmp_path,
    )
    try:
        assert proc.stderr is not None
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "no line on stderr within 60 s"
        line = proc.stderr.readline().decode()
        assert "ready on stdio" in line and "operations" in line and "sap-devs mcp serve" in line
    finally:
        proc.kill()
        proc.wait(timeout=10)
        os.close(master)
        os.close(slave)


async def test_progressive_mode_from_the_command_line(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sap_devs", "mcp", "serve", "--tools", "progressive", "--pin", "search_tutorials"],
        env=server_env(tmp_path),
        cwd=str(tmp_path),
    )
    async with Client(params, mode="auto") as client:
        names = sorted(t.name for t in (await client.list_tools()).tools)
        assert names == ["call_tool", "get_tool_schemas", "search_tools", "search_tutorials"]
        assert client.server_capabilities.experimental == {"libraryDiscovery": {"version": "0.1.0"}}


def test_bad_mode_or_pin_fails_fast(tmp_path: Path) -> None:
    for extra, message in (
        (["--tools", "everything"], "Unknown tools mode"),
        (["--pin", "nope"], "Cannot pin unknown"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "sap_devs", "mcp", "serve", *extra],
            env=server_env(tmp_path),
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2 and message in proc.stderr and proc.stdout == ""


async def test_abap_tools_over_stdio_with_a_named_system(tmp_path: Path) -> None:
    """The way a user runs it: systems.yaml names the system, the password comes from the environment."""
    from tests.fake_adt import FakeAdt

    password = "Stdio-S3cret!"
    with FakeAdt(password=password).running() as adt:
        config = tmp_path / "config"
        config.mkdir()
        (config / "systems.yaml").write_text(
            f"systems:\n  dev:\n    url: {adt.url}\n    client: '100'\n    user: DEVELOPER\n"
            "    password_env: SAP_DEV_PASSWORD\n"
        )
        env = server_env(tmp_path)
        env["SAP_DEV_PASSWORD"] = password
        for var in ("SAP_URL", "SAP_DEVS_ADT_WRITE", "SAP_DEVS_ADT_DATA", "SAP_SERVICE_KEY"):
            env.pop(var, None)
        errlog = tmp_path / "stderr.txt"
        serve = f'exec "{sys.executable}" -m sap_devs mcp serve --system dev --tools full 2>"{errlog}"'
        params = StdioServerParameters(command="/bin/sh", args=["-c", serve], env=env, cwd=str(tmp_path))
        async with Client(params, mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"get_class", "search_objects"} <= names
            assert "write_source" not in names, "read-only unless --allow-writes"
            result = await client.call_tool("get_class", {"name": "ZCL_SAMPLE_CLASS"})
            assert not result.is_error, result.content[0].text
            assert "CLASS zcl_example DEFINITION" in result.structured_content["source"]
            missing = await client.call_tool("get_class", {"name": "ZCL_DOES_NOT_EXIST"})
            assert missing.is_error and password not in missing.content[0].text
            with pytest.raises(MCPError, match="Unknown tool: 'write_source'"):
                await client.call_tool("write_source", {"name": "ZTEST_PROGRAM", "kind": "program"})
        assert not adt.changes(), "nothing was locked or written"
        assert password not in errlog.read_text()


class RawStdio:
    """The server as a subprocess spoken to line by line, for messages no SDK client would send."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sap_devs", "mcp", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=server_env(home),
            cwd=home,
        )

    def send(self, line: str | bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line.encode() if isinstance(line, str) else line) + b"\n")
        self.proc.stdin.flush()

    def receive(self) -> dict:
        import json
        import select

        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        assert ready, "no answer within 60 s: the client would wait forever"
        line = self.proc.stdout.readline()
        assert line, f"the server exited; stderr: {self.proc.stderr.read().decode() if self.proc.stderr else ''}"
        return json.loads(line)

    def close(self) -> str:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.proc.stderr.read().decode()


DEEP = "[" * 300 + "]" * 300


@pytest.mark.skipif(sys.platform == "win32", reason="select() on pipes is POSIX only")
@pytest.mark.parametrize(
    ("line", "code", "answered_id", "says"),
    [
        ("{not json", -32700, None, "not valid JSON"),
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":5}', -32600, 1, "params must be an object"),
        (DEEP, -32600, None, "JSON object"),
        ('{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":' + DEEP + "}}", -32600, "deep", "too deeply"),
        ("[" * 100_000 + "]" * 100_000, -32700, None, "too deeply"),
        (
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_known_errors",'
            '"arguments":{"query":"\\ud800 dump"}}}',
            -32600,
            3,
            "lone UTF-16 surrogate",
        ),
        ('{"jsonrpc":"2.0","id":true,"method":"ping"}', -32600, None, "id must be a string or an integer"),
        ('{"jsonrpc":"2.0","id":6}', -32600, 6, "needs a method"),
        ("5", -32600, None, "JSON object"),
    ],
)
def test_unusable_lines_get_a_json_rpc_error_and_the_server_keeps_serving(
    tmp_path: Path, line: str, code: int, answered_id: object, says: str
) -> None:
    server = RawStdio(tmp_path)
    try:
        server.send(
            '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
            '"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}'
        )
        assert server.receive()["id"] == 0
        server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        server.send(line)
        answer = server.receive()
        assert answer["id"] == answered_id and answer["error"]["code"] == code
        assert says in answer["error"]["message"]
        server.send(
            '{"jsonrpc":"2.0","id":"next","method":"tools/call","params":{"name":"get_known_errors",'
            '"arguments":{"query":"SQL error 258 \\ud83d\\ude00"}}}'
        )
        following = server.receive()
        assert following["id"] == "next" and not following["result"]["isError"], "the next message is served"
    finally:
        stderr = server.close()
    assert "Traceback" not in stderr


@pytest.mark.skipif(sys.platform == "win32", reason="select() on pipes is POSIX only")
def test_an_error_for_the_last_line_before_end_of_input_is_still_written(tmp_path: Path) -> None:
    server = RawStdio(tmp_path)
    server.send("{broken")
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    assert server.receive()["error"]["code"] == -32700
    server.close()
    assert server.proc.returncode == 0


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"SAP_URL": "https://my-s4.example:44300"}, "no credentials"),
        ({"SAP_URL": "https://my-s4.example:99999", "SAP_USER": "DEV", "SAP_PASSWORD": "pw"}, "Port out of range"),
        (
            {"SAP_URL": "https://my-s4.example", "SAP_USER": "DEV", "SAP_PASSWORD": "pw", "SAP_TIMEOUT": "abc"},
            "SAP_TIMEOUT must be a positive number of seconds",
        ),
    ],
)
async def test_a_broken_abap_configuration_leaves_the_knowledge_tools_working(
    tmp_path: Path, settings: dict[str, str], says: str
) -> None:
    env = server_env(tmp_path)
    for var in ("SAP_DEVS_SYSTEM", "SAP_SERVICE_KEY", "SAP_BEARER_TOKEN", "SAP_USER", "SAP_PASSWORD", "SAP_TIMEOUT"):
        env.pop(var, None)
    env.update(settings)
    errlog = tmp_path / "stderr.txt"
    serve = f'exec "{sys.executable}" -m sap_devs mcp serve --tools full 2>"{errlog}"'
    params = StdioServerParameters(command="/bin/sh", args=["-c", serve], env=env, cwd=str(tmp_path))
    async with Client(params, mode="legacy") as client:
        known = await client.call_tool("get_known_errors", {"query": "SQL error 258"})
        assert not known.is_error
        abap = await client.call_tool("get_class", {"name": "ZCL_SAMPLE_CLASS"})
        assert abap.is_error and says in abap.content[0].text
        assert "Internal error" not in abap.content[0].text
    stderr = errlog.read_text()
    assert says in stderr and "Traceback" not in stderr and stderr.count("ABAP tools unavailable") == 1
