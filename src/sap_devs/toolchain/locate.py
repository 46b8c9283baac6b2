"""Where the toolchain lives and where its npm packages are."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from sap_devs.core.paths import data_dir
from sap_devs.toolchain.components import component_of
from sap_devs.toolchain.errors import ToolchainMissing

# npm's own rule for package names, which also keeps a name from climbing out of node_modules
_NPM_NAME = re.compile(r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")


def toolchain_dir() -> Path:
    """The toolchain folder: ``SAP_DEVS_TOOLCHAIN_DIR``, else ``toolchain/`` in sap-devs' data folder."""
    override = os.environ.get("SAP_DEVS_TOOLCHAIN_DIR")
    return Path(override).expanduser() if override else data_dir() / "toolchain"


def install_command(package: str) -> str:
    component = component_of(package)
    return f"sap-devs toolchain install {component.name if component else 'all'}"


def installed_version(folder: Path) -> str | None:
    """The version in ``folder/package.json``, or None when it is not a readable npm package."""
    try:
        meta = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = meta.get("version") if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def _in_project(name: str, project: Path) -> Path | None:
    root = project.resolve()
    candidate = root / "node_modules" / name
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError):  # absent, or a symlink loop
        return None
    # pnpm links into node_modules/.pnpm, still inside the project; a link out of it is not followed
    if not resolved.is_relative_to(root) or installed_version(resolved) is None:
        return None
    return resolved


def package_dir(name: str, *, project: Path | None = None) -> Path:
    """The folder of the installed npm package ``name``.

    The toolchain folder is the source; ``project`` (its ``node_modules``) is consulted first only
    by callers that read package files as text (CDS model files), never for code that runs.
    Raises ToolchainMissing with the install command when the package is in neither.
    """
    if not _NPM_NAME.match(name):
        raise ValueError(f"not an npm package name: {name!r}")
    if project is not None:
        found = _in_project(name, project)
        if found is not None:
            return found
    folder = toolchain_dir() / "node_modules" / name
    if installed_version(folder) is None:
        component = component_of(name)
        what = f"The {component.title} ({name})" if component else f"The npm package {name}"
        raise ToolchainMissing(f"{what} is not installed: run `{install_command(name)}`.")
    return folder
