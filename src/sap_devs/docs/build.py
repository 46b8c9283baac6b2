"""Building an index from source tarballs: at package build (the bundled index) and by sync."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from sap_devs.docs.index import SourceRows, build
from sap_devs.docs.ingest import Page, load_source
from sap_devs.docs.sources import API_REFERENCE, SOURCES, DocSource

Progress = Callable[[str], None]


def tarball_name(source: DocSource) -> str:
    return f"{source.owner}+{source.name}.tar.gz"


def build_from(
    tarballs: dict[str, tuple[Path, str, str | None]],
    out: Path,
    *,
    progress: Progress | None = None,
    api_reference: bool = False,
) -> dict[str, int]:
    """Index the sources whose tarball is given: repo -> (tarball, origin, fetched_at); with ``api_reference``
    the API reference pages too (made from the package's data)."""

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
        if api_reference:
            yield api_rows(progress)

    return build(out, sources())


def api_rows(progress: Progress | None = None) -> SourceRows:
    """The index rows of the API reference, made from the package's own data (no tarball)."""
    from sap_devs.docs import api_reference

    if progress:
        progress(f"indexing {API_REFERENCE.repo} (from the bundled API data)")
    version, pages = api_reference.pages()
    return API_REFERENCE, version, pages, "bundled", None, []


def build_bundled(tar_dir: Path, out: Path, *, progress: Progress | None = None) -> dict[str, int]:
    """The bundled index from every source tarball in ``tar_dir`` (missing ones are left out), and the API
    reference."""
    found = {
        s.repo: (tar_dir / tarball_name(s), "bundled", None) for s in SOURCES if (tar_dir / tarball_name(s)).is_file()
    }
    return build_from(found, out, progress=progress, api_reference=True)
