"""Version strings and constraints such as ``>=18.0.0`` (npm-style, good enough for CLI versions)."""

from __future__ import annotations

import re

_OPS = (">=", "<=", ">", "<", "=")
_NUM = re.compile(r"\d+")


def parse_version(text: str) -> tuple[int, int, int] | None:
    """``v20.11.1`` -> (20, 11, 1); missing parts are 0; pre-release suffixes are ignored."""
    text = text.strip().lstrip("vV")
    if not text or not text[0].isdigit():
        return None
    parts = []
    for chunk in text.split("-", 1)[0].split(".")[:3]:
        match = _NUM.match(chunk)
        if not match:
            break
        parts.append(int(match.group()))
    while len(parts) < 3:
        parts.append(0)
    return (parts[0], parts[1], parts[2])


def satisfies(found: str, required: str) -> bool | None:
    """True/False when both sides parse; None when the answer is unknown (``latest`` or unparsable)."""
    required = required.strip()
    if required == "latest":
        return None
    op = next((o for o in _OPS if required.startswith(o)), ">=")
    want = parse_version(required[len(op) :] if required.startswith(op) else required)
    have = parse_version(found)
    if want is None or have is None:
        return None
    return {
        ">=": have >= want,
        "<=": have <= want,
        ">": have > want,
        "<": have < want,
        "=": have == want,
    }[op]
