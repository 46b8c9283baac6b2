"""SAP's own Node tools as test parts: where they live, and a loud skip when they cannot be had.

``.ci/run`` installs ``tests/sap_tools/package.json`` into ``SAP_DEVS_TEST_SAP_TOOLS`` (default
``~/.cache/sap-devs-test-sap-tools``), cached between runs. A test that needs one of them calls
``sap_tool_path`` (a package folder) or ``sap_tools_node`` (the pinned Node 22); when the cache does
not hold it and npm cannot fill it, the test is skipped with a warning and a line on stderr, never
silently.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

MANIFEST = Path(__file__).with_name("package.json")


def cache_dir() -> Path:
    override = os.environ.get("SAP_DEVS_TEST_SAP_TOOLS")
    return Path(override).expanduser() if override else Path.home() / ".cache" / "sap-devs-test-sap-tools"


def pinned() -> dict[str, str]:
    return dict(json.loads(MANIFEST.read_text(encoding="utf-8"))["dependencies"])


def skip_loudly(reason: str) -> None:
    message = f"REAL SAP TOOL TESTS SKIPPED: {reason}"
    warnings.warn(message, stacklevel=2)
    print(f"\n*** {message} ***", file=sys.__stderr__)
    pytest.skip(message)


def _installed(folder: Path, package: str) -> bool:
    meta = folder / "node_modules" / package / "package.json"
    try:
        return json.loads(meta.read_text(encoding="utf-8")).get("version") == pinned()[package]
    except (OSError, ValueError):
        return False


def ensure_installed(packages: tuple[str, ...]) -> Path:
    """The cache folder, with ``packages`` (names from package.json) installed at their pinned versions."""
    if os.environ.get("SAP_DEVS_SKIP_NPM_TESTS", "") not in ("", "0"):
        skip_loudly("SAP_DEVS_SKIP_NPM_TESTS is set: SAP's npm tools are neither installed nor used")
    folder = cache_dir()
    missing = [p for p in packages if not _installed(folder, p)]
    if not missing:
        return folder
    npm = shutil.which("npm")
    if npm is None:
        skip_loudly(f"npm is not installed and {folder} lacks {', '.join(missing)}; run .ci/run")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MANIFEST, folder / "package.json")
    try:
        proc = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder)],
            capture_output=True,
            text=True,
            timeout=900,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        skip_loudly(f"npm install into {folder} failed ({type(exc).__name__}; registry unreachable?)")
    still = [p for p in packages if not _installed(folder, p)]
    if proc.returncode != 0 or still:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        skip_loudly(f"npm could not install {', '.join(still or missing)} into {folder}: {' | '.join(tail)}")
    return folder


def sap_tool_path(package: str) -> Path:
    """The installed package's folder (``node_modules/<package>``), installing the cache when needed."""
    return ensure_installed((package,)) / "node_modules" / package


def sap_tools_node() -> Path:
    """The pinned Node 22 binary of the cache (SAP's tools need Node 22; the machine's may be older)."""
    folder = ensure_installed(("node",))
    return folder / "node_modules" / ".bin" / "node"
