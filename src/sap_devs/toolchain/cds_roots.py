"""Which files make up a CAP project's model: the roots ``cds.env`` resolves by default, found without
running anything of the project.

CAP's own loader (``cds.load('*')`` in ``@sap/cds``) reads ``.cdsrc.js`` files and the configuration of
plugins, which is code; this module reads only the data files of ``cds.env`` (``~/.cdsrc.json``, the
project's ``.cdsrc.yaml``, ``.cdsrc.json``, ``package.json`` and ``.cdsrc-private.json``, in that order,
the later winning) without running anything and follows
the rules of ``cds.resolve`` (``@sap/cds`` 10): the folders ``db/``, ``srv/``, ``app/`` and every
``app/*/`` sub-folder, ``schema`` and ``services``, then the ``model`` of every required service.
A folder stands for its ``index.csn``/``index.cds`` when it has one, else for all its ``.csn`` files
and the ``.cds`` files without a ``.csn`` of the same name, not recursively.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_FILES = (".cdsrc.yaml", ".cdsrc.json", "package.json", ".cdsrc-private.json")
"""The project's files, read in this order, the later one winning, after the user's ``~/.cdsrc.json``
(``cds.env`` in @sap/cds 10, lib/env/cds-env.js; its ``.cdsrc.js`` files are code and never read)."""
HOME_CONFIG = ".cdsrc.json"
MAX_CONFIG_BYTES = 1 << 20
MAX_FOLDER_ENTRIES = 10_000
DEFAULT_FOLDERS = {"db": "db/", "srv": "srv/", "app": "app/", "apps": "app/*"}
EXTRA_ROOTS = ("schema", "services")
SUFFIXES = (".csn", ".cds", "/index.csn", "/index.cds", "/csn.json")  # .csn first, as cds.resolve
PROFILES = ("development",)  # cds.env's default profile when NODE_ENV is not production

# The built-in services of @sap/cds 10 that bring a model (lib/env/cds-requires.js): ``queue`` is on by
# default and adds the outbox entity. A string is another preset's name.
DEFAULT_REQUIRES: dict[str, Any] = {"queue": True}
PRESETS: dict[str, Any] = {
    "queue": "persistent-queue",
    "persistent-queue": {"model": "@sap/cds/srv/outbox"},
    "in-memory-queue": {},
    "persistent-outbox": "persistent-queue",
    "in-memory-outbox": "in-memory-queue",
    "ucl": {"model": "@sap/cds/srv/ucl-service.cds"},
}


@dataclass
class ModelRoots:
    root: Path
    files: list[Path] = field(default_factory=list)
    """The root model files, absolute and resolved, in the order cds.resolve gives them."""
    config: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    """The configuration files read (path -> size, mtime_ns; None when absent), for the cache key."""
    notes: list[str] = field(default_factory=list)
    """What could not be read or resolved, in words for the user."""


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def _read_data(path: Path, notes: list[str]) -> dict[str, Any]:
    """A JSON or YAML config file (YAML without alias bombs), ``{}`` when absent or unreadable."""
    from sap_devs.core import safe_yaml

    try:
        if not path.is_file():
            return {}
        if path.stat().st_size > MAX_CONFIG_BYTES:
            notes.append(f"{path.name} is larger than {MAX_CONFIG_BYTES >> 20} MB and was not read")
            return {}
        text = path.read_text(encoding="utf-8")
        data = safe_yaml.load(text) if path.suffix in (".yaml", ".yml") else json.loads(text)
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, safe_yaml.yaml.YAMLError) as exc:
        notes.append(f"{path.name} could not be read ({type(exc).__name__}); its cds settings were ignored")
        return {}
    return data if isinstance(data, dict) else {}


def home_config() -> Path | None:
    """The user's own ``.cdsrc.json``, where ``cds.env`` looks: ``CDS_USER_HOME``, else the home folder."""
    try:
        return Path(os.environ.get("CDS_USER_HOME") or Path.home()) / HOME_CONFIG
    except RuntimeError:  # no HOME and no passwd entry: there is no user file to read
        return None


def config_files(root: Path) -> list[Path]:
    """Every file ``project_config`` reads, in its order."""
    home = home_config()
    return [*([home] if home is not None else []), *(root / name for name in CONFIG_FILES)]


def _cds_part(path: Path, data: dict[str, Any]) -> Any:
    """What of a file is cds configuration: package.json's ``cds``; in the others ``cds`` when they
    have one, else all of it (cds.env's ``x.cds || x``)."""
    if path.name == "package.json":
        return data.get("cds")
    return data.get("cds") or data


def _merge(into: dict[str, Any], src: dict[str, Any], profiles: Iterable[str]) -> dict[str, Any]:
    """cds.env's merge: objects merge deeply, other values replace; a ``[profile]`` key applies its
    content at that level when the profile is active, after the plain keys."""
    active = set(profiles)
    later: list[dict[str, Any]] = []
    for key, value in src.items():
        if key.startswith("[") and key.endswith("]"):
            if key[1:-1] in active and isinstance(value, dict):
                later.append(value)
            continue
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value, active)
        elif isinstance(value, dict):
            into[key] = _merge({}, value, active)
        else:
            into[key] = value
    for value in later:
        _merge(into, value, active)
    return into


def project_config(root: Path, notes: list[str]) -> dict[str, Any]:
    """The project's merged ``cds`` settings, from the files ``config_files`` names, the later winning."""
    conf: dict[str, Any] = {}
    for path in config_files(root):
        part = _cds_part(path, _read_data(path, notes))
        if isinstance(part, dict):
            _merge(conf, part, PROFILES)
    if (root / ".cdsrc.js").exists():
        notes.append(".cdsrc.js is JavaScript and was not run; settings only it makes are not applied")
    return conf


def _preset_model(key: str, value: Any, depth: int = 0) -> list[str]:
    """The model(s) a ``cds.requires`` entry brings, following preset names like cds.env links them."""
    if depth > 8 or not value:
        return []
    if value is True:
        value = PRESETS.get(key)
        return _preset_model(key, value, depth + 1) if value is not None else []
    if isinstance(value, str):
        preset = PRESETS.get(value, PRESETS.get(f"{value}-{key}", PRESETS.get(f"{key}-{value}")))
        return _preset_model(value, preset, depth + 1) if preset is not None else []
    if not isinstance(value, dict):
        return []
    model = value.get("model")
    if isinstance(model, str):
        return [model]
    if isinstance(model, list):
        return [m for m in model if isinstance(m, str)]
    kind = value.get("kind")
    if isinstance(kind, str) and kind != key:
        preset = PRESETS.get(kind, PRESETS.get(f"{kind}-{key}", PRESETS.get(f"{key}-{kind}")))
        return _preset_model(kind, preset, depth + 1) if preset is not None else []
    return []


def required_models(conf: dict[str, Any]) -> list[str]:
    requires = dict(DEFAULT_REQUIRES)
    own = conf.get("requires")
    if isinstance(own, dict):
        requires.update(own)
    models: list[str] = []
    for key, value in requires.items():
        if key == "kinds":
            continue
        for model in _preset_model(key, value):
            if model not in models:
                models.append(model)
    return models


def root_refs(conf: dict[str, Any]) -> list[str]:
    folders = dict(DEFAULT_FOLDERS)
    own = conf.get("folders")
    if isinstance(own, dict):
        folders.update({k: v for k, v in own.items() if isinstance(v, str)})
    return list(folders.values()) + list(EXTRA_ROOTS)


class _Resolver:
    def __init__(self, root: Path, cds_home: Path | None, notes: list[str]) -> None:
        self.root = root
        self.cds_home = cds_home
        self.notes = notes
        self._dirs: list[Path] | None = None

    def _shown(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else str(path)

    def _module_dirs(self) -> list[Path]:
        """The root, then every node_modules folder from it upwards (as require.resolve looks)."""
        if self._dirs is None:
            self._dirs = [self.root]
            for folder in (self.root, *self.root.parents):
                try:
                    if (folder / "node_modules").is_dir():
                        self._dirs.append(folder / "node_modules")
                except OSError:
                    continue
        return self._dirs

    def _file(self, ref: str) -> Path | None:
        """``require.resolve`` for a model file: relative to the root, or a package in node_modules."""
        if ref.startswith("@sap/cds/") and self.cds_home is not None:
            candidates: Iterable[Path] = [self.cds_home / ref[len("@sap/cds/") :]]
        elif ref.startswith(("./", "../", "/")) or ref in (".", ".."):
            candidates = [self.root / ref]
        else:
            candidates = (base / ref for base in self._module_dirs())
        for candidate in candidates:
            try:
                if candidate.is_file():
                    return candidate.resolve()
            except OSError:  # a name too long, a link loop: not a model file
                continue
        return None

    def _folder(self, folder: Path) -> list[Path]:
        try:
            with os.scandir(folder) as it:
                names = []
                for n, entry in enumerate(it):
                    if n >= MAX_FOLDER_ENTRIES:
                        self.notes.append(f"{folder} has more than {MAX_FOLDER_ENTRIES} entries; the rest were skipped")
                        break
                    names.append(entry.name)
        except OSError:
            return []
        names.sort()
        found: list[Path] = []
        taken: set[str] = set()
        for suffix in (".csn", ".cds"):
            for name in names:
                if not name.endswith(suffix) or (suffix == ".cds" and name[:-4] in taken):
                    continue
                path = folder / name
                try:
                    if path.is_file():
                        found.append(path.resolve())
                        taken.add(name[:-4])
                        continue
                except (OSError, RuntimeError):
                    pass
                if not path.is_dir():
                    self.notes.append(f"{self._shown(path)} is not a regular file (a link loop, a pipe); not read")
        return found

    def single(self, ref: str) -> list[Path]:
        if not ref or ref == "--":
            return []
        if ref.endswith("/*"):
            return self._nested(ref[:-2])
        if ref.endswith((".csn", ".cds")):
            hit = self._file(ref)
            if hit is not None:
                return [hit]
        for tail in SUFFIXES:
            hit = self._file(ref + tail)
            if hit is not None:
                return [hit]
        local = self.root / ref
        try:
            if local.is_dir():
                return self._folder(local)
        except OSError:
            pass
        return []

    def _nested(self, folder: str) -> list[Path]:
        base = self.root / folder
        try:
            with os.scandir(base) as it:
                subs = sorted(e.name for _, e in zip(range(MAX_FOLDER_ENTRIES), it, strict=False) if _is_dir(e))
        except OSError:
            return []
        out: list[Path] = []
        for sub in subs:
            out.extend(self.single(f"{folder}/{sub}/"))
        return out


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a link loop is no folder
        return False


def model_roots(root: Path, *, cds_home: Path | None, allowed: list[Path] | None = None) -> ModelRoots:
    """The model files ``cds.load('*')`` would start from in ``root``, without running the project;
    a file that resolves outside ``allowed`` (default: the root and ``cds_home``) is left out, with a note."""
    result = ModelRoots(root=root)
    inside = allowed if allowed is not None else [root, *([cds_home] if cds_home else [])]
    for path in config_files(root):
        result.config[str(path)] = _stamp(path)
    conf = project_config(root, result.notes)
    resolver = _Resolver(root, cds_home, result.notes)
    seen: set[Path] = set()
    for ref in root_refs(conf):
        for path in resolver.single(ref):
            if path not in seen:
                seen.add(path)
                result.files.append(path)
    for path in list(result.files):
        if not any(path.is_relative_to(base) for base in inside):
            result.files.remove(path)
            result.notes.append(f"{path} is outside the project (through a link); not read")
    only_csn_json = len(result.files) == 1 and result.files[0].name == "csn.json"
    if not only_csn_json:
        for ref in required_models(conf):
            hits = resolver.single(ref)
            if not hits and not (cds_home is None and ref.startswith("@sap/cds/")):
                result.notes.append(f"the required model '{ref}' was not found")
            for path in hits:
                if path not in seen:
                    seen.add(path)
                    result.files.append(path)
    return result
