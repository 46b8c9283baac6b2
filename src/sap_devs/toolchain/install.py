"""``sap-devs toolchain install | status | remove``: pinned npm packages in sap-devs' toolchain folder.

An install never edits the live folder: npm installs the whole wanted set into a staging folder
beside it, which replaces the old one only when npm succeeded, so a failed or offline install leaves
the working toolchain as it was. The folder carries a package.json named ``sap-devs-toolchain``;
``remove`` refuses to delete a folder without it (SAP_DEVS_TOOLCHAIN_DIR may point anywhere).
"""

from __future__ import annotations

import json
import re
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import atomic_write_text
from sap_devs.toolchain.components import COMPONENTS, NODE_VERSION, Component
from sap_devs.toolchain.errors import ToolchainMissing
from sap_devs.toolchain.locate import installed_version, toolchain_dir
from sap_devs.toolchain.node import NodeCandidate, candidates
from sap_devs.toolchain.npm import node_platform_package, run_npm

MARKER_NAME = "sap-devs-toolchain"
NODE = "node"
ALL = "all"
NPM_TIMEOUT = 1800.0
_OFFLINE = re.compile(r"\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b")
_FETCH = re.compile(r"\bhttp fetch GET (\d{3})\b")

Progress = Callable[[str], None]


class InstallError(SapDevsError):
    """npm could not install the wanted set; the toolchain folder is unchanged."""


class ConsentRequired(SapDevsError):
    """A component is under a licence the user has not accepted yet."""


@dataclass(frozen=True)
class PackageState:
    name: str
    pinned: str
    installed: str | None

    @property
    def state(self) -> str:
        if self.installed is None:
            return "missing"
        return "ok" if self.installed == self.pinned else "other version"


@dataclass(frozen=True)
class ComponentState:
    component: Component
    packages: list[PackageState]
    node: NodeCandidate | None  # the Node it would run on

    @property
    def state(self) -> str:
        states = {p.state for p in self.packages}
        if states == {"missing"}:
            return "missing"
        if states != {"ok"}:
            return "incomplete" if "missing" in states else "other version"
        return "ok" if self.node is not None else "no node"


@dataclass(frozen=True)
class Status:
    folder: Path
    components: list[ComponentState]
    nodes: list[NodeCandidate]
    node_package: PackageState


def _pinned_node() -> dict[str, str]:
    return {node_platform_package(): NODE_VERSION}


def _manifest(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _first_node(minimum: tuple[int, int], nodes: list[NodeCandidate]) -> NodeCandidate | None:
    for candidate in nodes:
        if candidate.version is not None and candidate.version[:2] >= minimum:
            return candidate
    return None


def status() -> Status:
    folder = toolchain_dir()
    nodes = candidates()
    states = []
    for component in COMPONENTS.values():
        packages = [
            PackageState(name, pin, installed_version(folder / "node_modules" / name))
            for name, pin in component.packages.items()
        ]
        states.append(ComponentState(component, packages, _first_node(component.minimum_node, nodes)))
    try:
        (node_name, node_pin), *_ = _pinned_node().items()
        node_state = PackageState(node_name, node_pin, installed_version(folder / "node_modules" / node_name))
    except ToolchainMissing:
        node_state = PackageState("node", NODE_VERSION, None)
    return Status(folder, states, nodes, node_state)


def parse_targets(names: list[str]) -> list[str]:
    """Component names from the command line; empty or ``all`` means every component."""
    wanted: list[str] = []
    for name in names or [ALL]:
        name = name.strip().lower()
        if name == ALL:
            wanted += [c for c in COMPONENTS if c not in wanted]
        elif name in COMPONENTS or name == NODE:
            if name not in wanted:
                wanted.append(name)
        else:
            known = ", ".join([*COMPONENTS, NODE, ALL])
            raise SapDevsError(f"Unknown toolchain component {name!r}: choose from {known}.")
    return wanted


def needs_consent(targets: list[str]) -> list[Component]:
    return [COMPONENTS[t] for t in targets if t in COMPONENTS and COMPONENTS[t].needs_consent]


def _installed_components(folder: Path) -> list[str]:
    deps = (_manifest(folder) or {}).get("dependencies") or {}
    kept = [name for name, c in COMPONENTS.items() if all(p in deps for p in c.packages)]
    if any(p.startswith("node-") for p in deps):
        kept.append(NODE)
    return kept


def _needs_node(targets: list[str]) -> bool:
    """Whether the toolchain must bring its own Node: no Node on this machine is new enough for a target."""
    minimum = max((COMPONENTS[t].minimum_node for t in targets if t in COMPONENTS), default=(0, 0))
    others = [c for c in candidates() if c.source != "toolchain"]
    return _first_node(minimum, others) is None


@dataclass
class InstallResult:
    folder: Path
    installed: dict[str, str] = field(default_factory=dict)  # package -> version
    seconds: float = 0.0


def install(
    targets: list[str],
    *,
    accepted: bool,
    progress: Progress = lambda _line: None,
    registry: str | None = None,
    timeout: float = NPM_TIMEOUT,
) -> InstallResult:
    """Install ``targets`` (component names, or ``node``) next to what is installed already."""
    import time

    started = time.monotonic()
    targets = parse_targets(targets)
    unaccepted = needs_consent(targets) if not accepted else []
    if unaccepted:
        raise ConsentRequired(
            "Not installed: " + "; ".join(f"{c.name} is under the {c.licence}" for c in unaccepted) + ".",
            hint="Accept the licence when asked, or pass --yes.",
        )
    folder = toolchain_dir()
    existing = _manifest(folder)
    if existing is not None and existing.get("name") != MARKER_NAME:
        raise InstallError(f"{folder} holds a package.json that sap-devs did not write; not touching it.")
    wanted = list(dict.fromkeys([*_installed_components(folder), *targets]))
    if NODE not in wanted and _needs_node(wanted):
        progress(f"No Node.js on this machine is new enough; adding Node {NODE_VERSION} from npm to the toolchain.")
        wanted.append(NODE)
    deps: dict[str, str] = {}
    for name in wanted:
        deps.update(_pinned_node() if name == NODE else COMPONENTS[name].packages)
    for name, version in deps.items():
        progress(f"  {name}@{version}")
    staging = folder.parent / f".{folder.name}.staging-{uuid.uuid4().hex[:8]}"
    staging.mkdir(parents=True)
    try:
        manifest = {
            "name": MARKER_NAME,
            "private": True,
            "description": "SAP's Node tools installed by `sap-devs toolchain install`; remove with `sap-devs toolchain remove`.",
            "dependencies": dict(sorted(deps.items())),
        }
        atomic_write_text(staging / "package.json", json.dumps(manifest, indent=2) + "\n")
        args = ["install", "--ignore-scripts", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"]
        args += ["--loglevel=http", "--no-progress"]
        # npm waits up to a minute between retries by default: an offline machine would wait minutes to hear it
        args += ["--fetch-retries=2", "--fetch-retry-mintimeout=1000", "--fetch-retry-maxtimeout=5000"]
        if registry:
            args.append(f"--registry={registry}")
        fetched = 0

        def on_line(line: str) -> None:
            nonlocal fetched
            if _FETCH.search(line):
                fetched += 1
                if fetched % 25 == 0:
                    progress(f"  fetched {fetched} files from the registry ...")
            elif line.startswith(("added ", "changed ", "up to date")):
                progress(f"  npm: {line}")

        progress(f"Running npm install in a staging folder beside {folder} ...")
        code, tail = run_npm(args, cwd=staging, timeout=timeout, on_line=on_line)
        if code != 0:
            raise _install_failure(tail, deps, folder, registry)
        found = {name: installed_version(staging / "node_modules" / name) for name in deps}
        wrong = {n: v for n, v in found.items() if v != deps[n]}
        if wrong:
            raise InstallError(
                "npm finished but left "
                + ", ".join(f"{n} at {v or 'nothing'} (wanted {deps[n]})" for n, v in wrong.items())
                + f"; {folder} is unchanged."
            )
        _swap(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return InstallResult(folder, {n: v for n, v in found.items() if v}, time.monotonic() - started)


def _install_failure(tail: list[str], deps: dict[str, str], folder: Path, registry: str | None) -> InstallError:
    text = "\n".join(tail)
    missing = ", ".join(f"{n}@{v}" for n, v in deps.items() if installed_version(folder / "node_modules" / n) != v)
    offline = _OFFLINE.search(text)
    where = registry or "the npm registry"
    if offline:
        return InstallError(
            f"Offline: npm could not reach {where} ({offline[1]}). Still missing: {missing or 'nothing'}.",
            hint=f"{folder} is unchanged; run the command again when the registry is reachable.",
        )
    last = next(
        (line for line in reversed(tail) if "ERR!" in line and line.strip() != "npm ERR!"), tail[-1] if tail else ""
    )
    return InstallError(
        f"npm install failed: {last.strip()[:300]}. Still missing: {missing or 'nothing'}.",
        hint=f"{folder} is unchanged.",
    )


def _swap(staging: Path, folder: Path) -> None:
    old = folder.parent / f".{folder.name}.old-{uuid.uuid4().hex[:8]}"
    if folder.exists():
        folder.rename(old)
    try:
        staging.rename(folder)
    except OSError:
        if old.exists():
            old.rename(folder)
        raise
    shutil.rmtree(old, ignore_errors=True)


def remove(targets: list[str], *, progress: Progress = lambda _line: None) -> list[str]:
    """Remove components (or the whole folder for ``all``); returns the npm packages removed."""
    targets = parse_targets(targets)
    folder = toolchain_dir()
    manifest = _manifest(folder)
    if manifest is None:
        if folder.exists() and any(folder.iterdir()):
            raise SapDevsError(f"{folder} has no toolchain package.json; not deleting a folder sap-devs did not make.")
        return []
    if manifest.get("name") != MARKER_NAME:
        raise SapDevsError(f"{folder} holds a package.json that sap-devs did not write; not deleting it.")
    deps: dict[str, str] = dict(manifest.get("dependencies") or {})
    everything = set(COMPONENTS) | {NODE}
    if set(targets) >= set(COMPONENTS) or not set(_installed_components(folder)) - set(targets):
        shutil.rmtree(folder)
        progress(f"Removed {folder}")
        return sorted(deps)
    drop: list[str] = []
    for name in targets:
        if name not in everything:
            continue
        drop += [p for p in deps if (p.startswith("node-") if name == NODE else p in COMPONENTS[name].packages)]
    if not drop:
        return []
    code, tail = run_npm(
        ["uninstall", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", *drop], cwd=folder, timeout=600
    )
    if code != 0:
        raise SapDevsError(f"npm uninstall failed: {(tail[-1] if tail else '').strip()[:300]}")
    progress(f"Removed {', '.join(drop)} from {folder}")
    return drop
