"""The prebuilt tool manifest (``sap_devs/mcp/tools.json``): every tool's spec, written by
``sap-devs tools docs`` and read at server start instead of importing every tool module.

If the tool modules on disk are not exactly the ones the manifest lists (a tool added or
removed without regenerating it), the manifest is ignored and tools are discovered by import.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from sap_devs.mcp.installed import TOOLS_PACKAGE, tool_modules

if TYPE_CHECKING:  # the tool framework needs pydantic: imported where a spec is built
    from sap_devs.mcp.framework import Tool, ToolSpec

log = logging.getLogger(__name__)

MANIFEST_PATH = Path(__file__).with_name("tools.json")
PACKAGE = TOOLS_PACKAGE
FORMAT = 1


def render_manifest(tools: list[Tool]) -> str:
    specs = sorted((t.spec() for t in tools), key=lambda s: s.name)
    payload = {"format": FORMAT, "modules": tool_modules(), "tools": [s.to_json() for s in specs]}
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_specs(path: Path = MANIFEST_PATH) -> list[ToolSpec] | None:
    from sap_devs.mcp.framework import ToolSpec

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
