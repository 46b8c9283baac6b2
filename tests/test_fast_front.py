"""The fast front answers exactly what the SDK server answers, byte for byte, in both protocol eras,
every protocol version and every tools mode; what it cannot be sure of it leaves to the SDK."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_types import version as sdk_versions

from sap_devs.mcp import front_data, front_plan, installed, manifest
from sap_devs.mcp.framework import ToolSpec
from sap_devs.mcp.front_handoff import build
from sap_devs.mcp.front_plan import Options, plan
from sap_devs.mcp.front_rules import Front

MANIFEST_TEXT = manifest.MANIFEST_PATH.read_text(encoding="utf-8")
ABAP = {"SAP_URL": "http://127.0.0.1:9", "SAP_USER": "DEVELOPER", "SAP_PASSWORD": "secret"}
MODES: dict[str, tuple[dict[str, str], Options]] = {
    "auto without a system (full)": ({}, Options(None, None, "auto", None, False, None)),
    "full": ({}, Options(None, None, "full", None, False, None)),
    "progressive": ({}, Options(None, None, "progressive", None, False, None)),
    "progressive, own pins, profile": (
        {},
        Options("cap-developer", None, "progressive", "get_tip,list_packs", False, None),
    ),
    "ABAP system, auto (progressive)": (ABAP, Options(None, None, "auto", None, False, None)),
    "ABAP system, full, --allow-writes": (ABAP, Options(None, None, "full", None, True, None)),
    "ABAP cloud system, data and transports": (
        {**ABAP, "SAP_SYSTEM_TYPE": "cloud", "SAP_DEVS_ADT_DATA": "1", "SAP_DEVS_ADT_TRANSPORTS": "1"},
        Options(None, None, "full", None, True, None),
    ),
    "ABAP system, --allow-writes and execution": (
        {**ABAP, "SAP_DEVS_ADT_EXECUTE": "1"},
        Options(None, None, "full", None, True, None),
    ),
    "broken ABAP configuration": ({"SAP_URL": "http://127.0.0.1:9"}, Options(None, None, "auto", None, False, None)),
}
CLIENTS = {
    "bare": ({}, {"name": "c", "version": "1"}),
    "roots": ({"roots": {"listChanged": True}}, {"name": "claude-code", "version": "2.1.0", "title": "Claude Code"}),
    "sampling and elicitation": (
        {"sampling": {"context": {}, "tools": {}}, "elicitation": {"form": {}, "url": {}}, "experimental": {"x": {}}},
        {"name": "codex-mcp-client", "version": "0.63.0", "websiteUrl": "https://example.invalid"},
    ),
}
MODERN = "io.modelcontextprotocol/"
CLEARED = (
    "SAP_DEVS_SYSTEM",
    "SAP_SERVICE_KEY",
    "SAP_SYSTEM_TYPE",
    "SAP_DEVS_ADT_WRITE",
    "SAP_DEVS_ADT_DATA",
    "SAP_DEVS_ADT_TRANSPORTS",
    "SAP_DEVS_ADT_EXECUTE",
)


@pytest.fixture(scope="module")
def prepared() -> tuple[dict[str, Any], dict[str, Any]]:
    """front.json rendered for the manifest the SDK server is built from here (the working tree's)."""
    return json.loads(front_data.render(MANIFEST_TEXT)), json.loads(MANIFEST_TEXT)


@pytest.fixture
def configured(request: pytest.FixtureRequest, prepared: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    env, options = MODES[request.param]
    for name in (*CLEARED, "SAP_URL", "SAP_USER", "SAP_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    specs = [ToolSpec.from_json(t) for t in prepared[1]["tools"]]
    monkeypatch.setattr(manifest, "load_specs", lambda *a: specs)  # the SDK server lists the same manifest
    monkeypatch.chdir(tmp_path)
    the_plan = plan(options, prepared, tmp_path)
    assert the_plan is not None, f"the front does not cover {request.param}"
    server, _ctx = build(options, the_plan)
    return the_plan, server


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def initialize(version: str, client: str = "bare", request_id: Any = 1) -> dict[str, Any]:
    caps, info = CLIENTS[client]
    params = {"protocolVersion": version, "capabilities": caps, "clientInfo": info}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


def envelope(version: str, **extra: Any) -> dict[str, Any]:
    meta = {f"{MODERN}protocolVersion": version, f"{MODERN}clientCapabilities": {}}
    meta[f"{MODERN}clientInfo"] = {"name": "c", "version": "1"}
    return {"_meta": meta, **extra}


def legacy_session(version: str, client: str) -> list[dict[str, Any]]:
    return [
        {"jsonrpc": "2.0", "id": "p0", "method": "ping"},
        initialize(version, client),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"_meta": {"progressToken": 7}}},
        {"jsonrpc": "2.0", "id": "four", "method": "tools/list"},
    ]


def modern_session(version: str) -> list[dict[str, Any]]:
    return [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": envelope(version)},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": envelope(version)},
        {"jsonrpc": "2.0", "id": 3, "method": "ping", "params": envelope(version)},  # gone in 2026: an error
    ]


def front_replies(the_plan: front_plan.Plan, messages: list[dict[str, Any]]) -> list[bytes]:
    front = Front(the_plan, replay_prefix="private-")
    replies = [front.answer(line(m)) for m in messages]
    assert None not in replies, "the front left part of an ordinary opening to the SDK"
    return sorted((r for r in replies if isinstance(r, bytes)), key=lambda r: str(json.loads(r)["id"]))


def sdk_replies(server: Any, messages: list[dict[str, Any]]) -> list[bytes]:
    return [(text + "\n").encode() for text in anyio.run(front_data.exchange_lines, server, messages)]


SESSIONS = {
    **{
        f"legacy {v} {c}": (lambda v=v, c=c: legacy_session(v, c))
        for v in (*sdk_versions.HANDSHAKE_PROTOCOL_VERSIONS, "2099-01-01", "not-a-date")
        for c in CLIENTS
    },
    **{f"modern {v}": (lambda v=v: modern_session(v)) for v in sdk_versions.MODERN_PROTOCOL_VERSIONS},
}


@pytest.mark.parametrize("configured", list(MODES), indirect=True)
def test_front_answers_equal_the_sdk_servers_byte_for_byte(configured: Any) -> None:
    the_plan, server = configured
    for name, session in SESSIONS.items():
        messages = session()
        assert front_replies(the_plan, messages) == sdk_replies(server, messages), name


@pytest.mark.parametrize("configured", ["full", "ABAP system, auto (progressive)"], indirect=True)
def test_what_the_front_leaves_to_the_sdk_is_what_only_the_sdk_can_answer(configured: Any) -> None:
    """Each of these would be answered wrongly from the prepared data: the SDK refuses them (or
    answers them some other way), so the front must stop and let it."""
    the_plan, server = configured
    late = "2025-11-25"
    cases = {
        "tools/list before initialize": [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}],
        "a flag where the SDK wants a boolean": [
            {
                **initialize(late),
                "params": {**initialize(late)["params"], "capabilities": {"roots": {"listChanged": "maybe"}}},
            }
        ],
        "clientInfo without a version": [
            {**initialize(late), "params": {**initialize(late)["params"], "clientInfo": {"name": "c"}}}
        ],
        "a modern request for a version the SDK does not serve": [
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": envelope("2030-01-01")}
        ],
        "a modern request without client capabilities": [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "server/discover",
                "params": {"_meta": {f"{MODERN}protocolVersion": "2026-07-28"}},
            }
        ],
        "initialize on a modern connection": [
            modern_session("2026-07-28")[0],
            {**initialize(late), "id": 2},
        ],
        "an enveloped request on a handshake connection": [
            initialize(late),
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": envelope("2026-07-28")},
        ],
    }
    for name, messages in cases.items():
        front = Front(the_plan, replay_prefix="private-")
        answers = [front.answer(line(m)) for m in messages]
        assert answers[-1] is None, f"{name}: the front answered instead of the SDK"
        last = json.loads(sdk_replies(server, messages)[-1])
        assert "error" in last, f"{name}: the SDK accepts it ({last}), so the case proves nothing"


def test_a_deferred_message_makes_the_rest_of_the_session_the_sdks(prepared: Any, tmp_path: Path) -> None:
    the_plan = plan(MODES["full"][1], prepared, tmp_path)
    assert the_plan is not None
    front = Front(the_plan, replay_prefix="private-")
    assert isinstance(front.answer(line(initialize("2025-06-18"))), bytes)
    assert front.answer(line({"jsonrpc": "2.0", "id": 2, "method": "prompts/list"})) is None
    # an ordinary tools/list after it must not overtake the prompts/list the SDK has yet to answer
    assert front.answer(line({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})) is None
    assert [private for _, private, _ in front.replay] == ["private-0"], "the SDK is told of the handshake"


def test_unusual_lines_are_left_to_the_sdk(prepared: Any, tmp_path: Path) -> None:
    the_plan = plan(MODES["full"][1], prepared, tmp_path)
    assert the_plan is not None
    for raw in (
        b"{not json",
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":5}',
        b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}',
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
        b'{"jsonrpc":"1.0","id":1,"method":"ping"}',
        b"[" * 5000 + b"]" * 5000,
        b"\xff\xfe",
        b'{"jsonrpc":"2.0",\r"id":1,"method":"ping"}',
    ):
        assert Front(the_plan, replay_prefix="p-").answer(raw) is None, raw[:40]
    assert Front(the_plan, replay_prefix="p-").answer(b"  \n") is True, "blank lines are ignored, not deferred"


def test_the_front_does_not_cover_what_the_usual_path_refuses(prepared: Any, tmp_path: Path) -> None:
    """An unknown profile, tools mode or pinned tool: the usual path prints the error and exits 2."""
    for options in (
        Options("no-such-profile", None, "auto", None, False, None),
        Options(None, None, "fastest", None, False, None),
        Options(None, None, "progressive", "no_such_tool", False, None),
        Options(None, "mainframe", "auto", None, False, None),
    ):
        assert plan(options, prepared, tmp_path) is None, options


def test_the_console_class_tool_is_listed_only_with_the_execute_switch(
    prepared: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The front lists what the registry lists: run_console_class only with writes and
    SAP_DEVS_ADT_EXECUTE; and the server it hands over to checks the switch again at call time."""
    import dataclasses

    from sap_devs.mcp.dispatch import invoke

    for name in CLEARED:
        monkeypatch.delenv(name, raising=False)
    for name, value in ABAP.items():
        monkeypatch.setenv(name, value)
    specs = [ToolSpec.from_json(t) for t in prepared[1]["tools"]]
    monkeypatch.setattr(manifest, "load_specs", lambda *a: specs)
    monkeypatch.chdir(tmp_path)
    writes = Options(None, None, "full", None, True, None)
    without = plan(writes, prepared, tmp_path)
    assert without is not None and "run_console_class" not in without.listed and "write_source" in without.listed
    monkeypatch.setenv("SAP_DEVS_ADT_EXECUTE", "1")
    read_only = plan(Options(None, None, "full", None, False, None), prepared, tmp_path)
    assert read_only is not None and "run_console_class" not in read_only.listed, "the switch alone runs nothing"
    with_switch = plan(writes, prepared, tmp_path)
    assert with_switch is not None and "run_console_class" in with_switch.listed
    _server, ctx = build(writes, with_switch)
    tool = ctx.registry.get("run_console_class")
    ctx.safety = dataclasses.replace(ctx.safety, execute=False)  # switched off after the tool was listed
    outcome = anyio.run(invoke, tool, {"name": "ZCL_DEMO_RUN"}, ctx)
    assert outcome.is_error and "executing code on the system is off" in outcome.text


def test_prepared_answers_are_current() -> None:
    committed = front_data.DATA_PATH.read_text(encoding="utf-8")
    assert committed == front_data.render(), "src/sap_devs/mcp/front.json is stale: run `sap-devs tools docs`"


def test_version_negotiation_follows_the_sdks_own_lists() -> None:
    data = json.loads(front_data.DATA_PATH.read_text(encoding="utf-8"))
    assert data["handshake_versions"] == list(sdk_versions.HANDSHAKE_PROTOCOL_VERSIONS)
    assert data["modern_versions"] == list(sdk_versions.MODERN_PROTOCOL_VERSIONS)
    assert data["latest_handshake"] == sdk_versions.LATEST_HANDSHAKE_VERSION


def _copies(tmp_path: Path) -> tuple[Path, Path, dict[str, Any], dict[str, Any]]:
    """front.json and a manifest in tmp_path that fit this installation exactly."""
    tools = json.loads(MANIFEST_TEXT)
    tools["modules"] = manifest.tool_modules()
    manifest_text = json.dumps(tools)
    data = json.loads(front_data.DATA_PATH.read_text(encoding="utf-8"))
    data.update(
        manifest=hashlib.sha256(manifest_text.encode()).hexdigest(),
        sdk=installed.sdk_fingerprint(),
        sap_devs=installed.dist_version("sap-devs"),
        code=installed.server_sources_digest(),
    )
    (tmp_path / "tools.json").write_text(manifest_text, encoding="utf-8")
    (tmp_path / "front.json").write_text(json.dumps(data), encoding="utf-8")
    return tmp_path / "front.json", tmp_path / "tools.json", data, tools


@pytest.mark.parametrize(
    "stale",
    [
        "another SDK",
        "SDK version lists edited",
        "another sap-devs version",
        "another manifest",
        "a tool module added",
        "the server code edited",
    ],
)
def test_prepared_answers_that_do_not_fit_the_installation_are_not_used(tmp_path: Path, stale: str) -> None:
    data_path, manifest_path, data, tools = _copies(tmp_path)
    assert front_plan.load_data(data_path, manifest_path) is not None, "the fitting copy must be usable"
    if stale == "another SDK":
        data["sdk"]["mcp"] = "9.9.9"
    elif stale == "SDK version lists edited":
        data["sdk"]["versions_module"] = "0" * 64
    elif stale == "another sap-devs version":
        data["sap_devs"] = "0.0.1"
    elif stale == "the server code edited":
        data["code"] = "0" * 64
    elif stale == "another manifest":
        manifest_path.write_text(manifest_path.read_text() + " ", encoding="utf-8")
    else:
        tools["modules"].append("sap_devs.mcp.tools.knowledge.brand_new_tool")
        text = json.dumps(tools)
        manifest_path.write_text(text, encoding="utf-8")
        data["manifest"] = hashlib.sha256(text.encode()).hexdigest()
    data_path.write_text(json.dumps(data), encoding="utf-8")
    assert front_plan.load_data(data_path, manifest_path) is None


def test_rendering_the_answers_starts_no_warm_up_threads() -> None:
    """`sap-devs tools docs` renders the front's answers from real SDK servers; warm-up threads still
    importing when the command exits made the interpreter abort (exit 134) on a loaded machine."""
    import threading

    from sap_devs.mcp.front_data import render
    from sap_devs.mcp.manifest import render_manifest
    from sap_devs.mcp.registry import discover

    before = {t.ident for t in threading.enumerate() if t.name == "sap-devs-warm-up"}
    render(render_manifest(sorted(discover(), key=lambda t: (t.category, t.name))))
    started = [t for t in threading.enumerate() if t.name == "sap-devs-warm-up" and t.ident not in before]
    assert started == []
