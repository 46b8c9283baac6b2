"""The real AI client CLIs from npm read what sap-devs writes (issue 13).

Claude Code, Gemini CLI, Codex CLI and Continue's ``cn`` run from a cache folder
(``SAP_DEVS_TEST_CLIENTS``, default ``~/.cache/sap-devs-test-clients``; ``.ci/run`` fills it) on the
``node@22`` package, each in a throwaway HOME with fake API keys and an unreachable proxy, so no
model is ever called and nothing but the npm registry (for the install) is reached. For each client:
install, the client's own list/health command shows sap-devs connected or configured, the injected
block is read by the client where it can show that without a model, and uninstall leaves the project
(and the client's view) as before.

When the clients are not in the cache and the npm registry cannot be reached, the tests are skipped
with a loud message (a warning and the skip reason in pytest's summary), never silently.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

# The versions these tests were written against (and .ci/run installs).
PACKAGES = (
    "node@22",
    "@anthropic-ai/claude-code@2.1.197",
    "@google/gemini-cli@0.61.0",
    "@openai/codex@0.171.0",
    "@continuedev/cli@1.5.47",
)
BINARIES = ("node", "claude", "gemini", "codex", "cn")


def cache_dir() -> Path:
    override = os.environ.get("SAP_DEVS_TEST_CLIENTS")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "sap-devs-test-clients"


def _skip_loudly(reason: str) -> None:
    message = f"REAL CLIENT TESTS SKIPPED: {reason}"
    warnings.warn(message, stacklevel=2)
    print(f"\n*** {message} ***", file=sys.__stderr__)
    pytest.skip(message)


SKIP_VARIABLE = "SAP_DEVS_SKIP_NPM_TESTS"


def skip_if_asked() -> None:
    """``SAP_DEVS_SKIP_NPM_TESTS=1``: the tests that need npm-installed parts skip, loudly."""
    if os.environ.get(SKIP_VARIABLE, "") not in ("", "0"):
        _skip_loudly(f"{SKIP_VARIABLE} is set: the npm-installed parts are neither installed nor used")


def ensure_clients(folder: Path) -> Path:
    """The clients' bin folder; installs them with npm into ``folder`` when missing (cached after)."""
    skip_if_asked()
    bin_dir = folder / "node_modules" / ".bin"
    if all((bin_dir / name).exists() for name in BINARIES):
        return bin_dir
    npm = shutil.which("npm")
    if npm is None:
        _skip_loudly(f"npm is not installed and {folder} holds no clients; run .ci/run or install Node.js")
    folder.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), *PACKAGES],
            capture_output=True,
            text=True,
            timeout=900,
        )
    except subprocess.TimeoutExpired:
        _skip_loudly(f"npm install of {' '.join(PACKAGES)} timed out (registry unreachable?)")
    if proc.returncode != 0 or not all((bin_dir / name).exists() for name in BINARIES):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        _skip_loudly(f"npm could not install the clients into {folder} (registry unreachable?): {' | '.join(tail)}")
    return bin_dir


@pytest.fixture(scope="module")
def client_bin() -> Path:
    return ensure_clients(cache_dir())


class World:
    """A throwaway HOME and a CAP project; sap-devs and the clients see only these."""

    def __init__(self, root: Path, bin_dir: Path) -> None:
        self.home = root / "home"
        self.project = root / "project"
        self.home.mkdir()
        self.project.mkdir()
        (self.project / "package.json").write_text('{"dependencies": {"@sap/cds": "^9"}}\n', encoding="utf-8")
        keep = ("LANG", "LC_ALL", "TERM", "TMPDIR", "SYSTEMROOT")
        self.env = {k: v for k, v in os.environ.items() if k in keep}
        self.env.update(
            HOME=str(self.home),
            USERPROFILE=str(self.home),
            SAP_DEVS_HOME=str(self.home),
            PATH=os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
            # fake keys, and every request off this machine fails at once: no model is called
            ANTHROPIC_API_KEY="sk-ant-fake-key-for-tests",
            GEMINI_API_KEY="fake-key-for-tests",
            OPENAI_API_KEY="sk-fake-key-for-tests",
            ANTHROPIC_BASE_URL="http://127.0.0.1:9",  # Claude Code resolves api.anthropic.com otherwise (18 s)
            OPENAI_BASE_URL="http://127.0.0.1:9",
            CONTINUE_API_BASE="http://127.0.0.1:9/",
            NODE_USE_ENV_PROXY="1",  # Node's fetch honours the proxy below (cn's version check)
            HTTPS_PROXY="http://127.0.0.1:9",
            HTTP_PROXY="http://127.0.0.1:9",
            NO_PROXY="127.0.0.1,localhost",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
            NO_COLOR="1",
            CI="1",
        )
        self.env.pop("SAP_DEVS_EXECUTABLE", None)  # the command written must be the running sap-devs

    def sap_devs(self, *args: str) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [sys.executable, "-m", "sap_devs", *args],
            cwd=self.project,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def client(self, *args: str, until: str | None = None, timeout: float = 90, drop: tuple[str, ...] = ()) -> str:
        """Run a client command; with ``until``, stop it as soon as that text is in its output."""
        proc = subprocess.Popen(
            list(args),
            cwd=self.project,
            env={k: v for k, v in self.env.items() if k not in drop},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,  # apart: a large stdout write may be split by a stderr line in one pipe
            start_new_session=True,
        )
        streams: dict[str, list[bytes]] = {"out": [], "err": []}

        def drain(name: str, stream: Any) -> None:
            streams[name].extend(iter(lambda: stream.read1(4096), b""))

        readers = [
            threading.Thread(target=drain, args=("out", proc.stdout)),
            threading.Thread(target=drain, args=("err", proc.stderr)),
        ]
        for reader in readers:
            reader.start()

        def output() -> str:
            return (b"".join(streams["out"]) + b"\n" + b"".join(streams["err"])).decode("utf-8", "replace")

        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                if until is not None and until in output():
                    break
                time.sleep(0.1)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            for reader in readers:
                reader.join(10)
        return output()


def snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.fixture
def world(tmp_path: Path, client_bin: Path) -> World:
    return World(tmp_path, client_bin)


def test_claude_code(world: World) -> None:
    project_before = snapshot(world.project)
    empty = world.client("claude", "mcp", "list")
    assert "sap-devs" not in empty
    world.sap_devs("mcp", "install", "-c", "claude-code")
    listed = world.client("claude", "mcp", "list", until="Connected")
    assert "sap-devs:" in listed and "Connected" in listed, listed
    assert f"{sys.executable} -m sap_devs mcp serve" in listed  # the running sap-devs, not one on PATH
    world.sap_devs("inject", "-c", "claude-code")
    context = world.client("claude", "-p", "/context", until="Skills")
    assert str(world.project / "CLAUDE.md") in context, context
    world.sap_devs("inject", "-c", "claude-code", "--uninstall")
    world.sap_devs("mcp", "uninstall", "-c", "claude-code")
    assert "sap-devs" not in world.client("claude", "mcp", "list")
    config = json.loads((world.home / ".claude.json").read_text(encoding="utf-8"))
    assert "sap-devs" not in json.dumps(config.get("mcpServers", {}))
    assert snapshot(world.project) == project_before


def test_gemini_cli(world: World) -> None:
    project_before = snapshot(world.project)
    world.sap_devs("mcp", "install", "-c", "gemini-cli")
    settings = world.home / ".gemini" / "settings.json"
    # Gemini CLI disables every MCP server in an untrusted folder (what install's "Next" line says).
    untrusted = world.client("gemini", "mcp", "list")
    assert "sap-devs" in untrusted and "Disabled" in untrusted, untrusted
    trusted = world.home / ".gemini" / "trustedFolders.json"
    trusted.write_text(json.dumps({str(world.project): "TRUST_FOLDER"}), encoding="utf-8")
    listed = world.client("gemini", "mcp", "list", until="Connected")
    assert "sap-devs" in listed and "Connected" in listed, listed
    world.sap_devs("inject", "-c", "gemini-cli")
    memory = world.client("gemini", "-p", "/memory list", until="GEMINI.md\n", timeout=60)
    assert str(world.project / "GEMINI.md") in memory, memory
    world.sap_devs("inject", "-c", "gemini-cli", "--uninstall")
    world.sap_devs("mcp", "uninstall", "-c", "gemini-cli")
    assert not settings.exists() or "sap-devs" not in settings.read_text(encoding="utf-8")
    assert "sap-devs" not in world.client("gemini", "mcp", "list")
    assert snapshot(world.project) == project_before


def test_codex(world: World) -> None:
    project_before = snapshot(world.project)
    world.sap_devs("mcp", "install", "-c", "codex")
    listed = world.client("codex", "mcp", "list")
    row = next((line for line in listed.splitlines() if line.startswith("sap-devs")), "")
    assert "enabled" in row and sys.executable in row, listed
    world.sap_devs("inject", "-c", "codex")
    prompt = world.client("codex", "debug", "prompt-input", "hi")
    assert "Which sap-devs tool to call when" in prompt and "<!-- sap-devs:end -->" in prompt
    world.sap_devs("inject", "-c", "codex", "--uninstall")
    world.sap_devs("mcp", "uninstall", "-c", "codex")
    assert "sap-devs" not in world.client("codex", "mcp", "list")
    assert not (world.home / ".codex" / "config.toml").exists() or "sap-devs" not in (
        world.home / ".codex" / "config.toml"
    ).read_text(encoding="utf-8")
    assert snapshot(world.project) == project_before


def test_continue(world: World) -> None:
    project_before = snapshot(world.project)
    world.sap_devs("mcp", "install", "-c", "continue")
    # cn refused the file an older sap-devs created: "Failed to parse config: name: Required, version: Required".
    # With no model configured it now gets past the config and stops at the model, before any request.
    # (without API keys: with one, cn picks a default model and would try to call it)
    out = world.client("cn", "-p", "hi", until="model", drop=("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"))
    assert "Failed to parse config" not in out and "No model specified" in out, out
    world.sap_devs("inject", "-c", "continue")
    world.sap_devs("inject", "-c", "continue", "--uninstall")
    world.sap_devs("mcp", "uninstall", "-c", "continue")
    assert not (world.home / ".continue" / "config.yaml").exists()  # sap-devs created it
    assert snapshot(world.project) == project_before


@contextmanager
def fake_model() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers "pong" and keeps each request,
    so a client can run a whole turn (MCP servers started, their tools offered) without a real model."""
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            received.append(body)
            chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "fake-model"}
            if body.get("stream"):
                events = [
                    {**chunk, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "pong"}}]},
                    {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                ]
                data = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"
                kind = "text/event-stream"
            else:
                message = {"role": "assistant", "content": "pong"}
                reply = {**chunk, "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
                data, kind = json.dumps(reply).encode(), "application/json"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_continue_uses_sap_devs_from_a_commented_flow_style_config(world: World) -> None:
    """A config.yaml with the server list in brackets keeps its comments, `cn` starts sap-devs from it
    and offers its tools to the model, and uninstall gives the file back byte for byte."""
    config = world.home / ".continue" / "config.yaml"
    config.parent.mkdir()
    with fake_model() as (url, requests):
        original = (
            "# my Continue setup\nname: Mine  # shown in the picker\nversion: 1.0.0\nschema: v1\n"
            f'models: [{{name: Local, provider: openai, model: fake-model, apiBase: "{url}/v1/", apiKey: sk-x, '
            "roles: [chat]}]\nmcpServers: [  # none of mine yet\n]\n"
        )
        config.write_text(original, encoding="utf-8")
        world.sap_devs("mcp", "install", "-c", "continue")
        text = config.read_text(encoding="utf-8")
        assert text.startswith(original.removesuffix("]\n")) and "{name: sap-devs," in text, text
        # cn refuses to run a turn when any MCP server fails to load ("MCP server(s) failed to load").
        out = world.client("cn", "-p", "hi", until="pong", drop=("ANTHROPIC_API_KEY", "OPENAI_API_KEY"))
        assert "pong" in out and "failed to load" not in out, out
        offered = {tool["function"]["name"] for body in requests for tool in body.get("tools", [])}
        assert {"search_docs", "get_context", "check_project"} <= offered, offered
    world.sap_devs("mcp", "uninstall", "-c", "continue")
    assert config.read_text(encoding="utf-8") == original


def test_codex_reads_the_whole_block_after_the_repository_agents_md(world: World) -> None:
    """Codex stops at 32 KiB summed over the AGENTS.md files from the repository root down: with 20 KB
    of team rules at the root, the project's block is fitted into the rest and Codex reads it whole."""
    root = world.project.parent
    (root / ".git").mkdir()
    team = "".join(f"- Team rule {n}: keep module {n} consistent with the others.\n" for n in range(400))
    team += "END OF THE TEAM RULES\n"
    assert 20_000 < len(team.encode()) < 32_768
    (root / "AGENTS.md").write_text(team, encoding="utf-8")
    out = world.sap_devs("inject", "-c", "codex", "--verbosity", "full").stdout
    assert str(root / "AGENTS.md") in out, out  # the summary counts the root's file
    prompt = world.client("codex", "debug", "prompt-input", "hi")
    assert "END OF THE TEAM RULES" in prompt and "<!-- sap-devs:end -->" in prompt, prompt[-2000:]
    world.sap_devs("inject", "-c", "codex", "--uninstall")
    assert not (world.project / "AGENTS.md").exists()


def test_claude_code_project_server_waits_for_the_approval_status_names(world: World) -> None:
    """A project's .mcp.json server stays "Pending approval" in Claude Code until the user trusts the
    folder and approves it; at each step `mcp status` reads the same verdict from Claude Code's files
    as `claude mcp get` shows (without a model), and names the step left."""
    claude_says = {"Pending approval": "pending approval", "Rejected": "rejected", "Connected": "approved"}

    def agree(expected: str, until: str | None = None) -> str:
        shown = world.client("claude", "mcp", "get", "sap-devs", until=until)
        status = world.sap_devs("mcp", "status", "-c", "claude-code").stdout
        verdict = next((claude_says[k] for k in claude_says if k in shown), f"none in {shown!r}")
        assert verdict == claude_says[expected], shown
        assert f"Claude Code: {verdict} (" in status, (shown, status)
        return status

    world.sap_devs("mcp", "install", "-c", "claude-code", "--scope", "project")
    status = agree("Pending approval")
    assert "next: Claude Code asks before it starts servers from a project's .mcp.json" in status, status
    # What Claude Code records when the user trusts the folder and approves the server in `claude`.
    config = world.home / ".claude.json"
    data = json.loads(config.read_text(encoding="utf-8")) if config.exists() else {}
    data.setdefault("projects", {})[str(world.project.resolve())] = {"hasTrustDialogAccepted": True}
    config.write_text(json.dumps(data), encoding="utf-8")
    agree("Pending approval")  # trusted, not approved
    approvals = world.project / ".claude" / "settings.local.json"
    approvals.parent.mkdir()
    approvals.write_text('{"disabledMcpjsonServers": ["sap-devs"]}', encoding="utf-8")
    assert "next: Claude Code will not start sap-devs, it was rejected" in agree("Rejected")
    approvals.write_text('{"enabledMcpjsonServers": ["sap-devs"]}', encoding="utf-8")
    assert "next:" not in agree("Connected", until="Connected")
    world.sap_devs("mcp", "uninstall", "-c", "claude-code", "--scope", "project")
    assert not (world.project / ".mcp.json").exists()
    assert "No MCP server" in world.client("claude", "mcp", "get", "sap-devs")


def test_codex_reads_the_whole_global_agents_md(world: World) -> None:
    """~/.codex/AGENTS.md is outside Codex's 32 KiB project limit: with 34 KB of the user's own rules
    in it, inject --scope user writes the full block and Codex reads it to the end marker."""
    agents = world.home / ".codex" / "AGENTS.md"
    agents.parent.mkdir()
    mine = "".join(f"- Personal rule {n}: prefer small functions in module {n}.\n" for n in range(600))
    agents.write_text(mine, encoding="utf-8")
    out = world.sap_devs("inject", "-c", "codex", "--scope", "user", "--verbosity", "full").stdout
    assert "which the client reads whole" in out and "lowered" not in out and "left out" not in out, out
    assert len(agents.read_bytes()) > 2 * 32_768
    prompt = world.client("codex", "debug", "prompt-input", "hi")
    assert "- Personal rule 599:" in prompt and "<!-- sap-devs:end -->" in prompt, prompt[-2000:]
    world.sap_devs("inject", "-c", "codex", "--scope", "user", "--uninstall")
    assert agents.read_text(encoding="utf-8") == mine


def test_claude_code_local_scope_from_a_git_subfolder(world: World) -> None:
    """Claude Code keeps local-scope servers under the git root's path: installed from a subfolder of
    a repository, sap-devs is still connected there."""
    (world.project.parent / ".git").mkdir()
    world.sap_devs("mcp", "install", "-c", "claude-code", "--scope", "local")
    assert "Connected" in world.client("claude", "mcp", "get", "sap-devs", until="Connected")
    world.sap_devs("mcp", "uninstall", "-c", "claude-code", "--scope", "local")
    assert "No MCP server" in world.client("claude", "mcp", "get", "sap-devs")


def test_claude_config_dir_and_codex_home_move_where_install_writes(world: World) -> None:
    """With CLAUDE_CONFIG_DIR or CODEX_HOME set, the clients read nothing under ~/.claude or ~/.codex: an
    install there would look done and never be seen."""
    world.env.update(CLAUDE_CONFIG_DIR=str(world.home / "claude-config"), CODEX_HOME=str(world.home / "codex-home"))
    (world.home / "codex-home").mkdir()
    world.sap_devs("mcp", "install", "-c", "claude-code", "-c", "codex", "--scope", "user")
    assert "Connected" in world.client("claude", "mcp", "get", "sap-devs", until="Connected")
    row = next((x for x in world.client("codex", "mcp", "list").splitlines() if x.startswith("sap-devs")), "")
    assert "enabled" in row, row
    assert not (world.home / ".claude.json").exists() and not (world.home / ".codex").exists()
    world.sap_devs("mcp", "uninstall", "-c", "claude-code", "-c", "codex", "--scope", "user")
    assert "No MCP server" in world.client("claude", "mcp", "get", "sap-devs")


def test_codex_project_doc_limit_from_a_trusted_projects_config(world: World) -> None:
    """A trusted project's own .codex/config.toml can lower project_doc_max_bytes: the block is fitted to
    that limit and Codex still reads it to its end marker."""
    (world.project / ".git").mkdir()
    (world.project / ".codex").mkdir()
    (world.project / ".codex" / "config.toml").write_text("project_doc_max_bytes = 6000\n", encoding="utf-8")
    (world.home / ".codex").mkdir(exist_ok=True)
    (world.home / ".codex" / "config.toml").write_text(
        f'[projects."{world.project.as_posix()}"]\ntrust_level = "trusted"\n', encoding="utf-8"
    )
    world.sap_devs("inject", "-c", "codex")
    assert len((world.project / "AGENTS.md").read_bytes()) <= 6000
    prompt = world.client("codex", "debug", "prompt-input", "hi")
    assert "<!-- sap-devs:end -->" in prompt, prompt[-2000:]
