"""Which opening messages the fast front answers, and how: only those whose answer it knows to be
exactly the SDK server's. Anything unusual (a malformed line, an unknown method, a parameter whose
validity only the SDK's models can judge) ends the front's part of the session: that message and
every one after it are the SDK's to answer.
"""

from __future__ import annotations

import json
from typing import Any

from sap_devs.mcp.front_plan import Plan, dumps, reply_line

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
_RESERVED_PREFIX = "io.modelcontextprotocol/"


def _reject_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are not JSON; the SDK refuses them


def parse(line: bytes) -> dict[str, Any] | None:
    """A message the front can judge, or None for anything unusual (the SDK then answers it)."""
    if b"\\u" in line:
        return None  # escapes may hide lone surrogates the SDK refuses; rare in an opening message
    if b"\r" in line.rstrip(b"\r\n"):
        return None  # the SDK's text reader ends a line at a lone CR too: it would see two lines
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
        self.replay.append((dumps(message).encode() + b"\n", None, None))
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
    return dumps({**message, "id": request_id}).encode("utf-8") + b"\n"
