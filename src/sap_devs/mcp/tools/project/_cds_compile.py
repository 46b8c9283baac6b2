"""What search_cds_model and check_cds share: compiling the project's model within the tool deadline,
and the compiler's failures as errors the agent can act on."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sap_devs.mcp.framework import Tool, ToolContext, ToolError
from sap_devs.mcp.tools.project._shared import resolve_path, time_budget

if TYPE_CHECKING:
    from sap_devs.toolchain.cds import Compiled, Limits
    from sap_devs.toolchain.cds_model import CdsModel

T = TypeVar("T")

NO_MODEL_HINT = (
    "No CDS model files were found in db/, srv/, app/ or the models cds.requires names. "
    "Pass the CAP project's root folder as path."
)


def cds_tool(**fields: Any) -> Tool:
    """A tool over the CAP project's compiled model: a project tool listed where the server starts in
    a CAP project, reading only."""
    return Tool(category="project", project_kinds=frozenset({"cap"}), **fields)


def project_folder(path: str | None, ctx: ToolContext) -> Path:
    root = resolve_path(path, ctx, what="CAP project root folder")
    if not root.is_dir():
        raise ToolError(f"{root} is a file, not a folder.", hint="Pass the CAP project root folder that contains it.")
    return root


def _limits() -> Limits:
    from sap_devs.toolchain.cds import LIMITS

    return dataclasses.replace(LIMITS, timeout=min(LIMITS.timeout, time_budget()))


async def _run(func: Callable[..., T], root: Path) -> T:
    from sap_devs.toolchain.cds import CdsCompileError
    from sap_devs.toolchain.errors import ToolchainMissing

    try:
        return await asyncio.to_thread(func, root, limits=_limits())
    except ToolchainMissing as exc:  # one line naming the install command
        raise ToolError(str(exc)) from None
    except CdsCompileError as exc:
        raise ToolError(exc.message, hint=exc.hint) from None


async def compiled(root: Path) -> Compiled:
    from sap_devs.toolchain.cds import compile_project

    return await _run(compile_project, root)


async def model(root: Path) -> tuple[Compiled, CdsModel | None]:
    from sap_devs.toolchain.cds import load_model

    return await _run(load_model, root)


def source_note(result: Compiled) -> str:
    how = "from the cache (no model file changed)" if result.cached else f"in {result.seconds:.1f} s"
    sandbox = " under Node's permission model" if result.sandboxed else ""
    note = (
        f"Compiled {len(result.files)} model file(s) with @sap/cds-compiler {result.compiler_version}{sandbox} {how}."
    )
    if result.notes:
        note += " Note: " + "; ".join(result.notes) + "."
    return note
