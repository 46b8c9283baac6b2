"""Parsed copies of the bundled pack and profile YAML, so a fresh server does not pay the YAML parser.

Each entry is keyed by the file's path under the package and carries the SHA-1 of the YAML bytes it
was made from: a file that differs from its snapshot is parsed normally, so a stale snapshot only
costs speed, never correctness. ``sap-devs content snapshot`` rewrites it; a test keeps it current.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

SNAPSHOT_PATH = Path(__file__).resolve().parent / "parsed_content.json"
_entries: dict[str, list[str]] | None = None


def _root() -> Path:
    from sap_devs.core import paths

    return paths.bundled_root()


def _bundled_yaml() -> list[Path]:
    root = _root()
    return sorted(p for folder in ("packs", "profiles") for p in (root / folder).rglob("*.yaml"))


def render_snapshot() -> str:
    from sap_devs.core import safe_yaml

    root = _root()
    entries = {}
    for path in _bundled_yaml():
        raw = path.read_bytes()
        data = safe_yaml.load(raw.decode("utf-8"))
        entries[path.relative_to(root).as_posix()] = [
            hashlib.sha1(raw).hexdigest(),
            json.dumps(data, ensure_ascii=False, separators=(",", ":")),
        ]
    return json.dumps(entries, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def lookup(path: Path, raw: bytes) -> tuple[bool, Any]:
    """(True, data) when ``path`` is a bundled file whose bytes match its snapshot; else (False, None)."""
    global _entries
    try:
        key = path.resolve().relative_to(_root()).as_posix()
    except ValueError:
        return False, None  # a user's or company's pack: not in the snapshot
    if _entries is None:
        try:
            _entries = json.loads(SNAPSHOT_PATH.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _entries = {}  # no usable snapshot: every file is parsed from YAML
    entry = _entries.get(key)
    if entry is None or entry[0] != hashlib.sha1(raw).hexdigest():
        return False, None
    return True, json.loads(entry[1])
