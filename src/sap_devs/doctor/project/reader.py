"""The bounded, link-safe reader every project check reads files through, and small helpers over its values.

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
import stat
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from sap_devs.doctor.project.model import Cancelled, Finding, Limits, Severity, shorten_path

_SKIP_DIRS = frozenset({"node_modules", ".git", "gen", "dist", "target", "mta_archives", ".venv"})
_MARKERS = frozenset({"xs-app.json", "Chart.yaml", "values.yaml", "manifest.json", ".abapgit.xml", "package.json"})
_MARKERS |= {"mta.yaml", ".mta.yaml"}
_MAX_ENTRIES = 20_000  # per folder; a real project folder has a few hundred
_SCAN_DEPTH = 4  # manifest.json of app/<name>/webapp is 3 folders down; one more for monorepos
_MAX_NOTES = 8  # they end up in one hint line


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):g} MB"
    return f"{count / 1024:g} KB" if count >= 1024 else f"{count} bytes"


def _within(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


class Reader:
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


def ignored_by_git(root: Path, reader: Reader, name: str) -> bool:
    """Does a .gitignore in ``root`` or a parent folder up to the project root list ``name``?"""
    folder = root
    while True:
        if _ignored_here(folder, reader, name):
            return True
        if folder == reader.root or reader.root not in folder.parents:
            return False
        folder = folder.parent


def _ignored_here(root: Path, reader: Reader, name: str) -> bool:
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


def tracked_by_git(folder: Path, reader: Reader, name: str) -> bool:
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


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def is_str(value: Any) -> bool:
    return isinstance(value, str)


def quoted(value: Any) -> str:
    """A value from a project file, quoted for a message and never longer than a line."""
    from sap_devs.core import safe_yaml

    return f"'{shorten_path(value, 80)}'" if isinstance(value, str) else safe_yaml.shorten(value)


def dependencies_of(pkg: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    deps = pkg.get("dependencies") or {}
    dev = pkg.get("devDependencies") or {}
    return (deps if isinstance(deps, dict) else {}), (dev if isinstance(dev, dict) else {})


def clean_range(spec: str) -> str:
    return spec.strip().lstrip("^~>=<! ")


def line_of(text: str | None, *needles: str) -> int | None:
    """The first line holding every needle, in order of appearance (1-based), or None."""
    if not text:
        return None
    for number, line in enumerate(text.splitlines(), 1):
        if all(n in line for n in needles):
            return number
    return None


def in_folder(finding: Finding, prefix: str) -> Finding:
    """A sub-project's finding, its file named from the project root."""
    if finding.file is None or finding.file.startswith(prefix + "/"):
        return finding
    message = finding.message
    if message.startswith(finding.file):
        message = f"{prefix}/{message}"
    return dataclasses.replace(finding, file=f"{prefix}/{finding.file}", message=message)
