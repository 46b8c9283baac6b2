"""Checks on the paths a user (or an agent) hands to a toolchain adapter."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from sap_devs.core.errors import SapDevsError

PATTERN_MAX = 300
PATTERNS_MAX = 200


def project_root(path: Path) -> Path:
    """``path`` resolved, as a folder that exists; a clear error otherwise."""
    try:
        root = path.expanduser().resolve(strict=True)
    except (OSError, RuntimeError):
        raise SapDevsError(f"{path} does not exist.") from None
    if not root.is_dir():
        raise SapDevsError(f"{path} is not a folder.")
    return root


def relative_patterns(patterns: list[str]) -> list[str]:
    """File names or glob patterns inside the project: relative, no ``..``, bounded in count and length."""
    if len(patterns) > PATTERNS_MAX:
        raise SapDevsError(f"{len(patterns)} file patterns: at most {PATTERNS_MAX} per call.")
    cleaned = []
    for raw in patterns:
        pattern = raw.strip().replace("\\", "/")
        if not pattern or len(pattern) > PATTERN_MAX or "\x00" in pattern:
            raise SapDevsError(f"Not a usable file pattern: {raw[:80]!r}.")
        pure = PurePosixPath(pattern)
        if pure.is_absolute() or ".." in pure.parts or pattern.startswith("~") or ":" in pure.parts[0]:
            raise SapDevsError(f"{raw[:80]!r}: give files relative to the project folder, without '..'.")
        cleaned.append(pattern.removeprefix("./"))
    return cleaned
