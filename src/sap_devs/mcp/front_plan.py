"""The fast front's answers for one start of ``sap-devs mcp serve``: the user's tool set, tools mode and
server instructions, decided as ``run_server`` decides them, put into the result templates the SDK
server produced at build time (``front.json``, see ``front_data``).

Nothing here imports pydantic or the SDK: the front must answer before those have loaded.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from sap_devs.mcp import installed
from sap_devs.mcp.front_data import DATA_PATH, FORMAT, INSTRUCTIONS, TOOLS, combo_key

MANIFEST = Path(__file__).with_name("tools.json")


class Options(NamedTuple):
    """``sap-devs mcp serve`` (stdio) as parsed by ``sap_devs.cli.serve.fast_path``."""

    profile: str | None
    environment: str | None
    tools_mode: str
    pin: str | None
    allow_writes: bool
    system: str | None


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
            self._bodies[key] = dumps(reply)[1:-1]
        return self._bodies[key]


def _filled(template: dict[str, Any], marker: str, value: Any) -> dict[str, Any]:
    return {k: value if v == marker else v for k, v in template.items()}


def dumps(value: Any) -> str:
    # the SDK writes compact JSON with UTF-8 text unescaped; this is the same text
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def reply_line(request_id: str | int, body: str) -> bytes:
    return ('{"jsonrpc":"2.0","id":' + dumps(request_id) + "," + body + "}\n").encode("utf-8")


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
    if data.get("code") != installed.server_sources_digest():
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
    if mode == "full":  # as Registry.listed: tools for another kind of project are not listed
        from sap_devs.mcp.project_kinds import detect_kinds, fits

        kinds = detect_kinds(cwd)
        if any(specs[n].get("needs_system") for n in names):  # as open_session: an ABAP system is configured
            kinds |= {"abap"}
        listed = [n for n in operations if fits(specs[n].get("project_kinds", []), kinds)]
    else:
        listed = [n for n in names if specs[n]["progressive_only"] or n in pins]
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
        key = combo_key(environment, False, False, False, False, False)
        return key, sets[keys[key]], None
    from sap_devs.adt.safety import SafetyPolicy

    policy = SafetyPolicy.from_env(allow_writes=options.allow_writes)
    key = combo_key(environment, True, policy.writes, policy.data, policy.transports, policy.execute)
    return (key, sets[keys[key]], problem) if key in keys else None


_FLAG_COMBOS = list(itertools.product((False, True), repeat=4))  # writes, data, transports, execute
