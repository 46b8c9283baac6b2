"""What the project tools share: resolving the path they are given, and the time they may take."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sap_devs.mcp.dispatch import deadline
from sap_devs.mcp.framework import ToolContext, ToolError

PATH_MAX = 4096


RELATIVE_NOTE = "absolute, or relative to the folder the MCP server was started in"


def path_field(what: str) -> Any:
    """The optional ``path`` input of a project tool, described as ``resolve_path`` treats it."""
    return Field(
        None,
        min_length=1,
        max_length=PATH_MAX,
        description=f"Path of {what}: {RELATIVE_NOTE}. Omit for that folder.",
    )


def resolve_path(path: str | None, ctx: ToolContext, *, what: str = "project folder") -> Path:
    """An existing path: absolute, or relative to the server's working folder (which it is when omitted)."""
    if path is None:
        return ctx.cwd
    if "\0" in path:
        raise ToolError("path contains a NUL character.", hint=f"Pass the {what}.")
    try:
        candidate = Path(path).expanduser()
    except RuntimeError:
        candidate = Path(path)
    if not candidate.is_absolute():
        candidate = ctx.cwd / candidate  # as check_project and `sap-devs check .` take it
    try:
        exists = candidate.exists()
    except OSError as exc:
        raise ToolError(f"{path[:200]} cannot be opened: {exc.strerror or exc}.") from None
    if not exists:
        raise ToolError(
            f"{path[:200]} does not exist.",
            hint=f"Pass the {what}: an absolute path, or one relative to {ctx.cwd}.",
        )
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
