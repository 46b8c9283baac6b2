"""The project folder a doctor tool works on: the path the agent gave, checked, or the server's folder."""

from __future__ import annotations

import os
from pathlib import Path

from sap_devs.doctor.project import shorten_path
from sap_devs.mcp.framework import ToolContext, ToolError

MAX_PATH = 4096  # PATH_MAX on Linux; longer cannot name a folder anywhere


def project_root(path: str | None, ctx: ToolContext) -> Path:
    if path is None:
        return ctx.cwd
    shown = shorten_path(path)
    if "\0" in path:
        raise ToolError(f"path contains a NUL character: {shown!r}.", hint="Pass the project root folder.")
    try:
        candidate = Path(path).expanduser()
    except RuntimeError:  # ~user of an unknown user
        candidate = Path(path)
    if not candidate.is_absolute():
        raise ToolError(
            f"path must be absolute, got {shown!r}.",
            hint="Pass the full path of the project root, or omit path to use the server's working folder.",
        )
    try:
        is_dir = candidate.is_dir()
        exists = is_dir or candidate.exists()
        resolved = candidate.resolve() if is_dir else candidate
    except OSError as exc:  # too long a name, no permission on a parent, a link loop
        raise ToolError(
            f"{shown} cannot be opened: {exc.strerror or exc}.",
            hint="Pass the project root folder, readable by the user the MCP server runs as.",
        ) from None
    if not exists:
        raise ToolError(f"{shown} does not exist.", hint="Pass the project root folder.")
    if not is_dir:
        raise ToolError(f"{shown} is a file, not a folder.", hint="Pass the project root folder that contains it.")
    if not os.access(resolved, os.R_OK | os.X_OK):
        raise ToolError(
            f"{shown} cannot be read (permission denied).",
            hint="Pass a folder readable by the user the MCP server runs as.",
        )
    return resolved
