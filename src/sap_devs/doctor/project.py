"""What kind of SAP project a folder holds, and what in it needs attention.

Only reads files: no project code, build tool or package manager is run. The folder may be a
cloned repository with hostile content, so the walk never follows a symbolic link out of the
project, visits each real folder once (links to ``.`` or to a parent are loops), stops at fixed
budgets of folders, files, bytes, findings and seconds, and turns every unreadable entry into a
finding instead of an error.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import itertools
import json
import os
import re
import stat
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.versions import parse_version

Severity = Literal["error", "warning", "info"]
_SKIP_DIRS = frozenset({"node_modules", ".git", "gen", "dist", "target", "mta_archives", ".venv"})
_MARKERS = frozenset({"xs-app.json", "Chart.yaml", "values.yaml", "manifest.json", ".abapgit.xml", "package.json"})
_MARKERS |= {"mta.yaml", ".mta.yaml"}
_MAX_ENTRIES = 20_000  # per folder; a real project folder has a few hundred
_SCAN_DEPTH = 4  # manifest.json of app/<name>/webapp is 3 folders down; one more for monorepos
_MAX_SHOWN_PATH = 160
_MAX_NOTES = 8  # they end up in one hint line


@dataclass(frozen=True)
class Limits:
    """Budgets for one check; each one hit is named in ``ProjectReport.notes``."""

    max_dirs: int = 10_000  # ~1 s of listing; dependency and build folders are never entered
    max_files: int = 1_000
    max_file_bytes: int = 2 * 1024 * 1024  # manifests larger than this are not a real project file
    max_total_bytes: int = 64 * 1024 * 1024  # texts are kept for the whole check
    max_findings: int = 500
    max_seconds: float = 20.0


class Cancelled(Exception):
    """The caller stopped waiting; the walk stopped at its next check."""


@dataclass(frozen=True)
class Finding:
    category: str
    severity: Severity
    message: str
    fix: str | None = None
    file: str | None = None
    line: int | None = None
    """1-based line in ``file`` where the evidence is, when there is one."""


@dataclass
class Detection:
    types: list[str] = field(default_factory=list)
    cap_runtime: str | None = None
    cap_version: str | None = None
    database: str | None = None
    deployment: list[str] = field(default_factory=list)
    auth: str | None = None
    ui5_apps: list[str] = field(default_factory=list)
    abap_packages: list[str] = field(default_factory=list)


@dataclass
class ProjectReport:
    path: Path
    detection: Detection
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)
    """Budgets that were hit and links that were not followed: the result may be incomplete."""


def shorten_path(text: str, limit: int = _MAX_SHOWN_PATH) -> str:
    """A path for a message: long ones keep their start and end, which say where and what."""
    if len(text) <= limit:
        return text
    keep = (limit - 1) // 2
    return text[:keep] + "…" + text[-keep:]


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):g} MB"
    return f"{count / 1024:g} KB" if count >= 1024 else f"{count} bytes"


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


class _Reader:
    """Reads project files once within the budgets, turning unreadable or malformed ones into findings."""

    def __init__(self, root: Path, limits: Limits | None = None, cancel: threading.Event | None = None) -> None:
        self.root = root
        self.real_root = os.path.realpath(root)
        self.limits = limits or Limits()
        self.cancel = cancel
        self.deadline = time.monotonic() + self.limits.max_seconds
        self.findings: list[Finding] = []
        self.notes: list[str] = []
        self.files_read = 0
        self.bytes_read = 0
        self.dirs_visited = 0
        self.out_of_time = False
        self._texts: dict[Path, str | None] = {}
        self._parsed: dict[tuple[str, Path], Any] = {}
        self._markers: dict[str, list[Path]] | None = None
        self._warned: set[str] = set()

    # --- budgets ----------------------------------------------------------------------------

    def check(self) -> bool:
        """Raise Cancelled when the caller gave up; False once the time budget is spent."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled
        if not self.out_of_time and time.monotonic() > self.deadline:
            self.out_of_time = True
            self.note(f"stopped after {self.limits.max_seconds:g} s; later folders and files were not inspected")
        return not self.out_of_time

    def note(self, text: str) -> None:
        if text in self.notes or len(self.notes) > _MAX_NOTES:
            return
        self.notes.append(text if len(self.notes) < _MAX_NOTES else "more budgets were hit")

    def warn(self, message: str, file: str | None = None, *, severity: Severity = "warning") -> None:
        if message not in self._warned:  # one finding per path, however often the rules ask
            self._warned.add(message)
            self.findings.append(Finding("file", severity, message, file=file))

    # --- paths ------------------------------------------------------------------------------

    def rel(self, path: Path) -> str:
        """The path relative to the root (exact: rules build paths from it)."""
        try:
            return path.relative_to(self.root).as_posix() or "."
        except ValueError:
            return path.as_posix()

    def show(self, path: Path) -> str:
        """The relative path for a message."""
        return shorten_path(self.rel(path))

    def inside(self, path: Path) -> str | None:
        """The real path when ``path`` resolves inside the project, else None (never followed)."""
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            return None
        return real if _within(real, self.real_root) else None

    def _stat(self, path: Path) -> os.stat_result | None:
        real = self.inside(path)
        if real is None:
            return None
        try:
            return os.stat(real)
        except (OSError, ValueError):  # missing, unreadable parent, name too long, NUL byte
            return None

    def is_file(self, path: Path) -> bool:
        st = self._stat(path)
        return st is not None and stat.S_ISREG(st.st_mode)

    def is_dir(self, path: Path) -> bool:
        st = self._stat(path)
        return st is not None and stat.S_ISDIR(st.st_mode)

    def exists(self, path: Path) -> bool:
        return self._stat(path) is not None

    # --- files ------------------------------------------------------------------------------

    def text(self, path: Path) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: Path) -> str | None:
        if not self.check():
            return None
        try:
            os.lstat(path)
        except (OSError, ValueError):
            return None  # absent (the usual case) or not reachable: nothing to read
        real = self.inside(path)
        if real is None:
            self.warn(
                f"{self.show(path)} is a symbolic link to a file outside the project; it was not read.", self.rel(path)
            )
            return None
        try:
            st = os.stat(real)
        except OSError as exc:
            self.warn(f"{self.show(path)} cannot be read: {exc.strerror or exc}.", self.rel(path))
            return None
        if not stat.S_ISREG(st.st_mode):
            return None  # a folder, pipe or device under a file's name is not a project file
        if self.files_read >= self.limits.max_files:
            self.note(f"read the first {self.limits.max_files} files only")
            return None
        room = self.limits.max_total_bytes - self.bytes_read
        if room <= 0:
            self.note(f"read the first {_size(self.limits.max_total_bytes)} of files only")
            return None
        self.files_read += 1
        try:
            with open(real, "rb") as handle:
                raw = handle.read(min(self.limits.max_file_bytes, room) + 1)
        except OSError as exc:
            self.warn(f"{self.show(path)} cannot be read: {exc.strerror or exc}.", self.rel(path))
            return None
        self.bytes_read += len(raw)
        if len(raw) > self.limits.max_file_bytes:
            limit = _size(self.limits.max_file_bytes)
            self.warn(f"{self.show(path)} is larger than {limit}, too large to inspect.", self.rel(path))
            return None
        if len(raw) > room:
            self.note(f"read the first {_size(self.limits.max_total_bytes)} of files only")
            return None
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            self.warn(f"{self.show(path)} is not UTF-8 text ({exc.reason}); it was not inspected.", self.rel(path))
            return None

    def json(self, path: Path) -> dict[str, Any] | None:
        """The JSON object in ``path``, parsed once (a syntax error is one finding, however often asked)."""
        key = ("json", path)
        if key not in self._parsed:
            self._parsed[key] = self._json(path)
        return self._parsed[key]  # type: ignore[no-any-return]

    def _json(self, path: Path) -> dict[str, Any] | None:
        raw = self.text(path)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # ValueError: also numbers beyond Python's digit limit
            where = (
                f" (line {exc.lineno}, column {exc.colno}: {exc.msg})" if isinstance(exc, json.JSONDecodeError) else ""
            )
            self.findings.append(
                Finding(
                    "syntax",
                    "error",
                    f"{self.show(path)} is not valid JSON{where}.",
                    fix=f"Fix the JSON syntax in {self.show(path)}; tools reading it will fail until then.",
                    file=self.rel(path),
                )
            )
            return None
        if not isinstance(data, dict):
            self.findings.append(Finding("syntax", "error", f"{self.show(path)} should hold a JSON object."))
            return None
        return data

    def yaml(self, path: Path) -> Any:
        """The YAML document in ``path``, parsed once."""
        key = ("yaml", path)
        if key not in self._parsed:
            self._parsed[key] = self._yaml(path)
        return self._parsed[key]

    def _yaml(self, path: Path) -> Any:
        raw = self.text(path)
        if raw is None:
            return None
        import yaml

        from sap_devs.core import safe_yaml

        try:
            return safe_yaml.load(raw)
        except (yaml.YAMLError, ValueError) as exc:  # ValueError: PyYAML's date and number constructors
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark else ""
            why = f": {exc.problem}" if isinstance(exc, safe_yaml.YamlBombError) else ""
            self.findings.append(
                Finding(
                    "syntax",
                    "error",
                    f"{self.show(path)} is not valid YAML{where}{why}.",
                    fix=f"Fix the YAML syntax in {self.show(path)}.",
                    file=self.rel(path),
                )
            )
            return None

    # --- the folder walk --------------------------------------------------------------------

    def markers(self) -> dict[str, list[Path]]:
        """Marker files (manifest.json, xs-app.json, Chart.yaml, .abapgit.xml) found by one bounded walk."""
        if self._markers is None:
            self._markers = self._scan()
        return self._markers

    def _scan(self) -> dict[str, list[Path]]:
        found: dict[str, list[Path]] = {name: [] for name in _MARKERS}
        try:
            root_stat = os.stat(self.real_root)
        except OSError as exc:
            self.warn(f"The project folder cannot be read: {exc.strerror or exc}.")
            return found
        seen = {(root_stat.st_dev, root_stat.st_ino)}
        outside: list[str] = []  # the first few, for the note
        outside_count = 0
        # breadth first: when a budget runs out, the shallow folders (where projects keep their
        # markers) have been seen
        queue: deque[tuple[Path, int]] = deque([(self.root, 0)])
        while queue:
            if not self.check():
                break
            if self.dirs_visited >= self.limits.max_dirs:
                self.note(f"visited the first {self.limits.max_dirs} folders only")
                break
            folder, level = queue.popleft()
            self.dirs_visited += 1
            try:
                with os.scandir(folder) as listing:
                    entries = list(itertools.islice(listing, _MAX_ENTRIES + 1))
            except OSError as exc:
                self.warn(
                    f"{self.show(folder)} cannot be listed ({exc.strerror or exc}); it was not inspected.",
                    self.rel(folder),
                )
                continue
            if len(entries) > _MAX_ENTRIES:
                self.note(f"looked at {_MAX_ENTRIES} entries of {self.show(folder)} only")
                entries = entries[:_MAX_ENTRIES]
            for entry in sorted(entries, key=lambda e: e.name):
                try:
                    is_dir = entry.is_dir()
                    is_link = entry.is_symlink()
                except OSError:
                    continue
                if is_dir:
                    if level >= _SCAN_DEPTH or entry.name in _SKIP_DIRS or entry.name.startswith("."):
                        continue
                    if is_link and self.inside(Path(entry.path)) is None:
                        outside_count += 1
                        if len(outside) < 3:
                            outside.append(self.show(Path(entry.path)))
                        continue
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    if (st.st_dev, st.st_ino) in seen:
                        continue  # a link back to a folder already walked (., a parent, a sibling)
                    seen.add((st.st_dev, st.st_ino))
                    queue.append((Path(entry.path), level + 1))
                elif entry.name in _MARKERS and (not is_link or self.inside(Path(entry.path)) is not None):
                    found[entry.name].append(Path(entry.path))
        if outside_count:
            shown = ", ".join(outside) + (f" and {outside_count - 3} more" if outside_count > 3 else "")
            self.note(f"{outside_count} symbolic link(s) to folders outside the project were not followed ({shown})")
        for paths in found.values():
            paths.sort(key=lambda p: p.parts)  # the order a sorted depth-first walk gives
        return found

    def find(self, name: str, under: Path, depth: int) -> list[Path]:
        """Marker files called ``name`` in ``under`` or up to ``depth`` folders below it."""
        results = []
        for path in self.markers().get(name, []):
            try:
                rel = path.parent.relative_to(under)
            except ValueError:
                continue
            if len(rel.parts) <= depth:
                results.append(path)
        return results


_MAX_IGNORE_PATTERNS = 2_000  # far above a real .gitignore; each pattern costs a compiled regex


def _ignored_by_git(root: Path, reader: _Reader, name: str) -> bool:
    """Does a .gitignore in ``root`` or a parent folder up to the project root list ``name``?"""
    folder = root
    while True:
        if _ignored_here(folder, reader, name):
            return True
        if folder == reader.root or reader.root not in folder.parents:
            return False
        folder = folder.parent


def _ignored_here(root: Path, reader: _Reader, name: str) -> bool:
    raw = reader.text(root / ".gitignore") or ""
    patterns = 0
    for line in raw.splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        patterns += 1
        if patterns > _MAX_IGNORE_PATTERNS:
            reader.note(f"read the first {_MAX_IGNORE_PATTERNS} .gitignore patterns only")
            break
        pattern = pattern.lstrip("/").rstrip("/")
        if fnmatch.fnmatch(name, pattern) or pattern in ("*", "**"):
            return True
    return False


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _show(value: Any) -> str:
    """A value from a project file, quoted for a message and never longer than a line."""
    from sap_devs.core import safe_yaml

    return f"'{shorten_path(value, 80)}'" if isinstance(value, str) else safe_yaml.shorten(value)


def _deps(pkg: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    deps = pkg.get("dependencies") or {}
    dev = pkg.get("devDependencies") or {}
    return (deps if isinstance(deps, dict) else {}), (dev if isinstance(dev, dict) else {})


def _clean_range(spec: str) -> str:
    return spec.strip().lstrip("^~>=<! ")


def _detect_cap(root: Path, reader: _Reader, det: Detection, pkg: dict[str, Any] | None) -> None:
    if pkg is not None:
        deps, dev = _deps(pkg)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            det.types.append("CAP (Node.js)")
            det.cap_runtime = "nodejs"
            if "@sap/cds" in deps:
                version = deps["@sap/cds"]
                det.cap_version = _clean_range(version)[:60] if isinstance(version, str) else None
            requires = ((pkg.get("cds") or {}).get("requires") or {}) if isinstance(pkg.get("cds"), dict) else {}
            names = [*deps, *dev, *(requires.keys() if isinstance(requires, dict) else [])]
            if any("hana" in n for n in names):
                det.database = "hana"
            elif "@cap-js/postgres" in names:
                det.database = "postgres"
            elif "@cap-js/sqlite" in names or "sqlite3" in names:
                det.database = "sqlite"
            return
    pom = reader.text(root / "pom.xml")
    if pom and "com.sap.cds" in pom:
        det.types.append("CAP (Java)")
        det.cap_runtime = "java"
        return
    if reader.is_file(root / ".cdsrc.json"):
        det.types.append("CAP (Node.js)")
        det.cap_runtime = "nodejs"


def detect(root: Path, reader: _Reader | None = None) -> tuple[Detection, dict[str, Any] | None]:
    reader = reader or _Reader(root)
    det = Detection()
    pkg = reader.json(root / "package.json")
    _detect_cap(root, reader, det, pkg)
    if mta_folders(root, reader):
        det.types.append("MTA")
        det.deployment.append("mta-cf")
    if reader.is_file(root / "xs-security.json"):
        det.auth = "xsuaa"
    deps, _dev = _deps(pkg) if pkg else ({}, {})
    if reader.is_file(root / "xs-app.json") or "@sap/approuter" in deps or reader.find("xs-app.json", root, 2):
        det.types.append("App router")
    for chart_dir in ("chart", "helm", "charts"):
        if reader.is_dir(root / chart_dir) and reader.find("Chart.yaml", root / chart_dir, 2):
            det.types.append("Kyma / Helm")
            det.deployment.append("helm-kyma")
            break
    manifests = reader.find("manifest.json", root, 4)
    ui5_roots = sorted({m.parent.parent for m in manifests if m.parent.name == "webapp"})
    if reader.is_file(root / "ui5.yaml") and root not in ui5_roots:
        ui5_roots.insert(0, root)
    if ui5_roots:
        det.types.append("SAPUI5 / Fiori")
        det.ui5_apps = [reader.rel(r) if r != root else "." for r in ui5_roots]
    abapgit = reader.find(".abapgit.xml", root, 1)
    if abapgit:
        det.types.append("ABAP (abapGit)")
        det.abap_packages = [reader.rel(p.parent) if p.parent != root else "." for p in abapgit]
    if not det.types and pkg is not None:
        det.types.append("Node.js")
    return det, pkg


def _cap_findings(
    root: Path, reader: _Reader, det: Detection, pkg: dict[str, Any] | None, cds_current: str | None
) -> list[Finding]:
    out: list[Finding] = []
    if det.cap_runtime != "nodejs" or pkg is None:
        return out
    deps, dev = _deps(pkg)
    if "@sap/cds-dk" not in deps and "@sap/cds-dk" not in dev:
        out.append(
            Finding(
                "dependency",
                "info",
                "@sap/cds-dk is not a project dependency, so local builds use whichever cds CLI is installed globally.",
                fix="npm add -D @sap/cds-dk",
                file="package.json",
            )
        )
    spec = deps.get("@sap/cds")
    if det.cap_version and cds_current and not _allows_major(spec, parse_version(cds_current)):
        line = _line_of(reader.text(root / "package.json"), '"@sap/cds"')
        out.extend(dataclasses.replace(f, line=line) for f in _cds_version_findings(det.cap_version, cds_current))
    if not reader.is_file(root / "default-env.json") and not _ignored_by_git(root, reader, "default-env.json"):
        out.append(
            Finding(
                "security",
                "info",
                ".gitignore does not list default-env.json, the usual place for local service credentials.",
                fix="Add 'default-env.json' to .gitignore before anyone creates one.",
                file=".gitignore",
            )
        )
    scripts = pkg.get("scripts") if isinstance(pkg.get("scripts"), dict) else {}
    if not scripts.get("lint"):
        out.append(
            Finding(
                "practice",
                "info",
                "No 'lint' script: CDS models and handlers are not linted.",
                fix='npm add -D @sap/eslint-plugin-cds eslint, then add "lint": "eslint ." to scripts',
                file="package.json",
            )
        )
    if "@sap/cds" in dev and "@sap/cds" not in deps:
        out.append(
            Finding(
                "dependency",
                "error",
                "@sap/cds is only a devDependency; the deployed app will not find it at runtime.",
                fix="npm add @sap/cds (move it to dependencies)",
                file="package.json",
            )
        )
    return out


def _allows_major(spec: Any, current: tuple[int, int, int] | None) -> bool:
    """Does an npm range let npm install the current major ('>=7', '*', '9 || 10')? Then the
    installed version is not behind, whatever the range starts from."""
    from sap_devs.doctor.mistakes import highest_major

    if not isinstance(spec, str) or current is None:
        return False
    highest = highest_major(spec[:200])
    return highest is not None and highest >= current[0] and (highest == float("inf") or "||" in spec)


def _cds_version_findings(have_text: str, current: str) -> list[Finding]:
    """CAP's release schedule: the current major is active, the previous one is in maintenance (fixes
    only), older majors are out of maintenance (no security fixes). The current release comes from
    the cap pack (pack.yaml versions), which sync keeps current."""
    have, want = parse_version(have_text), parse_version(current)
    if not have or not want or have >= want:
        return []
    behind = want[0] - have[0]
    if behind == 0:
        if want[1] - have[1] < 2:
            return []
        severity: Severity = "info"
        message = f"@sap/cds {have_text} is behind the current release {current}."
        fix = "npm update @sap/cds @sap/cds-dk"
    elif behind == 1:
        severity = "info"
        message = (
            f"@sap/cds {have_text} is on the previous major; CAP {have[0]} is in maintenance (fixes only), "
            f"{want[0]} ({current}) is current."
        )
        fix = f"Plan the upgrade to @sap/cds {want[0]} (read the CAP release notes first)."
    else:
        severity = "warning"
        message = (
            f"@sap/cds {have_text} is out of maintenance: CAP keeps only the current major ({current}) and the "
            "previous one supported, so this version gets no security fixes."
        )
        fix = f"Upgrade @sap/cds and @sap/cds-dk to {want[0]} (read the CAP release notes for each major in between)."
    return [Finding("version", severity, message, fix=fix, file="package.json")]


_SECRET_KEY = re.compile(r"(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|CLIENTSECRET|PRIVATE_?KEY|CREDENTIALS)", re.I)
_PLACEHOLDER = re.compile(r"^(<.*>|\$\{.*\}|\$\w+|x+|\*+|changeme|change-me|todo|your[-_ ].*|\.\.\.|)$", re.I)
_JSON_SECRETS = ("clientsecret", "password", "certificate", "key", "secret", "token", "uaa")


def _holds_secrets(name: str, text: str) -> bool:
    """Does a credentials file hold real-looking values (not placeholders or empty ones)?"""
    if name == ".env":
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, _, value = line.removeprefix("export ").partition("=")
            value = value.strip().strip("'\"")
            if _SECRET_KEY.search(key) and not _PLACEHOLDER.match(value):
                return True
            if key.strip() == "VCAP_SERVICES" and "credentials" in value:
                return True
        return False
    lowered = text.lower()
    return any(f'"{k}"' in lowered for k in _JSON_SECRETS) or '"credentials"' in lowered


def _tracked_by_git(folder: Path, reader: _Reader, name: str) -> bool:
    """Is ``folder/name`` in the git index of the project (the project root is the repository root)?

    Each index entry ends with two flag bytes whose low 12 bits are the path's length, then the path
    relative to the repository root and a NUL; a bounded read of .git/index finds it without git."""
    index = reader.root / ".git" / "index"
    real = reader.inside(index)
    if real is None or not reader.is_file(index):
        return False
    try:
        with open(real, "rb") as handle:
            raw = handle.read(reader.limits.max_file_bytes)
    except OSError:
        return False
    path = reader.rel(folder / name).encode()
    size = min(len(path), 0xFFF)
    start = raw.find(path + b"\0")
    while start >= 2:
        if raw[start - 1] == size & 0xFF and raw[start - 2] & 0x0F == size >> 8:
            return True
        start = raw.find(path + b"\0", start + 1)
    return False


def _secret_findings(root: Path, reader: _Reader) -> list[Finding]:
    out = []
    for name in ("default-env.json", ".cdsrc-private.json", ".env"):
        if not reader.is_file(root / name):
            continue
        tracked = _tracked_by_git(root, reader, name)
        if not tracked and _ignored_by_git(root, reader, name):
            continue
        text = reader.text(root / name)
        if text is None or not _holds_secrets(name, text):
            continue  # only placeholders (a template to copy): nothing leaks
        why = "is tracked by git" if tracked else "is not listed in .gitignore, so it gets committed"
        out.append(
            Finding(
                "security",
                "error",
                f"{name} holds credentials and {why}.",
                fix=(
                    f"git rm --cached {name}, add it to .gitignore and rotate the credentials."
                    if tracked
                    else f"Add '{name}' to .gitignore now; if it was ever committed, rotate the credentials."
                ),
                file=name,
            )
        )
    return out


def _line_of(text: str | None, *needles: str) -> int | None:
    """The first line holding every needle, in order of appearance (1-based), or None."""
    if not text:
        return None
    for number, line in enumerate(text.splitlines(), 1):
        if all(n in line for n in needles):
            return number
    return None


def _mta_commands(data: dict[str, Any]) -> list[str]:
    """Commands of the MTA's global build steps (before-all / after-all custom builders)."""
    build = data.get("build-parameters")
    commands: list[str] = []
    if not isinstance(build, dict):
        return commands
    for phase in ("before-all", "after-all"):
        steps = build.get(phase)
        for step in steps if isinstance(steps, list) else [steps] if isinstance(steps, dict) else []:
            if isinstance(step, dict):
                commands.extend(c for c in _as_list(step.get("commands")) if isinstance(c, str))
    return commands


_NPM_RUN = re.compile(r"\b(?:npm\s+run(?:-script)?|yarn(?:\s+run)?|pnpm(?:\s+run)?)\s+([\w:.-]{1,100})")
_MAX_COMMANDS = 100


def _with_scripts(commands: list[str], pkg: dict[str, Any] | None) -> list[str]:
    """The build commands as they run: 'npm run build' in a build step runs the 'build' script of the
    package.json beside mta.yaml (which may call further scripts)."""
    scripts = pkg.get("scripts") if isinstance(pkg, dict) and isinstance(pkg.get("scripts"), dict) else {}
    out = list(commands[:_MAX_COMMANDS])
    index = 0
    while index < len(out) and len(out) < _MAX_COMMANDS:
        for name in _NPM_RUN.findall(out[index][:2000]):
            script = scripts.get(name)
            if isinstance(script, str) and script[:2000] not in out:
                out.append(script[:2000])
        index += 1
    return out


def _build_target(root: Path, reader: _Reader, pkg: dict[str, Any] | None) -> str:
    """Where 'cds build' writes (cds.build.target in package.json or .cdsrc.json; 'gen' by default)."""
    for source in (pkg, reader.json(root / ".cdsrc.json") if reader.is_file(root / ".cdsrc.json") else None):
        if not isinstance(source, dict):
            continue
        cds = source.get("cds", source) if source is pkg else source
        build = cds.get("build") if isinstance(cds, dict) else None
        target = build.get("target") if isinstance(build, dict) else None
        if isinstance(target, str) and target.strip("./"):
            return target.strip("./").split("/")[0]
    return "gen"


def _made_by_build(mod_path: str, commands: list[str], target: str) -> bool:
    """Is a missing module path one that the MTA's own build steps create?

    'cds build' writes its output to <project>/gen (or cds.build.target), also for a project in a
    subfolder ('cds build orders' writes orders/gen); nothing else in an MTA build creates folders
    that a module then points to."""
    parts = [p for p in mod_path.replace("\\", "/").split("/") if p not in ("", ".")]
    return any("cds build" in c or "cds-build" in c for c in commands) and target in parts


_MTA_DEPTH = 3  # a monorepo's projects sit one or two folders down; deeper ones are test data or samples
_MAX_MTAS = 20
_NOT_PROJECTS = frozenset({"test", "tests", "__tests__", "fixtures", "node_modules", "gen", "dist"})


def mta_file(folder: Path, reader: _Reader) -> Path:
    return folder / "mta.yaml" if reader.is_file(folder / "mta.yaml") else folder / ".mta.yaml"


def mta_folders(root: Path, reader: _Reader) -> list[Path]:
    """Folders with an MTA descriptor: the root, and in a repository of several projects the folders up
    to three levels below it (not test data), each checked on its own."""
    key = ("mta folders", root)
    if key not in reader._parsed:  # asked by detection, the MTA checks and the xsappname lookup
        reader._parsed[key] = _find_mta_folders(root, reader)
    return reader._parsed[key]  # type: ignore[no-any-return]


def _find_mta_folders(root: Path, reader: _Reader) -> list[Path]:
    folders = [root] if reader.is_file(root / "mta.yaml") or reader.is_file(root / ".mta.yaml") else []
    below = [
        p.parent
        for name in ("mta.yaml", ".mta.yaml")
        for p in reader.find(name, root, _MTA_DEPTH)
        if p.parent != root and not _NOT_PROJECTS.intersection(p.parent.relative_to(root).parts)
    ]
    for folder in sorted(set(below), key=lambda p: p.parts):
        if len(folders) >= _MAX_MTAS:
            reader.note(f"checked the first {_MAX_MTAS} mta.yaml files only")
            break
        folders.append(folder)
    return folders


def _all_mta_findings(root: Path, reader: _Reader, pkg: dict[str, Any] | None) -> list[Finding]:
    """Every MTA of the repository, its findings named from the repository root."""
    from sap_devs.doctor import mistakes

    out: list[Finding] = []
    for folder in mta_folders(root, reader):
        if not reader.check():
            break
        if folder == root:
            out += _mta_findings(root, reader, pkg) + mistakes.mta_findings(root, reader)
            continue
        sub_pkg = reader.json(folder / "package.json") if reader.is_file(folder / "package.json") else None
        prefix = reader.rel(folder)
        found = _mta_findings(folder, reader, sub_pkg) + mistakes.mta_findings(folder, reader)
        out += [_in_folder(f, prefix) for f in found]
    return out


def _mta_findings(root: Path, reader: _Reader, pkg: dict[str, Any] | None) -> list[Finding]:
    path = mta_file(root, reader)
    data = reader.yaml(path)
    if not isinstance(data, dict):
        return []
    text = reader.text(path)
    out = []
    name = path.name
    for key in ("_schema-version", "ID", "version"):
        if not data.get(key):
            out.append(
                Finding(
                    "mta",
                    "error",
                    f"{name} has no '{key}'.",
                    fix=f"Add a '{key}' entry at the top: the MTA build (mbt) and 'cf deploy' refuse the file without it.",
                    file=name,
                )
            )
    commands = _with_scripts(_mta_commands(data), pkg)
    target = _build_target(root, reader, pkg)
    modules = _as_list(data.get("modules"))
    if any(isinstance(m, dict) and str(m.get("type", "")).startswith("com.sap.hcp.") for m in modules):
        return out  # an SAP BTP Neo descriptor: its role and destination modules carry no content
    for module in modules:
        if len(out) >= reader.limits.max_findings or not reader.check():
            break
        if not isinstance(module, dict):
            continue
        mod_path = module.get("path")
        if not isinstance(mod_path, str) or not mod_path:
            continue
        target_path = root / mod_path
        if reader.inside(target_path) is None:
            continue  # outside the project (or unusable): not ours to look at
        if reader.exists(target_path) or _made_by_build(mod_path, commands, target):
            continue
        out.append(
            Finding(
                "mta",
                "error",
                f"{name}: module {_show(module.get('name'))} points to {_show(mod_path)}, which does not exist.",
                fix="No build step of the MTA creates it, so 'mbt build' stops there: correct the module path, or "
                "add the step that creates it (e.g. 'npx cds build --production') to build-parameters/before-all.",
                file=name,
                line=_line_of(text, "path:", mod_path),
            )
        )
    return out


def _xsappname_elsewhere(root: Path, reader: _Reader, det: Detection) -> bool:
    """xsappname set where the service instance is created: an MTA xsuaa resource's parameters.config,
    or the Helm values of a Kyma deployment."""
    for folder in mta_folders(root, reader) if "MTA" in det.types else []:
        data = reader.yaml(mta_file(folder, reader))
        for resource in _as_list(data.get("resources")) if isinstance(data, dict) else []:
            params = resource.get("parameters") if isinstance(resource, dict) else None
            config = params.get("config") if isinstance(params, dict) else None
            if isinstance(config, dict) and config.get("xsappname"):
                return True
    return any("xsappname" in (reader.text(values) or "") for values in reader.markers().get("values.yaml", []))


def _xsuaa_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
    data = reader.json(root / "xs-security.json")
    if data is None:
        return []
    out = []
    if not data.get("xsappname") and not _xsappname_elsewhere(root, reader, det):
        out.append(
            Finding(
                "security",
                "error",
                "xs-security.json has no 'xsappname', and no MTA resource or Helm value sets one: "
                "creating the XSUAA service instance fails.",
                fix='Add a unique "xsappname" (or set it in the mta.yaml xsuaa resource under parameters.config).',
                file="xs-security.json",
            )
        )
    scopes = {s.get("name") for s in _as_list(data.get("scopes")) if isinstance(s, dict) and _is_str(s.get("name"))}
    xsappname = data.get("xsappname", "")
    for template in _as_list(data.get("role-templates")):
        if not isinstance(template, dict):
            continue
        for ref in _as_list(template.get("scope-references")):
            if len(out) >= reader.limits.max_findings:
                break
            if isinstance(ref, str) and ref not in scopes and not ref.startswith("uaa."):
                suffix = shorten_path(ref.split(".")[-1], 60)
                out.append(
                    Finding(
                        "security",
                        "error",
                        f"Role template {_show(template.get('name'))} references scope {_show(ref)}, "
                        "which is not defined.",
                        fix=f"Define the scope under 'scopes' (usually '$XSAPPNAME.{suffix}').",
                        file="xs-security.json",
                        line=_line_of(reader.text(root / "xs-security.json"), json.dumps(ref)),
                    )
                )
    if scopes and xsappname and not any(str(s).startswith("$XSAPPNAME") for s in scopes):
        out.append(
            Finding(
                "security",
                "warning",
                "Scopes are not prefixed with $XSAPPNAME, so they will not be unique to this application.",
                fix="Name scopes '$XSAPPNAME.<Scope>'.",
                file="xs-security.json",
            )
        )
    return out


def _is_cap_root(folder: Path, reader: _Reader) -> bool:
    pkg = reader.json(folder / "package.json") if reader.is_file(folder / "package.json") else None
    if pkg is not None:
        deps, dev = _deps(pkg)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            return True
    if reader.is_file(folder / "pom.xml") and "com.sap.cds" in (reader.text(folder / "pom.xml") or ""):
        return True
    return reader.is_file(folder / ".cdsrc.json")


def _served_by_cap(root: Path, app_root: Path, reader: _Reader) -> bool:
    """Is the app in the app/ folder of a CAP project (here or in a monorepo's subfolder)?

    'cds watch' and the CAP server serve <project>/app statically; such apps need no ui5.yaml."""
    folder = app_root.parent
    while True:
        if folder.name == "app" and _is_cap_root(folder.parent, reader):
            return True
        if folder == root or root not in folder.parents:
            return False
        folder = folder.parent


def _ui5_findings(root: Path, reader: _Reader, det: Detection, baseline: Baseline | None = None) -> list[Finding]:
    out = []
    for app in det.ui5_apps:
        app_root = root / app
        manifest_path = app_root / "webapp" / "manifest.json"
        ui5_yaml = app_root / "ui5.yaml"
        has_manifest = reader.is_file(manifest_path)
        label = reader.rel(manifest_path) if has_manifest else None
        if has_manifest:
            manifest = reader.json(manifest_path)
            if manifest is not None:
                sap_app = manifest.get("sap.app") if isinstance(manifest.get("sap.app"), dict) else None
                if sap_app is None or not sap_app.get("id"):
                    out.append(
                        Finding(
                            "ui5",
                            "error",
                            f"{label} has no 'sap.app'/'id'; the app cannot be loaded or deployed.",
                            fix='Add "sap.app": {"id": "<namespace>.<app>", ...} matching the component namespace.',
                            file=label,
                        )
                    )
                sap_ui5 = manifest.get("sap.ui5") if isinstance(manifest.get("sap.ui5"), dict) else {}
                deps = sap_ui5.get("dependencies") if isinstance(sap_ui5.get("dependencies"), dict) else {}
                out += _min_ui5_findings(deps.get("minUI5Version"), label, reader.text(manifest_path), baseline)
        if not reader.is_file(ui5_yaml):
            if _served_by_cap(root, app_root, reader):
                continue
            out.append(
                Finding(
                    "ui5",
                    "warning",
                    f"UI5 app '{app}' has no ui5.yaml, so UI5 Tooling (ui5 serve / ui5 build) cannot run it.",
                    fix="Run 'npx @ui5/cli init' in the app folder, or generate the app with SAP Fiori tools.",
                    file=f"{app}/ui5.yaml" if app != "." else "ui5.yaml",
                )
            )
        else:
            data = reader.yaml(ui5_yaml)
            spec = data.get("specVersion") if isinstance(data, dict) else None
            cli = parse_version(baseline.ui5_cli) if baseline and baseline.ui5_cli else None
            have = parse_version(str(spec)[:20]) if isinstance(spec, (str, int, float)) else None
            if cli and have and have[0] < cli[0] - 1:
                out.append(
                    Finding(
                        "ui5",
                        "info",
                        f"{reader.rel(ui5_yaml)} declares specVersion {_show(str(spec))}, written for UI5 Tooling "
                        f"{have[0] if have[0] else 'before 1'}; UI5 CLI {cli[0]} uses '{cli[0]}.0'.",
                        fix=f'Set specVersion: "{cli[0]}.0" after reading the UI5 CLI migration guides.',
                        file=reader.rel(ui5_yaml),
                        line=_line_of(reader.text(ui5_yaml), "specVersion"),
                    )
                )
            if isinstance(data, dict) and not data.get("specVersion"):
                out.append(
                    Finding(
                        "ui5",
                        "error",
                        f"{reader.rel(ui5_yaml)} has no 'specVersion'.",
                        fix='Add specVersion: "3.0" (or newer) at the top of ui5.yaml.',
                        file=reader.rel(ui5_yaml),
                    )
                )
    return out


def _min_ui5_findings(wanted: Any, label: str | None, text: str | None, baseline: Baseline | None) -> list[Finding]:
    """minUI5Version below every SAPUI5 version in long-term maintenance (the fiori-ui5 pack's list)."""
    lts = baseline.ui5_lts if baseline else ()
    if not isinstance(wanted, str) or not wanted or not lts:
        return []
    min_version = parse_version(wanted[:60])
    if min_version is None or min_version[:2] >= lts[0]:
        return []
    maintained = ", ".join(f"{major}.{minor}" for major, minor in lts)
    newest = "{}.{}".format(*lts[-1])
    return [
        Finding(
            "ui5",
            "warning",
            f"{label} targets minUI5Version {shorten_path(wanted, 60)}, older than every SAPUI5 version in "
            f"long-term maintenance ({maintained}): it gets no fixes, and the SAPUI5 CDN removes such versions.",
            fix=f"Raise sap.ui5/dependencies/minUI5Version to a maintained version ({newest} is the newest "
            "long-term one) and test the app on it.",
            file=label,
            line=_line_of(text, '"minUI5Version"'),
        )
    ]


_MAX_SUBPROJECTS = 50


def _cap_subprojects(root: Path, reader: _Reader, pkg: dict[str, Any] | None) -> list[tuple[Path, dict[str, Any]]]:
    """CAP Node.js projects below the root: the npm workspaces of a monorepo (cloud-cap-samples: bookshop,
    orders ...), or, when the root is no CAP project itself, those one or two folders down (a repository
    whose CAP project lives in code/ or cap/)."""
    workspaces = pkg.get("workspaces") if pkg is not None else None
    if isinstance(workspaces, dict):  # yarn: {"packages": [...]}
        workspaces = workspaces.get("packages")
    patterns = [w.strip("./") for w in _as_list(workspaces) if isinstance(w, str) and w.strip("./")]
    if not patterns and _is_cap_root(root, reader):
        return []
    out: list[tuple[Path, dict[str, Any]]] = []
    for manifest in reader.markers().get("package.json", []):
        folder = manifest.parent
        if folder == root or len(out) >= _MAX_SUBPROJECTS:
            continue
        rel = reader.rel(folder)
        if patterns:
            if not any(fnmatch.fnmatch(rel, pattern) for pattern in patterns):
                continue
        elif len(Path(rel).parts) > 2 or "app" in Path(rel).parts or _inside_any(folder, out):
            continue
        sub = reader.json(manifest)
        if sub is None:
            continue
        deps, dev = _deps(sub)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            out.append((folder, sub))
    return out


def _inside_any(folder: Path, found: list[tuple[Path, dict[str, Any]]]) -> bool:
    return any(parent in folder.parents for parent, _ in found)


def _with_root_tooling(sub: dict[str, Any], pkg: dict[str, Any]) -> dict[str, Any]:
    """A workspace's package.json as npm sees it: the root's devDependencies and scripts are hoisted."""
    merged = dict(sub)
    _deps_root, dev_root = _deps(pkg)
    _deps_sub, dev_sub = _deps(sub)
    merged["devDependencies"] = {**dev_root, **dev_sub}
    scripts_root = pkg.get("scripts") if isinstance(pkg.get("scripts"), dict) else {}
    scripts_sub = sub.get("scripts") if isinstance(sub.get("scripts"), dict) else {}
    merged["scripts"] = {**scripts_root, **scripts_sub}
    return merged


def _in_folder(finding: Finding, prefix: str) -> Finding:
    """A sub-project's finding, its file named from the project root."""
    if finding.file is None or finding.file.startswith(prefix + "/"):
        return finding
    message = finding.message
    if message.startswith(finding.file):
        message = f"{prefix}/{message}"
    return dataclasses.replace(finding, file=f"{prefix}/{finding.file}", message=message)


def _subproject_findings(
    root: Path, reader: _Reader, det: Detection, pkg: dict[str, Any], baseline: Baseline
) -> list[Finding]:
    from sap_devs.doctor import mistakes, version_checks

    groups: dict[tuple[str, str, str, str | None], list[Finding]] = {}
    subprojects = _cap_subprojects(root, reader, pkg)
    for folder, sub in subprojects:
        if not reader.check():
            break
        view = _with_root_tooling(sub, pkg)
        sub_det = Detection(cap_runtime="nodejs", deployment=det.deployment)
        deps, _dev = _deps(sub)
        version = deps.get("@sap/cds")
        sub_det.cap_version = _clean_range(version)[:60] if isinstance(version, str) else None
        found = [
            *_cap_findings(folder, reader, sub_det, view, baseline.cds),
            *mistakes.production_findings(folder, reader, sub_det, sub),
            *mistakes.dependency_findings(folder, reader, view, baseline),
            *version_checks.xssec_findings(folder, reader, sub, baseline),
            *_secret_findings(folder, reader),
        ]
        prefix = reader.rel(folder)
        for f in found:
            groups.setdefault((f.category, f.severity, f.message, f.fix), []).append(_in_folder(f, prefix))
    out: list[Finding] = []
    for same in groups.values():  # the same finding in several workspaces is one finding
        if len(same) == 1:
            out.append(same[0])
            continue
        where = [f.file.split("/")[0] for f in same if f.file]
        shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
        out.append(dataclasses.replace(same[0], message=f"In {len(same)} workspaces ({shown}): {same[0].message}"))
    return out


def check_project(
    root: Path,
    *,
    cds_current: str | None = None,
    baseline: Baseline | None = None,
    limits: Limits | None = None,
    cancel: threading.Event | None = None,
) -> ProjectReport:
    """Detect the project kind and collect findings, within ``limits``.

    ``baseline`` holds the versions from the packs (``cds_current`` alone is the older way to pass
    the current @sap/cds). Raises Cancelled soon after ``cancel`` is set (checked before every
    folder and file).
    """
    baseline = baseline or Baseline(cds=cds_current)
    cds_current = baseline.cds
    from sap_devs.doctor import mistakes, ui5_namespace, version_checks

    reader = _Reader(root, limits, cancel)
    det, pkg = detect(root, reader)
    cap_node = det.cap_runtime == "nodejs"
    findings = [
        *_cap_findings(root, reader, det, pkg, cds_current),
        *(mistakes.production_findings(root, reader, det, pkg) if cap_node else []),
        *(mistakes.dependency_findings(root, reader, pkg, baseline) if cap_node else []),
        *_secret_findings(root, reader),
        *mistakes.service_key_findings(root, reader),
        *(mistakes.cap_java_findings(root, reader) if det.cap_runtime == "java" else []),
        *(version_checks.cap_java_toolchain_findings(root, reader, baseline) if det.cap_runtime == "java" else []),
        *(version_checks.xssec_findings(root, reader, pkg, baseline) if cap_node else []),
    ]
    if _cap_subprojects(root, reader, pkg):
        findings += _subproject_findings(root, reader, det, pkg or {}, baseline)
        if det.cap_runtime is None:  # a monorepo of CAP projects
            det.types.insert(0, "CAP (Node.js)")
            det.cap_runtime = "nodejs"
    findings += [
        *(_all_mta_findings(root, reader, pkg) if "MTA" in det.types else []),
        *(_xsuaa_findings(root, reader, det) if det.auth == "xsuaa" else []),
        *(mistakes.approuter_findings(root, reader, det) if "App router" in det.types else []),
        *_ui5_findings(root, reader, det, baseline),
        *mistakes.ui5_findings(root, reader, det),
        *mistakes.abapgit_findings(root, reader, det),
        *mistakes.abaplint_findings(root, reader, det),
        *(mistakes.welcome_file_findings(root, reader) if "App router" in det.types else []),
        *(version_checks.approuter_version_findings(root, reader, baseline) if "App router" in det.types else []),
        *ui5_namespace.namespace_findings(root, reader, det),
    ]
    findings = list({(f.file, f.message): f for f in reader.findings + findings}.values())  # once each
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: order[f.severity])
    cap = reader.limits.max_findings
    if len(findings) > cap:
        reader.note(f"kept the first {cap} findings (errors first)")
        findings = findings[:cap]
    return ProjectReport(path=root, detection=det, findings=findings, notes=reader.notes)
