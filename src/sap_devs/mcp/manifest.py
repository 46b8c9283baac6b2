"""The prebuilt tool manifest (``sap_devs/mcp/tools.json``): every tool's spec, written by
``sap-devs tools docs`` and read at server start instead of importing every tool module.

If the tool modules on disk are not exactly the ones the manifest lists (a tool added or
removed without regenerating it), the manifest is ignored and tools are discovered by import.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from sap_devs.mcp.framework import Tool, ToolSpec

log = logging.getLogger(__name__)

MANIFEST_PATH = Path(__file__).with_name("tools.json")
PACKAGE = "sap_devs.mcp.tools"
FORMAT = 1


def tool_modules() -> list[str]:
    """Names of the tool modules under the tools package, found on disk without importing anything."""
    root = Path(__file__).with_name("tools")
    names = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).with_suffix("")
        if path.name.startswith("_") or any(part.startswith((".", "_")) for part in rel.parts[:-1]):
            continue
        names.append(".".join((PACKAGE, *rel.parts)))
    return sorted(names)


def render_manifest(tools: list[Tool]) -> str:
    specs = sorted((t.spec() for t in tools), key=lambda s: s.name)
    payload = {"format": FORMAT, "modules": tool_modules(), "tools": [s.to_json() for s in specs]}
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_specs(path: Path = MANIFEST_PATH) -> list[ToolSpec] | None:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        if payload.get("format") != FORMAT:
            return None
        if payload.get("modules") != tool_modules():
            log.warning("tool manifest %s is out of date; discovering tools by import", path)
            return None
        return [ToolSpec.from_json(entry) for entry in payload["tools"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("tool manifest %s unusable (%s); discovering tools by import", path, exc)
        return None
