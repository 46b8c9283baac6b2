"""API keys for the HTTP server: created once, shown once, stored only as hashes.

A key reads ``sdk_<id>_<secret>``: the id (public, 8 hex digits) finds the entry, the secret
(256 random bits) proves possession. The file keeps the SHA-256 of the whole key: keys carry as
much entropy as a hash, so a slow password hash would add nothing but latency on every request.
The file is written atomically with mode 0600 and may also be mounted from a Kubernetes secret or
a Cloud Foundry service (read-only); the server notices changes, so a revoked key stops working
without a restart.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sap_devs.core.errors import SapDevsError

log = logging.getLogger(__name__)
PREFIX = "sdk_"
_KEY_RE = re.compile(r"^sdk_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$")
_ID_RE = re.compile(r"^[0-9a-f]{8}$")
MAX_FILE_BYTES = 1024 * 1024
RELOAD_INTERVAL = 1.0


def default_path() -> Path:
    override = os.environ.get("SAP_DEVS_API_KEYS_FILE")
    if override:
        return Path(override).expanduser()
    from sap_devs.core.paths import config_dir

    return config_dir() / "api-keys.json"


@dataclass(frozen=True)
class KeyEntry:
    id: str
    name: str
    hash: str
    created: str

    def public(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "created": self.created}


def check_file_safety(path: Path) -> list[str]:
    """Warnings about who else could change the key file; SapDevsError when anyone could.

    Whoever can write the file can add a key of their own: a world-writable file (or one in a
    world-writable folder without the sticky bit, where anyone can replace it) is refused. A file
    another user owns, or one its group can write, still serves with a warning (a Kubernetes or
    Cloud Foundry secret is mounted owned by root, and group-readable through fsGroup)."""
    if os.name != "posix":
        return []
    try:
        st = path.stat()
        folder = path.resolve().parent.stat()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise SapDevsError(f"Cannot read the API key file {path}: {exc.strerror or exc}.") from None
    fix = f"chmod 600 {path}"
    if st.st_mode & stat.S_IWOTH:
        raise SapDevsError(
            f"Refusing the API key file {path}: anyone on this machine can write it (mode {stat.S_IMODE(st.st_mode):o}), "
            "and so add a key of their own.",
            hint=f"Run `{fix}` (`sap-devs keys create` writes it that way).",
        )
    if folder.st_mode & stat.S_IWOTH and not folder.st_mode & stat.S_ISVTX:
        raise SapDevsError(
            f"Refusing the API key file {path}: anyone on this machine can replace it in its folder "
            f"{path.resolve().parent} (mode {stat.S_IMODE(folder.st_mode):o}).",
            hint="Keep the key file in a folder only its owner can write.",
        )
    warnings = []
    if st.st_uid not in (os.getuid(), 0):
        warnings.append(f"the API key file {path} belongs to another user (uid {st.st_uid}), who can change the keys.")
    if st.st_mode & stat.S_IWGRP:
        warnings.append(
            f"the API key file {path} is writable by its group (mode {stat.S_IMODE(st.st_mode):o}); `{fix}`."
        )
    return warnings


def _digest(key: str) -> str:
    return "sha256:" + hashlib.sha256(key.encode("utf-8")).hexdigest()


def read_entries(path: Path) -> list[KeyEntry]:
    """The keys in ``path`` (none when it does not exist); a malformed file is a one-line error."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise SapDevsError(f"API key file {path} is larger than {MAX_FILE_BYTES} bytes.")
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise SapDevsError(f"Cannot read the API key file {path}: {exc.strerror or exc}.") from None
    try:
        data = json.loads(raw)
        entries = [
            KeyEntry(str(k["id"]), str(k["name"]), str(k["hash"]), str(k.get("created", ""))) for k in data["keys"]
        ]
    except (ValueError, KeyError, TypeError):
        raise SapDevsError(
            f"API key file {path} is not a sap-devs key file.", hint="Create keys with `sap-devs keys create NAME`."
        ) from None
    return entries


def _write_entries(path: Path, entries: list[KeyEntry]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"version": 1, "keys": [e.__dict__ for e in entries]}, indent=2, ensure_ascii=False).encode(
        "utf-8"
    )
    fd, tmp = tempfile.mkstemp(prefix=".api-keys.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(body + b"\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise read-modify-write of the key file between concurrent ``sap-devs keys`` runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; the write itself stays atomic
            yield
            return
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def create_key(path: Path, name: str) -> tuple[str, KeyEntry]:
    """Add a key named ``name``; returns the key itself (to show once) and its stored entry."""
    if not _NAME_RE.match(name):
        raise SapDevsError(
            f"Invalid key name {name[:64]!r}.", hint="Use 1-64 letters, digits, spaces or . _ @ - (e.g. 'ci-bot')."
        )
    if _ID_RE.match(name):
        raise SapDevsError(
            f"Invalid key name {name!r}: 8 hex digits read as a key id.",
            hint="Choose a name that is not 8 hex digits (e.g. 'ci-bot'), so `keys revoke` cannot confuse them.",
        )
    with _locked(path):
        return _create_locked(path, name)


def _create_locked(path: Path, name: str) -> tuple[str, KeyEntry]:
    entries = read_entries(path)
    if any(e.name == name for e in entries):
        raise SapDevsError(f"A key named {name!r} exists already.", hint="Revoke it first or choose another name.")
    ids = {e.id for e in entries}
    key_id = secrets.token_hex(4)
    while key_id in ids:
        key_id = secrets.token_hex(4)
    key = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    created = datetime.now(UTC).replace(microsecond=0).isoformat()
    entry = KeyEntry(id=key_id, name=name, hash=_digest(key), created=created)
    _write_entries(path, [*entries, entry])
    return key, entry


def revoke_key(path: Path, name_or_id: str, *, by: str = "either") -> KeyEntry:
    """Revoke the key whose id or name is exactly ``name_or_id`` (``by``: "id", "name" or "either");
    returns its entry (matched by id when ``entry.id == name_or_id``). A value that is one key's id and another key's
    name (a file from before names like ids were refused) is refused: ``by`` says which is meant."""
    with _locked(path):
        return _revoke_locked(path, name_or_id, by)


def _revoke_locked(path: Path, value: str, by: str) -> KeyEntry:
    entries = read_entries(path)
    by_id = [e for e in entries if e.id == value] if by in ("id", "either") else []
    by_name = [e for e in entries if e.name == value] if by in ("name", "either") else []
    if by_id and by_name and by_id[0] is not by_name[0]:
        raise SapDevsError(
            f"{value!r} is the id of the key named {by_id[0].name!r} and the name of the key with id "
            f"{by_name[0].id}: nothing revoked.",
            hint=f"Say which: `sap-devs keys revoke --id {value}` or `sap-devs keys revoke --name {value}`.",
        )
    match = (by_id or by_name or [None])[0]
    if match is None:
        what = {"id": "with id", "name": "named"}.get(by, "named or with id")
        raise SapDevsError(f"No API key {what} {value!r}.", hint="See `sap-devs keys list`.")
    _write_entries(path, [e for e in entries if e is not match])
    return match


class KeyStore:
    """The server's view of the key file: re-read when it changes (checked at most once a second)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._by_id: dict[str, KeyEntry] = {}
        self._stamp: Any = None
        self._checked = 0.0
        self._refused: Any = None
        self.reload()

    def _stamp_now(self) -> Any:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_mode, st.st_uid)

    def reload(self) -> None:
        stamp = self._stamp_now()
        if stamp == self._stamp and self._by_id is not None:
            return
        check_file_safety(self.path)  # a file made world-writable while serving: the last good keys stay
        entries = read_entries(self.path)
        self._by_id = {e.id: e for e in entries}
        self._stamp = stamp

    def __len__(self) -> int:
        return len(self._by_id)

    def _fresh(self) -> None:
        now = time.monotonic()
        if now - self._checked < RELOAD_INTERVAL:
            return
        with self._lock:
            self._checked = now
            try:
                self.reload()
            except SapDevsError as exc:  # a half-edited or unsafe file: the last good keys stay
                if self._refused != self._stamp_now():
                    log.warning("API keys not reloaded: %s", exc)
                    self._refused = self._stamp_now()

    def verify(self, key: str) -> KeyEntry | None:
        match = _KEY_RE.match(key)
        if match is None:
            return None
        self._fresh()
        entry = self._by_id.get(match.group(1))
        if entry is None or not hmac.compare_digest(entry.hash, _digest(key)):
            return None
        return entry


def looks_like_key(token: str) -> bool:
    return token.startswith(PREFIX)
