"""Compile a CAP project's CDS model with SAP's ``@sap/cds-compiler``, bounded, cached and without
running anything of the project.

``js/cds_compile.mjs`` drives the toolchain's compiler through its API with a file reader sap-devs
controls (model files as text, inside the project and the CDS toolchain, size-capped); the roots
come from ``cds_roots`` and ``using from '@sap/cds/...'`` resolves to the project's ``@sap/cds`` or the
toolchain's. One compile answers both ``search_cds_model`` (the CSN) and ``check_cds`` (the messages)
and is cached per project, keyed by the size and modification time of every file it read, the names
it looked for and did not find, the root files and the configuration.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sap_devs.core import cache
from sap_devs.toolchain.cds_model import CdsModel, build_model
from sap_devs.toolchain.cds_roots import ModelRoots, model_roots, project_config
from sap_devs.toolchain.errors import ToolchainFailed

SCRIPT = Path(__file__).with_name("js") / "cds_compile.mjs"
COMPILER = "@sap/cds-compiler"
CDS = "@sap/cds"
NODE_MINIMUM = (22, 0)  # cds-compiler 7 needs Node 22
CACHE_FORMAT = 1


class CdsCompileError(ToolchainFailed):
    """The compiler gave no answer: it ran out of time or memory, crashed, or printed too much."""


@dataclass(frozen=True)
class Limits:
    timeout: float = 60.0
    max_file_bytes: int = 8 << 20
    """One model file; CAP models are kilobytes, the largest generated ones a few megabytes."""
    max_total_bytes: int = 64 << 20
    max_files: int = 5_000
    max_output: int = 96 << 20
    """The compiled CSN (JSON) the driver may print."""


LIMITS = Limits()


@dataclass(frozen=True)
class CompilerMessage:
    severity: str
    message: str
    message_id: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    formatted: str | None = None
    """The message as ``cdsc`` prints it: ``file:line:col: Severity[id]: text (in ...)``."""
    origin: str = "cds-compiler"
    """``cds-compiler``, or ``sap-devs`` for a file sap-devs refused to read."""


@dataclass
class Compiled:
    root: Path
    csn: dict[str, Any] | None
    messages: list[CompilerMessage]
    files: list[str]
    """The model files the compiler read, as shown (relative to the root, ``@sap/cds/...``)."""
    roots: list[str]
    compiler_version: str
    seconds: float
    cached: bool
    config: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    sandboxed: bool = False
    """The compiler ran under Node's permission model (reads only the project and the toolchain)."""

    @property
    def errors(self) -> list[CompilerMessage]:
        return [m for m in self.messages if m.severity == "Error"]


def _version(package: Path) -> str:
    try:
        data = json.loads((package / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "unknown"
    return str(data.get("version", "unknown")) if isinstance(data, dict) else "unknown"


def _cds_home(root: Path) -> Path | None:
    from sap_devs.toolchain import locate
    from sap_devs.toolchain.errors import ToolchainMissing

    try:
        return locate.package_dir(CDS, project=root)
    except ToolchainMissing:
        return None  # only `using from '@sap/cds/...'` needs it; the compiler says which name is missing


class _Shown:
    """The compiler's file names (relative to the root) as the user reads them."""

    def __init__(self, root: Path, cds_home: Path | None) -> None:
        self.root = root
        self.cds_home = cds_home.resolve() if cds_home else None

    def __call__(self, name: str) -> str:
        path = Path(os.path.normpath(self.root / name))  # not resolve(): the name may be a link loop
        if path.is_relative_to(self.root):
            return path.relative_to(self.root).as_posix()
        if self.cds_home is not None and path.is_relative_to(self.cds_home):
            return f"{CDS}/{path.relative_to(self.cds_home).as_posix()}"
        return str(path)


def _stamp(path: str) -> list[int] | None:
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _cache_name(root: Path) -> str:
    return "cds-models/" + hashlib.sha256(str(root).encode()).hexdigest()[:32]


def _identity(compiler: Path, cds_home: Path | None) -> str:
    script = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()[:16]
    return f"{CACHE_FORMAT}|{compiler}|{_version(compiler)}|{cds_home}|{script}"


def _valid(entry: Any, identity: str, roots: ModelRoots) -> bool:
    if not isinstance(entry, dict) or entry.get("identity") != identity or not isinstance(entry.get("result"), dict):
        return False
    if entry.get("roots") != [str(f) for f in roots.files]:
        return False
    if entry.get("config") != {k: list(v) if v else None for k, v in roots.config.items()}:
        return False
    files = entry.get("files")
    probes = entry.get("probes")
    if not isinstance(files, dict) or not isinstance(probes, list):
        return False
    if any(_stamp(path) != stamp for path, stamp in files.items()):
        return False
    return not any(isinstance(p, str) and Path(p).exists() for p in probes)


def _message(raw: dict[str, Any], shown: _Shown) -> CompilerMessage:
    def num(key: str) -> int | None:
        value = raw.get(key)
        return value if isinstance(value, int) else None

    file = raw.get("file") if isinstance(raw.get("file"), str) else None
    return CompilerMessage(
        severity=str(raw.get("severity", "Error")),
        message=str(raw.get("message", "")),
        message_id=raw.get("messageId") if isinstance(raw.get("messageId"), str) else None,
        file=shown(file) if file else None,
        line=num("line"),
        column=num("col"),
        end_line=num("endLine"),
        end_column=num("endCol"),
        formatted=raw.get("formatted") if isinstance(raw.get("formatted"), str) else None,
        origin=str(raw.get("origin", "cds-compiler")),
    )


def _allowed(root: Path, cds_home: Path | None) -> list[str]:
    """Where model files may be read: the project, its npm workspace root (a monorepo's packages
    reach each other through node_modules links), and the @sap/cds the model uses."""
    allowed = [str(root)]
    for parent in root.parents:
        try:
            data = json.loads((parent / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("workspaces"):
            allowed.append(str(parent))
        break  # only the nearest package.json above can be the workspace root
    if cds_home is not None:
        allowed.append(str(cds_home))
    return allowed


def _run(
    root: Path, roots: ModelRoots, compiler: Path, cds_home: Path | None, allowed: list[str], limits: Limits
) -> dict[str, Any]:
    from sap_devs.toolchain.runner import run_node

    request = {
        "compiler": str(compiler),
        "root": str(root),
        "files": [str(f) for f in roots.files],
        "cdsHome": str(cds_home) if cds_home else None,
        "allowed": allowed,
        "maxFileBytes": limits.max_file_bytes,
        "maxTotalBytes": limits.max_total_bytes,
        "maxFiles": limits.max_files,
    }
    result = run_node(
        SCRIPT,
        [],
        cwd=SCRIPT.parent,
        timeout=limits.timeout,
        max_output=limits.max_output,
        stdin=json.dumps(request).encode(),
        minimum_node=NODE_MINIMUM,
        allow_read=[compiler, *(Path(p) for p in allowed)],  # Node's permission model, where it has one
    )
    if result.timed_out:
        raise CdsCompileError(
            f"Compiling the CDS model of {root} took longer than {limits.timeout:g} s and was stopped.",
            hint="Check the model for very large or generated files; `cds compile '*'` in the project shows "
            "whether the compiler itself is slow on it.",
        )
    if result.truncated:
        raise CdsCompileError(
            f"The compiled CDS model of {root} is larger than {limits.max_output >> 20} MB; sap-devs stopped reading it.",
            hint="Search a smaller part of the model, e.g. the srv/ folder of one service.",
        )
    if result.returncode != 0:
        tail = [line for line in result.stderr.strip().splitlines() if line.strip()][-1:] or ["no output"]
        if "heap out of memory" in result.stderr:
            tail = ["it ran out of memory"]
        raise CdsCompileError(
            f"The CDS compiler stopped with exit code {result.returncode}: {tail[0][:300]}",
            hint="Run `sap-devs toolchain status` to check the toolchain; report the message if it persists.",
        )
    try:
        data = json.loads(result.stdout)
    except (ValueError, RecursionError) as exc:
        raise CdsCompileError(
            f"The CDS compiler's answer could not be read ({type(exc).__name__}).",
            hint="Run `sap-devs toolchain status`; a model nested extremely deeply can cause this too.",
        ) from None
    if not isinstance(data, dict):
        raise CdsCompileError("The CDS compiler's answer was not a JSON object.")
    data["seconds"] = result.seconds
    data["sandboxed"] = result.sandboxed
    return data


_locks: dict[Path, threading.Lock] = {}
_locks_guard = threading.Lock()


def _lock(root: Path) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(root, threading.Lock())


def compile_project(root: Path, *, limits: Limits = LIMITS, use_cache: bool = True) -> Compiled:
    """The project's model compiled (or from the cache when none of its files changed).

    Raises ``ToolchainMissing`` (one line naming the install command) and ``CdsCompileError``.
    """
    from sap_devs.toolchain import locate

    root = root.resolve()
    compiler = locate.package_dir(COMPILER)  # a missing toolchain is said first
    cds_home = _cds_home(root)
    shown = _Shown(root, cds_home)
    with _lock(root):  # two calls on one project compile once
        started = time.perf_counter()
        allowed = _allowed(root, cds_home)
        roots = model_roots(root, cds_home=cds_home, allowed=[Path(p) for p in allowed])
        base = Compiled(
            root=root,
            csn=None,
            messages=[],
            files=[],
            roots=[shown(str(f)) for f in roots.files],
            compiler_version=_version(compiler),
            seconds=0.0,
            cached=False,
            config=project_config(root, []),
            notes=list(roots.notes),
        )
        if not roots.files:
            return base
        identity = _identity(compiler, cds_home)
        name = _cache_name(root)
        hit = cache.read(name, expect=dict) if use_cache else None
        if hit is not None and _valid(hit.data, identity, roots):
            data = hit.data["result"]
            base.cached = True
        else:
            data = _run(root, roots, compiler, cds_home, allowed, limits)
            files = {
                str(f["path"]): [int(f["size"]), int(f["mtime_ns"])]
                for f in data.get("files", [])
                if isinstance(f, dict)
            }
            entry = {
                "identity": identity,
                "roots": [str(f) for f in roots.files],
                "config": {k: list(v) if v else None for k, v in roots.config.items()},
                "files": files,
                "probes": [p for p in data.get("probes", []) if isinstance(p, str)],
                "result": {
                    "compiler": data.get("compiler"),
                    "messages": data.get("messages", []),
                    "csn": data.get("csn"),
                    "files": list(files),
                    "sandboxed": bool(data.get("sandboxed")),
                },
            }
            if use_cache:
                note = cache.save(name, entry)
                if note:
                    base.notes.append(note)
            data = entry["result"]
        base.csn = data.get("csn") if isinstance(data.get("csn"), dict) else None
        base.messages = [_message(m, shown) for m in data.get("messages", []) if isinstance(m, dict)]
        base.files = [shown(f) for f in data.get("files", []) if isinstance(f, str)]
        base.sandboxed = data.get("sandboxed") is True
        if isinstance(data.get("compiler"), str):
            base.compiler_version = data["compiler"]
        base.seconds = time.perf_counter() - started
        return base


_models: dict[Path, tuple[dict[str, Any], CdsModel]] = {}


def load_model(root: Path, *, limits: Limits = LIMITS) -> tuple[Compiled, CdsModel | None]:
    """The compiled project and its searchable model (None when the model has errors); the model is
    built once per compiled CSN and kept while it stays current."""
    compiled = compile_project(root, limits=limits)
    if compiled.csn is None:
        return compiled, None
    memo = _models.get(compiled.root)
    if memo is not None and memo[0] is compiled.csn:
        return compiled, memo[1]
    model = build_model(compiled.csn, config=compiled.config, shown=_Shown(compiled.root, _cds_home(compiled.root)))
    _models[compiled.root] = (compiled.csn, model)
    return compiled, model
