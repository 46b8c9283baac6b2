"""Which project and company pack folders the user trusts to define commands and servers.

A cloned repository's ``.sap-devs/`` folder is someone else's input. Its packs give content only
(context, rules, known errors, links) until the user runs ``sap-devs trust``, which records a digest
of the folder as it is now: any later change to a file needs trust again. Trusted folders may then
define tool checks (``tools.yaml``, whose commands run) and MCP servers (``mcp.yaml``, whose
commands an AI client runs).

Trust covers exactly the bytes the loader parses: a folder is read once (``snapshot``), its digest
compared with the store, and the packs are parsed from those same bytes. A symbolic link is followed
only while it stays inside the folder; one that leads out is never read, and the folder is not
trusted while it is there (the target could change without any change to the folder).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from sap_devs.core import paths
from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import atomic_write_text, read_regular

log = logging.getLogger(__name__)

EXECUTABLE_FILES = ("tools.yaml", "mcp.yaml")
"""Pack files whose content ends up being run: ignored in untrusted layers."""
MAX_FILES = 5_000
MAX_BYTES = 64 * 1024 * 1024
STORE_NAME = "trusted-packs.json"


@dataclass(frozen=True)
class TrustEntry:
    folder: str
    digest: str
    files: int


def store_path() -> Path:
    return paths.config_dir() / STORE_NAME


MAX_LINK_HOPS = 40


@dataclass(frozen=True)
class Snapshot:
    """A pack folder read once: the bytes of every regular file, every link's text, and the digest of
    exactly those. The loader parses these bytes, never the files again, so what is trusted is what runs
    even when a file changes between the check and the read (or a link is pointed elsewhere)."""

    root: Path
    digest: str
    entries: int
    files: dict[str, bytes]
    dirs: frozenset[str]
    links: dict[str, str]
    outside: tuple[str, ...]
    """Links that lead out of the folder (or loop): never followed, and a folder holding one is not trusted."""

    def resolve(self, rel: str) -> str | None:
        """``rel`` with every link inside the folder followed; None when that leaves the folder or loops."""
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        done: list[str] = []
        hops = 0
        while parts:
            part = parts.pop(0)
            if part == "..":
                if not done:
                    return None
                done.pop()
                continue
            text = self.links.get("/".join([*done, part]))
            if text is None:
                done.append(part)
                continue
            hops += 1
            if hops > MAX_LINK_HOPS:
                return None
            if os.path.isabs(text):
                inner = _inside(Path(text), self.root)
                if inner is None:
                    return None
                done, parts = [], [*inner.split("/"), *parts]
            else:
                parts = [*text.split("/"), *parts]
        return "/".join(done)

    def _rel(self, path: Path) -> str | None:
        try:
            rel = path.relative_to(self.root).as_posix()
        except ValueError:
            return None
        return self.resolve("" if rel == "." else rel)

    def is_file(self, path: Path) -> bool:
        return self._rel(path) in self.files

    def is_dir(self, path: Path) -> bool:
        rel = self._rel(path)
        return rel is not None and (rel == "" or rel in self.dirs)

    def read(self, path: Path) -> bytes:
        rel = self._rel(path)
        if rel is None or rel not in self.files:
            raise FileNotFoundError(str(path))
        return self.files[rel]

    def children(self, folder: Path) -> list[Path]:
        """The names in ``folder`` (links included, as the folder lists them), as paths under ``folder``."""
        rel = self._rel(folder)
        if rel is None:
            return []
        prefix = f"{rel}/" if rel else ""
        names = {
            key[len(prefix) :]
            for key in (*self.files, *self.dirs, *self.links)
            if key.startswith(prefix) and "/" not in key[len(prefix) :]
        }
        return [folder / name for name in sorted(names)]


def _inside(target: Path, root: Path) -> str | None:
    """An absolute link target as a path relative to ``root`` (as given or resolved), else None."""
    for base in (root, root.resolve()):
        try:
            rel = target.relative_to(base).as_posix()
        except ValueError:
            continue
        return "" if rel == "." else rel
    return None


def snapshot(folder: Path) -> Snapshot:
    """Read ``folder`` once (links by their text, never followed) and digest it.

    The digest is SHA-256 over every file's relative path and bytes, links by their target text.
    Raises SapDevsError for a folder too large to be a pack folder, rather than reading without end.
    """
    h = hashlib.sha256()
    count = size = 0
    stack = [folder]
    entries: list[tuple[str, Path, bool]] = []
    dirs: set[str] = set()
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as it:
                children = list(it)
        except OSError as exc:
            raise SapDevsError(f"Cannot read {current}: {exc.strerror}.") from None
        for entry in children:
            rel = Path(entry.path).relative_to(folder).as_posix()
            if entry.is_symlink():
                entries.append((rel, Path(entry.path), True))
            elif entry.is_dir(follow_symlinks=False):
                stack.append(Path(entry.path))
                dirs.add(rel)
            elif entry.is_file(follow_symlinks=False):
                entries.append((rel, Path(entry.path), False))
            count += 1
            if count > MAX_FILES:
                raise SapDevsError(
                    f"{folder} holds more than {MAX_FILES:,} entries; that is not a pack folder.",
                    hint="Point sap-devs trust at the project folder that contains .sap-devs/.",
                )
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    for rel, path, is_link in sorted(entries):
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        try:
            if is_link:
                text = os.readlink(path)
                links[rel] = text
                data = text.encode("utf-8", "surrogateescape")
            else:
                data = read_regular(path, MAX_BYTES - size, follow_links=False)
                files[rel] = data
        except OSError as exc:
            raise SapDevsError(f"Cannot read {path}: {exc.strerror}.") from None
        size += len(data)
        if size > MAX_BYTES:
            raise SapDevsError(f"{folder} holds more than {MAX_BYTES // (1024 * 1024)} MB; that is not a pack folder.")
        h.update(b"L" if is_link else b"F")
        h.update(len(data).to_bytes(8, "big") + data)
    found = Snapshot(folder, h.hexdigest(), len(entries), files, frozenset(dirs), links, ())
    outside = tuple(rel for rel in sorted(links) if found.resolve(rel) is None)
    return Snapshot(folder, found.digest, found.entries, files, found.dirs, links, outside)


def digest(folder: Path) -> tuple[str, int]:
    """The folder's digest and how many files and links it holds (see ``snapshot``)."""
    found = snapshot(folder)
    return found.digest, found.entries


def outside_links(found: Snapshot) -> str:
    """One line naming the links of ``found`` that leave its folder."""
    shown = ", ".join(str(found.root / rel) for rel in found.outside[:3])
    more = f" and {len(found.outside) - 3} more" if len(found.outside) > 3 else ""
    verb = "is a symbolic link that leads" if len(found.outside) == 1 else "are symbolic links that lead"
    return f"{shown}{more} {verb} out of {found.root}; sap-devs does not follow such links"


def _load() -> dict[str, dict[str, object]]:
    path = store_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        # an unreadable store trusts nothing: the safe reading, and the user can trust again
        log.warning("%s cannot be read (%s); no project packs are trusted", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, dict[str, object]]) -> None:
    atomic_write_text(store_path(), json.dumps(data, indent=1, sort_keys=True) + "\n")


def _key(folder: Path) -> str:
    return str(folder.resolve())


def recorded(folder: Path) -> str | None:
    """The digest stored when ``folder`` was trusted, or None."""
    entry = _load().get(_key(folder))
    value = entry.get("digest") if isinstance(entry, dict) else None
    return value if isinstance(value, str) else None


def trusted(found: Snapshot) -> bool:
    """True when the folder read in ``found`` is trusted exactly as read (and leads nowhere outside)."""
    return not found.outside and recorded(found.root) == found.digest


def is_trusted(folder: Path) -> bool:
    """True when ``folder`` was trusted and no file in it changed since."""
    if recorded(folder) is None:
        return False
    try:
        found = snapshot(folder)
    except SapDevsError as exc:
        log.warning("%s", exc)
        return False
    return trusted(found)


def pack_folder(path: Path) -> Path:
    """The folder to trust for ``path``: a project's ``.sap-devs`` folder, or a pack layer folder itself."""
    path = path.expanduser()
    if not path.is_dir():
        raise SapDevsError(f"{path} is not a folder.", hint="Give the project folder that contains .sap-devs/.")
    inner = path / ".sap-devs"
    if inner.is_symlink():
        raise SapDevsError(
            f"{inner} is a symbolic link (to {os.readlink(inner)}); sap-devs does not read packs through it.",
            hint="Make .sap-devs/ a folder of the project, or trust the folder it points to itself.",
        )
    if inner.is_dir():
        return inner.resolve()
    if (path / "packs").is_dir() or (path / "profiles").is_dir():
        return path.resolve()
    raise SapDevsError(
        f"{path} has no .sap-devs/ folder and no packs/ folder, so there is nothing to trust.",
        hint="Run sap-devs trust in (or with the path of) a project that has .sap-devs/packs/.",
    )


def trust(folder: Path, found: Snapshot | None = None) -> TrustEntry:
    """Record ``folder`` as trusted as it is now (as read in ``found``, when given: the bytes the user
    was shown). A folder with a link that leads out of it is refused: its content could change from
    outside without any change to the folder."""
    found = found or snapshot(folder)
    if found.outside:
        raise SapDevsError(
            f"Not trusted: {outside_links(found)}.",
            hint="Replace each such link with a copy of the file, then run sap-devs trust again.",
        )
    data = _load()
    data[_key(folder)] = {"digest": found.digest, "files": found.entries}
    _save(data)
    return TrustEntry(_key(folder), found.digest, found.entries)


def revoke(folder: Path) -> bool:
    data = _load()
    removed = data.pop(_key(folder), None) is not None
    if removed:
        _save(data)
    return removed


def entries() -> list[tuple[TrustEntry, str]]:
    """Every trusted folder with its state now: ``trusted``, ``changed`` or ``missing``."""
    out = []
    for folder, entry in sorted(_load().items()):
        if not isinstance(entry, dict):
            continue
        item = TrustEntry(folder, str(entry.get("digest", "")), int(entry.get("files", 0) or 0))
        path = Path(folder)
        if not path.is_dir():
            state = "missing"
        else:
            try:
                found = snapshot(path)
                state = "trusted" if found.digest == item.digest and not found.outside else "changed"
            except SapDevsError:
                state = "changed"
        out.append((item, state))
    return out
