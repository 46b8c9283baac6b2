"""Markdown split into core / detail / extended levels by ``<!-- verbosity:LEVEL -->`` lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Verbosity = Literal["minimal", "standard", "full"]
LEVELS = ("core", "detail", "extended")
_MARKER = re.compile(r"^<!--\s*verbosity:\s*([A-Za-z]+)\s*-->[ \t]*$")
_INCLUDED: dict[str, tuple[str, ...]] = {
    "minimal": ("core",),
    "standard": ("core", "detail"),
    "full": LEVELS,
}


@dataclass(frozen=True)
class Sections:
    core: str = ""
    detail: str = ""
    extended: str = ""

    def at(self, verbosity: Verbosity) -> str:
        parts = [getattr(self, level) for level in _INCLUDED[verbosity]]
        return "\n\n".join(p for p in parts if p)

    def is_empty(self) -> bool:
        return not (self.core or self.detail or self.extended)

    def joined(self, other: Sections, *, other_first: bool) -> Sections:
        def join(a: str, b: str) -> str:
            first, second = (b, a) if other_first else (a, b)
            return "\n\n".join(p for p in (first, second) if p)

        return Sections(*(join(getattr(self, lv), getattr(other, lv)) for lv in LEVELS))


def parse_sections(text: str, *, source: str) -> Sections:
    """Split ``text`` at marker lines; an unknown level is an error naming ``source`` and the line."""
    from sap_devs.core.errors import ContentError

    chunks: dict[str, list[str]] = {level: [] for level in LEVELS}
    current, buf = "core", []
    in_fence = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
        match = None if in_fence else _MARKER.match(stripped)
        if match:
            level = match.group(1).lower()
            if level not in LEVELS:
                raise ContentError(
                    source, f"line {lineno}: unknown verbosity level {level!r}; use one of {', '.join(LEVELS)}"
                )
            chunks[current].append("\n".join(buf).strip())
            current, buf = level, []
            continue
        buf.append(line)
    chunks[current].append("\n".join(buf).strip())
    return Sections(*("\n\n".join(c for c in chunks[level] if c) for level in LEVELS))
