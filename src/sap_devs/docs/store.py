"""Where the documentation index lives, and the one open copy a process searches.

The bundled index is built when the package is built (``hatch_build.py``, from the source tarballs
in the repository's ``data/docs``) and ships inside the package. ``sap-devs sync`` writes a newer
one to the cache folder; the newest usable file wins, and a running server picks it up on its next
docs call without a restart.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from sap_devs.core.errors import SapDevsError
from sap_devs.docs.index import DocsIndex, DocsIndexError

log = logging.getLogger(__name__)

INDEX_NAME = "docs.sqlite"


def bundled_path() -> Path:
    return Path(__file__).resolve().parent / "data" / INDEX_NAME


def synced_path() -> Path:
    from sap_devs.core import paths

    return paths.cache_dir() / "docs" / INDEX_NAME


_lock = threading.Lock()
_open: tuple[Path, float, DocsIndex] | None = None


def current() -> DocsIndex:
    """The index to search: the synced one when present, readable and written by this sap-devs version,
    else the bundled one. After an upgrade the new package's bundled index wins until the next sync, so
    an old synced copy never hides newer bundled pages; with no bundled index an old synced one still serves.
    """
    global _open
    from sap_devs import package_version

    with _lock:
        candidates = [synced_path(), bundled_path()]
        if not bundled_path().is_file():
            candidates = candidates[:1]
        for path in candidates:
            try:
                stamp = path.stat().st_mtime
            except OSError:
                continue
            if _open is not None and _open[0] == path and _open[1] == stamp:
                return _open[2]
            try:
                index = DocsIndex(path)
            except DocsIndexError as exc:
                log.warning("documentation index %s", exc)
                continue
            if path == synced_path() and len(candidates) > 1 and index.built_by != package_version():
                log.info("synced documentation index is from sap-devs %s; using the bundled one", index.built_by)
                index.close()
                continue
            _open = (path, stamp, index)  # the previous connection is left to close when unreferenced
            return index
    raise SapDevsError(
        "The SAP documentation index is not installed.",
        hint="It is built when sap-devs is installed from its repository; run `sap-devs sync --only docs` "
        "to build it from GitHub instead.",
    )


def reset() -> None:
    """Forget the open index (tests, and sync after it swapped in a new file)."""
    global _open
    with _lock:
        _open = None
