"""What ``sap-devs mcp serve`` answers over stdio before the ``mcp`` SDK has loaded.

Agents start every configured MCP server when a session opens and wait for its tool list; importing
the SDK takes far longer than everything else the server does at start. So the server first works
out the user's tool set from the prepared answers in ``front.json`` (captured from the SDK server
itself, see ``front_data``), starts loading the SDK and building the real server on a thread, and
meanwhile answers the opening messages it can answer exactly as the SDK would: ``initialize``,
``notifications/initialized``, ``ping`` and ``tools/list`` of the handshake era, ``server/discover``
and ``tools/list`` of the 2026-07-28 era. The first message it is not sure of, and every message
after it, waits for the SDK server, which then serves the session (``front_handoff``).

Nothing here imports pydantic or the SDK. When the prepared answers do not match this installation
(another SDK, package version or tool manifest) or the configuration is one the front does not
cover, the SDK answers from the first message, as it always did.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from sap_devs.mcp import installed
from sap_devs.mcp.front_data import DATA_PATH, FORMAT, INSTRUCTIONS, TOOLS, combo_key

MANIFEST = Path(__file__).with_name("tools.json")
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
_RESERVED_PREFIX = "io.modelcontextprotocol/"


class Options(NamedTuple):
    """``sap-devs mcp serve`` (stdio) as parsed by ``sap_devs.cli.serve.fast_path``."""

    profile: str | None
    environment: str | None
    tools_mode: str
    pin: str | None
    allow_writes: bool
    system: str | None


def stdio_options(argv: list[str]) -> Options | None:
    """The options of a plain ``mcp serve`` on stdio, parsed as ``sap_devs.cli.serve.fast_path`` parses
    them; None for anything else (help, --transport, an unknown option: the usual path answers)."""
    if argv[:2] != ["mcp", "serve"] or os.environ.get("SAP_DEVS_FAST_FRONT", "").strip().lower() in _OFF:
        return None
    if any(a in ("-h", "--help") or a == "--transport" or a.startswith("--transport=") for a in argv[2:]):
        return None
    import argparse

    parser = argparse.ArgumentParser(prog="sap-devs mcp serve", add_help=False)
    parser.add_argument("--profile", "-p", default=os.environ.get("SAP_DEVS_PROFILE"))
    parser.add_argument("--environment", default=None)
    parser.add_argument("--allow-writes", action="store_true")
    parser.add_argument("--system", default=None)
    parser.add_argument("--tools", dest="tools_mode", default=os.environ.get("SAP_DEVS_TOOLS", "auto"))
    parser.add_argument("--pin", default=os.environ.get("SAP_DEVS_PINNED_TOOLS"))
    args, unknown = parser.parse_known_args(argv[2:])
    if unknown:
        return None
    return Options(args.profile, args.environment, args.tools_mode, args.pin, args.allow_writes, args.system)


_OFF = ("0", "false", "no", "off")


class _Spec(NamedTuple):
    """What ``build_instructions`` reads of a tool, from the manifest."""

    name: str
    instruction: str | None
    progressive_only: bool
    output_schema: dict[str, Any] | None


@dataclass
class Plan:
    """The answers the front may give for this start: the listed tools and the instructions for
    the user's tool set and mode, and the SDK's result templates for each protocol version."""

    data: dict[str, Any]
    mode: str
    listed: list[str]
    instructions: str
    problem: str | None = None
    """Why the configured ABAP system cannot be used, said once at start as the usual path says it."""
    _bodies: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def handshake_versions(self) -> list[str]:
        return self.data["handshake_versions"]

    @property
    def modern_versions(self) -> list[str]:
        return self.data["modern_versions"]

    def negotiate(self, requested: str) -> str:
        """The SDK's rule: the client's version when it is a handshake version, else the newest."""
        return requested if requested in self.handshake_versions else self.data["latest_handshake"]

    def body(self, kind: str, version: str) -> str:
        """The JSON text after ``"id":…,`` of a reply: ``"result":{…}`` or ``"error":{…}``."""
        key = (kind, version)
        if key not in self._bodies:
            entry = self.data["versions"][version]
            if kind == "ping":
                reply = entry["ping"]
            elif kind == "open":
                reply = {"result": _filled(entry[f"open_{self.mode}"], INSTRUCTIONS, self.instructions)}
            else:
                forms = self.data["tool_forms"][entry["tools"]]
                reply = {"result": _filled(entry["list"], TOOLS, [forms[name] for name in self.listed])}
            self._bodies[key] = _dumps(reply)[1:-1]
        return self._bodies[key]


def _filled(template: dict[str, Any], marker: str, value: Any) -> dict[str, Any]:
    return {k: value if v == marker else v for k, v in template.items()}


def _dumps(value: Any) -> str:
    # the SDK writes compact JSON with UTF-8 text unescaped; this is the same text
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def reply_line(request_id: str | int, body: str) -> bytes:
    return ('{"jsonrpc":"2.0","id":' + _dumps(request_id) + "," + body + "}\n").encode("utf-8")


def load_data(path: Path = DATA_PATH, manifest: Path = MANIFEST) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """front.json and the tool manifest, or None when the prepared answers may not fit this
    installation: then the SDK answers, as it would without the front."""
    try:
        data = json.loads(path.read_bytes())
        manifest_bytes = manifest.read_bytes()
    except (OSError, ValueError):
        return None
    if data.get("format") != FORMAT:
        return None
    if data.get("manifest") != hashlib.sha256(manifest_bytes).hexdigest():
        return None
    if data.get("sap_devs") != installed.dist_version("sap-devs"):
        return None
    if data.get("sdk") != installed.sdk_fingerprint():
        return None
    try:
        specs = json.loads(manifest_bytes)
    except ValueError:
        return None
    if specs.get("modules") != installed.tool_modules():
        return None  # the registry discovers tools by import then: the manifest's list may be wrong
    return data, specs


def plan(options: Options, loaded: tuple[dict[str, Any], dict[str, Any]], cwd: Path) -> Plan | None:
    """The answers for this configuration, decided as ``run_server`` decides them; None when the
    front does not cover it (an unknown profile, mode or pin: the SDK path reports those)."""
    data, manifest = loaded
    if options.profile not in (None, "", "all"):
        from sap_devs.knowledge.layer_paths import available_profiles, default_layers

        if options.profile not in available_profiles(default_layers(cwd)):
            return None
    tool_set = _tool_set(options, data)
    if tool_set is None:
        return None
    if options.tools_mode not in ("auto", "full", "progressive"):
        return None
    key, names, problem = tool_set
    mode = data["tool_sets"]["auto"][key] if options.tools_mode == "auto" else options.tools_mode
    specs = {t["name"]: t for t in manifest["tools"]}
    pins = [p.strip() for p in (options.pin or ",".join(data["default_pinned"])).split(",") if p.strip()]
    if any(p not in names for p in pins):
        return None
    operations = [n for n in names if not specs[n]["progressive_only"]]
    listed = operations if mode == "full" else [n for n in names if specs[n]["progressive_only"] or n in pins]
    from sap_devs.mcp.instructions import build_instructions

    shown = [
        _Spec(n, specs[n].get("instruction"), specs[n]["progressive_only"], specs[n].get("output_schema"))
        for n in listed
    ]
    instructions = build_instructions(shown, mode=mode, operations=len(operations))  # type: ignore[arg-type]
    return Plan(data, mode, listed, instructions, problem)


def _tool_set(options: Options, data: dict[str, Any]) -> tuple[str, list[str], str | None] | None:
    """The registry's tool names for the user's system settings, looked up in the prepared sets, and
    what is wrong with the system's configuration (the ABAP tools then answer with that)."""
    from sap_devs.adt.config import configured, deferred_errors

    with deferred_errors():
        config = configured(options.system)
    environment = options.environment or (config.system_type if config else os.environ.get("SAP_SYSTEM_TYPE", "onprem"))
    keys, sets = data["tool_sets"]["keys"], data["tool_sets"]["sets"]
    problem = str(config.problem) if config is not None and config.problem is not None else None
    if config is None:
        # without a system the ABAP switches change nothing (checked in the data), so the policy
        # module need not load
        found = {keys.get(combo_key(environment, False, *flags)) for flags in _FLAG_COMBOS}
        if len(found) != 1 or None in found:
            return None
        key = combo_key(environment, False, False, False, False)
        return key, sets[keys[key]], None
    from sap_devs.adt.safety import SafetyPolicy

    policy = SafetyPolicy.from_env(allow_writes=options.allow_writes)
    key = combo_key(environment, True, policy.writes, policy.data, policy.transports)
    return (key, sets[keys[key]], problem) if key in keys else None


_FLAG_COMBOS = [(w, d, t) for w in (False, True) for d in (False, True) for t in (False, True)]


# --- reading the client's messages ---------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are not JSON; the SDK refuses them


def parse(line: bytes) -> dict[str, Any] | None:
    """A message the front can judge, or None for anything unusual (the SDK then answers it)."""
    if b"\\u" in line:
        return None  # escapes may hide lone surrogates the SDK refuses; rare in an opening message
    try:
        message = json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    if not set(message) <= {"jsonrpc", "id", "method", "params"} or not isinstance(message.get("method"), str):
        return None
    if "id" in message and not _is_id(message["id"]):
        return None
    if "params" in message and not isinstance(message["params"], dict):
        return None
    return message


def _is_id(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def _is_str(value: Any, optional: bool = True) -> bool:
    return isinstance(value, str) or (optional and value is None)


def _objects_only(value: Any, depth: int = 0) -> bool:
    """A capability object whose members are objects all the way down (true of every capability
    clients send today); a flag or list somewhere inside is left to the SDK's validation."""
    if not isinstance(value, dict) or depth > 8:
        return False
    return all(_objects_only(v, depth + 1) for v in value.values())


def client_capabilities_ok(caps: Any) -> bool:
    if not isinstance(caps, dict):
        return False
    for name, value in caps.items():
        if name == "roots":
            if not isinstance(value, dict) or not isinstance(value.get("listChanged", False), bool):
                return False
            if any(k != "listChanged" and not _objects_only(v) for k, v in value.items()):
                return False
        elif not _objects_only(value):
            return False
    return True


def implementation_ok(info: Any) -> bool:
    """A clientInfo the SDK's Implementation model accepts (unknown members are ignored by it)."""
    if not isinstance(info, dict) or not isinstance(info.get("name"), str) or not isinstance(info.get("version"), str):
        return False
    if not all(_is_str(info.get(k)) for k in ("title", "description", "websiteUrl")):
        return False
    return "icons" not in info  # icon lists have their own rules: the SDK judges those


def _legacy_meta_ok(params: dict[str, Any]) -> bool:
    meta = params.get("_meta")
    if meta is None:
        return "_meta" not in params
    if not isinstance(meta, dict) or any(k.startswith(_RESERVED_PREFIX) for k in meta):
        return False
    return "progressToken" not in meta or _is_id(meta["progressToken"])


def _only(params: dict[str, Any], *allowed: str) -> bool:
    return set(params) <= set(allowed)


def envelope_version(params: dict[str, Any] | None) -> Any:
    meta = (params or {}).get("_meta")
    return meta.get(PROTOCOL_VERSION_KEY) if isinstance(meta, dict) else None


def _has_envelope(params: dict[str, Any] | None) -> bool:
    meta = (params or {}).get("_meta")
    return isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta


def _modern_envelope_ok(params: dict[str, Any], versions: list[str]) -> bool:
    meta = params.get("_meta")
    if not isinstance(meta, dict) or meta.get(PROTOCOL_VERSION_KEY) not in versions:
        return False
    if not client_capabilities_ok(meta.get(CLIENT_CAPABILITIES_KEY)):
        return False
    info = meta.get(CLIENT_INFO_KEY)
    if info is not None and not implementation_ok(info):
        return False
    return set(meta) <= {PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY}


class Front:
    """The answering rules: one message in, its reply (or None when the SDK must answer it and every
    message after it). Keeps what the SDK must be told of at hand-off (``replay``)."""

    def __init__(self, plan: Plan, replay_prefix: str) -> None:
        self.plan = plan
        self.era: str | None = None
        self.version: str | None = None  # negotiated by initialize (handshake era)
        self.deferred = False
        self.replay: list[tuple[bytes, str | int | None, bytes | None]] = []
        """(line for the SDK, the private id it carries, the reply the front gave) in order."""
        self._prefix = replay_prefix

    def answer(self, line: bytes) -> bytes | bool | None:
        """The reply to send; True for a message consumed without reply; None to defer."""
        if self.deferred:
            return None
        if not line.strip():
            return True  # blank lines are ignored, as the SDK's edge ignores them
        message = parse(line)
        outcome = self._judge(message) if message is not None else None
        if outcome is None:
            self.deferred = True
        return outcome

    def _judge(self, message: dict[str, Any]) -> bytes | bool | None:
        params = message.get("params")
        if "id" not in message:
            return self._notification(message, params)
        method, request_id = message["method"], message["id"]
        if self.era is None:
            self.era = "modern" if method != "initialize" and _has_envelope(params) else "legacy"
            first = True
        else:
            first = False
        reply = self._modern(method, params) if self.era == "modern" else self._legacy(method, params)
        if reply is None:
            return None
        line = reply_line(request_id, reply)
        if first or method == "initialize":
            # the SDK must see the request that opened the era and the handshake it missed;
            # its own answer to them, under a private id, never reaches stdout
            private = f"{self._prefix}{len(self.replay)}"
            self.replay.append((_with_id(message, private), private, line))
        return line

    def _notification(self, message: dict[str, Any], params: dict[str, Any] | None) -> bool | None:
        if self.era != "legacy" or self.version is None or message["method"] != "notifications/initialized":
            return None
        if params is not None and (not _only(params, "_meta") or not _legacy_meta_ok(params)):
            return None
        self.replay.append((_dumps(message).encode() + b"\n", None, None))
        return True

    def _legacy(self, method: str, params: dict[str, Any] | None) -> str | None:
        if params is not None and not _legacy_meta_ok(params):
            return None
        if method == "initialize":
            if self.version is not None or params is None:
                return None  # a second initialize is the SDK's to judge
            if not _only(params, "protocolVersion", "capabilities", "clientInfo", "_meta"):
                return None
            requested = params.get("protocolVersion")
            if not isinstance(requested, str) or not client_capabilities_ok(params.get("capabilities")):
                return None
            if not implementation_ok(params.get("clientInfo")):
                return None
            self.version = self.plan.negotiate(requested)
            return self.plan.body("open", self.version)
        if params is not None and not _only(params, "_meta"):
            return None
        if method == "ping":
            return self.plan.body("ping", self.version or self.plan.data["latest_handshake"])
        if method == "tools/list" and self.version is not None:
            return self.plan.body("list", self.version)
        return None  # before initialize the SDK refuses; other methods need the SDK

    def _modern(self, method: str, params: dict[str, Any] | None) -> str | None:
        if params is None or not _only(params, "_meta") or not _modern_envelope_ok(params, self.plan.modern_versions):
            return None
        version = params["_meta"][PROTOCOL_VERSION_KEY]
        if method == "server/discover":
            return self.plan.body("open", version)
        if method == "tools/list":
            return self.plan.body("list", version)
        if method == "ping":
            return self.plan.body("ping", version)
        return None


def _with_id(message: dict[str, Any], request_id: str) -> bytes:
    return _dumps({**message, "id": request_id}).encode("utf-8") + b"\n"


# --- the process -----------------------------------------------------------------------------------


def claim_stdin() -> int | None:
    """A private descriptor for the protocol's stdin, with fd 0 pointed at the null device, so no
    child process or stray read can take protocol bytes (as the SDK's stdio transport does)."""
    if sys.platform == "win32":
        return None
    try:
        import fcntl

        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        return None
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
    except OSError:
        pass  # serving the private copy still works; only the diversion is lost
    return private


def _read_lines(fd: int, lines: queue.SimpleQueue[bytes | None]) -> None:
    with os.fdopen(fd, "rb", buffering=65536, closefd=False) as stream:
        try:
            for line in stream:
                lines.put(line)
        except (OSError, ValueError):
            pass
    lines.put(None)  # end of input


def _write(data: bytes) -> None:
    view = memoryview(data)
    try:
        while view:
            written = os.write(1, view)
            view = view[written:]
    except BrokenPipeError:
        os._exit(0)  # the client has gone: there is no one left to answer


FRONT_SWITCH_INTERVAL = 0.001
READY = b"\x00ready"  # put in the line queue when the SDK server is ready to take over


def serve(options: Options) -> int | None:
    """Serve the session with the front ahead of the SDK; None when the front does not apply (the
    caller then starts the SDK server the usual way)."""
    if sys.stdin is None or sys.stdin.isatty():
        return None  # a person at a terminal gets the ready line from the usual path
    loaded = load_data()
    if loaded is None:
        return None
    the_plan = plan(options, loaded, Path(os.getcwd()))
    if the_plan is None:
        return None
    fd = claim_stdin()
    if fd is None:
        return None
    if the_plan.problem is not None:
        print(f"sap-devs: ABAP tools unavailable: {the_plan.problem}", file=sys.stderr, flush=True)
    lines: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    # the SDK imports on a thread meanwhile; a short switch interval lets the answers through quickly
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(FRONT_SWITCH_INTERVAL)
    threading.Thread(target=_read_lines, args=(fd, lines), name="sap-devs-stdin", daemon=True).start()
    built: dict[str, Any] = {}

    def load() -> None:
        from sap_devs.mcp.front_handoff import build

        try:
            built["server"] = build(options, the_plan)
        except BaseException as exc:  # reported on the main thread
            built["error"] = exc
        lines.put(READY)

    threading.Thread(target=load, name="sap-devs-load", daemon=True).start()
    front = Front(the_plan, replay_prefix=f"sap-devs-front-{os.getpid()}-{os.urandom(4).hex()}-")
    pending: list[bytes] = []
    ended = False
    while True:
        line = lines.get()
        if line is READY:
            break
        if line is None:
            ended = True
            if not pending:
                # every message was answered and the client has gone: nothing is left for the SDK,
                # and the thread still importing it must not hold up (or trouble) the exit
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(0)
            continue
        reply = front.answer(line)
        if reply is None:
            pending.append(line)
        elif isinstance(reply, bytes):
            _write(reply)
    if "error" in built:
        error = built["error"]
        if isinstance(error, SystemExit):
            return int(error.code or 0)
        raise error
    from sap_devs.mcp.front_handoff import serve_after_front

    sys.setswitchinterval(switch_interval)
    return serve_after_front(built["server"], front.replay, pending, None if ended else lines)
