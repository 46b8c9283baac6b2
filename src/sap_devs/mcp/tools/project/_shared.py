"""What the project tools share: resolving the path they are given, and the time they may take."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sap_devs.mcp.dispatch import deadline
from sap_devs.mcp.framework import ToolContext, ToolError

PATH_MAX = 4096


def resolve_path(path: str | None, ctx: ToolContext, *, what: str = "project folder") -> Path:
    """An absolute, existing path (or the server's working folder when omitted)."""
    if path is None:
        return ctx.cwd
    if "\0" in path:
        raise ToolError("path contains a NUL character.", hint=f"Pass the {what}.")
    try:
        candidate = Path(path).expanduser()
    except RuntimeError:
        candidate = Path(path)
    if not candidate.is_absolute():
        raise ToolError(
            f"path must be absolute, got {path[:200]!r}.",
            hint=f"Pass the full path of the {what}, or omit path to use the server's working folder.",
        )
    try:
        exists = candidate.exists()
    except OSError as exc:
        raise ToolError(f"{path[:200]} cannot be opened: {exc.strerror or exc}.") from None
    if not exists:
        raise ToolError(f"{path[:200]} does not exist.", hint=f"Pass the {what}.")
    return candidate


def time_budget() -> float:
    """Seconds a Node tool may run: inside the dispatcher's deadline, so the tool answers (and its
    process is killed) before the call is abandoned."""
    return max(5.0, deadline() * 0.85)


# the known error a linter's or compiler's finding matches, as the project tools attach it (no docstring:
# pydantic would put it into every output schema)
class KnownErrorRef(BaseModel):
    id: str
    cause: str
    fix: str
    docs: str | None = None

    @classmethod
    def of(cls, entry: Any) -> KnownErrorRef:
        return cls(id=entry.id, cause=entry.cause, fix=entry.fix, docs=entry.docs)
