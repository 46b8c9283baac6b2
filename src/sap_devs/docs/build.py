"""Building an index from source tarballs: at package build (the bundled index) and by sync."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from sap_devs.docs.index import build
from sap_devs.docs.ingest import Page, load_source
from sap_devs.docs.sources import SOURCES, DocSource

Progress = Callable[[str], None]


def tarball_name(source: DocSource) -> str:
    return f"{source.owner}+{source.name}.tar.gz"


def build_from(
    tarballs: dict[str, tuple[Path, str, str | None]], out: Path, *, progress: Progress | None = None
) -> dict[str, int]:
    """Index the sources whose tarball is given: repo -> (tarball, origin, fetched_at)."""

    def sources() -> Iterator[tuple[DocSource, str, list[Page], str, str | None, list[tuple[str, str]]]]:
        for source in SOURCES:
            entry = tarballs.get(source.repo)
            if entry is None:
                continue
            tar, origin, fetched_at = entry
            if progress:
                progress(f"indexing {source.repo}")
            commit, pages, redirects = load_source(source, str(tar))
            yield source, commit, pages, origin, fetched_at, redirects

    return build(out, sources())


def build_bundled(tar_dir: Path, out: Path, *, progress: Progress | None = None) -> dict[str, int]:
    """The bundled index from every source tarball in ``tar_dir`` (missing ones are left out)."""
    found = {
        s.repo: (tar_dir / tarball_name(s), "bundled", None) for s in SOURCES if (tar_dir / tarball_name(s)).is_file()
    }
    return build_from(found, out, progress=progress)
