"""Facts about the installation, read from disk without importing anything heavy: the fast front
checks them before it answers, and must not import the ``mcp`` SDK, pydantic, logging or
``importlib.metadata`` (which alone costs more than the front's whole budget) to do so."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

TOOLS_PACKAGE = "sap_devs.mcp.tools"
SERVER_SOURCES = ("server.py", "schema_compact.py", "registry.py", "front_data.py")
"""The modules whose behaviour the fast front's prepared answers capture (wire shapes, tool sets)."""


def dist_version(distribution: str) -> str | None:
    """The version of an installed distribution from its ``.dist-info`` folder name on ``sys.path``,
    first match in path order (as ``importlib.metadata`` finds it); None when not installed."""
    prefix = distribution.replace("-", "_").lower() + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.lower().startswith(prefix):
                return name[len(prefix) : -len(".dist-info")]
    return None


def _module_file(package: str, relative: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / relative
        if path.is_file():
            return path
    return None


def sdk_fingerprint() -> dict[str, str]:
    """The installed SDK as the front's data must match it: the ``mcp`` and ``mcp-types`` versions and
    a digest of the module listing the protocol versions it negotiates."""
    versions_module = _module_file("mcp_types", "version.py")
    digest = hashlib.sha256(versions_module.read_bytes()).hexdigest() if versions_module else ""
    return {
        "mcp": dist_version("mcp") or "",
        "mcp_types": dist_version("mcp-types") or "",
        "versions_module": digest,
    }


def tool_modules() -> list[str]:
    """Names of the tool modules under the tools package, found on disk without importing anything."""
    root = Path(__file__).with_name("tools")
    names = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).with_suffix("")
        if path.name.startswith("_") or any(part.startswith((".", "_")) for part in rel.parts[:-1]):
            continue
        names.append(".".join((TOOLS_PACKAGE, *rel.parts)))
    return sorted(names)


def server_sources_digest() -> str:
    """A digest of SERVER_SOURCES as they are on disk: prepared answers made from other code are stale."""
    digest = hashlib.sha256()
    for name in SERVER_SOURCES:
        digest.update(name.encode() + b"\0" + Path(__file__).with_name(name).read_bytes())
    return digest.hexdigest()
