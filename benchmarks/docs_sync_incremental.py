"""Incremental docs sync: re-indexing one changed repository in place against rebuilding the whole index.

Before issue 29 a sync that found one repository changed rebuilt everything: the changed repository's
pages from its tarball, every other repository's pages read back from the index in use and analysed
again. Now the index in use is copied and only the changed repository's pages are taken out and put in
(``index.update``). Both paths are timed here, each from the same bundled index (the installed one, or
built from data/docs with --build), with the changed repository's tarball ingested inside the timing as a sync does.

Usage: python benchmarks/docs_sync_incremental.py [repo ...] [--runs N] [--build]
(default: SAP-docs/btp-connectivity, a mid-sized source, and SAP-docs/btp-integration-suite, the largest)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from sap_devs.docs.build import build_bundled, tarball_name
from sap_devs.docs.index import DocsIndex, build, update
from sap_devs.docs.ingest import load_source
from sap_devs.docs.sources import BY_REPO, SOURCES
from sap_devs.docs.store import bundled_path

TARBALLS = Path(__file__).resolve().parent.parent / "data" / "docs"


def full(base: DocsIndex, changed: str, out: Path) -> float:
    start = time.perf_counter()
    kept = {s.repo: s for s in base.sources()}

    def rows():
        for source in SOURCES:
            if source.repo == changed:
                commit, pages, redirects = load_source(source, str(TARBALLS / tarball_name(source)))
                yield source, commit, pages, "synced", "now", redirects
            elif source.repo in kept:
                pages, redirects = base.pages_of(source.repo)
                info = kept[source.repo]
                yield source, info.commit, pages, info.origin, info.fetched_at, redirects

    build(out, rows())
    return time.perf_counter() - start


def incremental(base: DocsIndex, changed: str, out: Path) -> float:
    start = time.perf_counter()
    source = BY_REPO[changed.lower()]
    commit, pages, redirects = load_source(source, str(TARBALLS / tarball_name(source)))
    keep = [s.repo for s in base.sources() if s.repo != changed]
    update(base.path, out, [(source, commit, pages, "synced", "now", redirects)], keep=keep, prepare=lambda: None)
    return time.perf_counter() - start


def search_ms(path: Path, queries: list[str]) -> float:
    index = DocsIndex(path)
    index.search(queries[0])
    times = []
    for _ in range(3):
        for q in queries:
            t = time.perf_counter()
            index.search(q)
            times.append((time.perf_counter() - t) * 1000)
    index.close()
    return statistics.median(times)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 1
    repos = [a for a in args if "/" in a] or ["SAP-docs/btp-connectivity", "SAP-docs/btp-integration-suite"]
    queries = ["cloud connector principal propagation", "iflow HTTP receiver adapter basic auth", "odata v4 draft"]
    with tempfile.TemporaryDirectory() as tmp:
        base_path = bundled_path()
        if not base_path.is_file() or "--build" in sys.argv:
            base_path = Path(tmp) / "base.sqlite"
            start = time.perf_counter()
            counts = build_bundled(TARBALLS, base_path)
            print(f"bundled index from data/docs: {counts['pages']:,} pages in {time.perf_counter() - start:.1f} s")
        base = DocsIndex(base_path)
        for repo in repos:
            whole = [full(base, repo, Path(tmp) / "full.sqlite") for _ in range(runs)]
            part = [incremental(base, repo, Path(tmp) / "part.sqlite") for _ in range(runs)]
            print(
                f"{repo}: full rebuild median {statistics.median(whole):.1f} s, in place median "
                f"{statistics.median(part):.1f} s ({statistics.median(whole) / statistics.median(part):.1f}x faster); "
                f"warm search p50 {search_ms(Path(tmp) / 'full.sqlite', queries):.1f} ms after a rebuild, "
                f"{search_ms(Path(tmp) / 'part.sqlite', queries):.1f} ms after an update in place"
            )


if __name__ == "__main__":
    main()
