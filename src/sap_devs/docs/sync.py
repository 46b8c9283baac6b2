"""``sap-devs sync --only docs``: refresh the SAP documentation index from the GitHub repositories.

Per repository (``sources.SOURCES``): the branch's current commit from the GitHub API (a bare SHA,
asked with the ETag of the last answer, so an unchanged branch costs a 304); a commit the index in use
already has is not downloaded again. A changed repository's tarball comes from codeload.github.com
into the cache folder (``docs/tarballs``) and is ingested; then the index is rebuilt at
``store.synced_path()``: the changed repositories' new pages, the others carried over from the index in
use as they are (commit, origin and fetch time kept): in place, in a copy of that index, when its terms
were made the way this sap-devs makes them (only the changed repositories are read and analysed), else by
indexing everything again. A repository that fails (network, HTTP error,
a truncated or foreign tarball, no pages in it) keeps its previous pages and the run says so; when
nothing could be refreshed the source fails and the index in use stays as it is. The new index is
written to a temporary file and swapped in, so a running server sees either the old or the new one,
and picks up the new one on its next docs call (``store.current`` notices the newer file).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import logging
import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sap_devs.core import paths
from sap_devs.core.errors import SapDevsError
from sap_devs.core.fs import TEMP_SUFFIX
from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.docs import api_reference, store
from sap_devs.docs.build import api_rows, tarball_name
from sap_devs.docs.index import DocsIndex, SourceInfo, SourceRows, build, updatable, update
from sap_devs.docs.ingest import Page, TarballRefused, load_source
from sap_devs.docs.sources import API_REFERENCE, SOURCES, DocSource
from sap_devs.live.sync import FetchContext, Source

log = logging.getLogger(__name__)

BASES = {"github_api": "https://api.github.com", "github_codeload": "https://codeload.github.com"}
HOSTS = frozenset({"api.github.com", "codeload.github.com"})
CACHE_NAME = "docs-sync"  # per repository the commit and ETag of the last answer; the index is the sqlite file
TTL = dt.timedelta(days=1)
MAX_TARBALL_BYTES = 200 * 1024 * 1024  # today's largest repository tarball is well below this
SHRINK_MIN_PAGES, SHRINK_SHARE = 10, 0.5  # a source of 10+ pages whose new commit has under half of them
CONCURRENT_DOWNLOADS = 2  # a tarball is held in memory until written: two at a time bounds the memory used
SHA_MEDIA_TYPE = "application/vnd.github.sha"
_SHA = re.compile(r"^[0-9a-f]{40}$")
_HEX = re.compile(r"^[0-9a-f]{7,40}$")


def tarball_dir() -> Path:
    return paths.cache_dir() / "docs" / "tarballs"


@dataclass
class Outcome:
    """What became of one repository in a sync."""

    source: DocSource
    state: str  # unchanged | changed | failed
    commit: str | None = None
    etag: str | None = None
    pages: list[Page] = field(default_factory=list)
    redirects: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None


def short(commit: str | None) -> str:
    return (commit or "")[:7] or "?"


def same_commit(indexed: str, commit: str) -> bool:
    """Whether the index's commit (full, or at least 7 hex digits) is ``commit``."""
    return bool(_HEX.match(indexed or "")) and commit.startswith(indexed.lower())


def _api_headers(ctx: FetchContext, etag: str | None) -> dict[str, str]:
    headers = {"Accept": SHA_MEDIA_TYPE}
    token = ctx.env.get("GITHUB_TOKEN") or ctx.env.get("GH_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if etag:
        headers["If-None-Match"] = etag
    return headers


def _explain(exc: FetchError, ctx: FetchContext) -> str:
    if exc.status in (403, 429) and not (ctx.env.get("GITHUB_TOKEN") or ctx.env.get("GH_TOKEN")):
        return f"{exc} (GitHub's rate limit? GITHUB_TOKEN or GH_TOKEN raises it)"
    if exc.status == 404:
        return f"{exc} (repository or branch not found)"
    return str(exc)


async def head_commit(
    http: Http, ctx: FetchContext, source: DocSource, known: dict[str, str]
) -> tuple[str, str | None]:
    """(commit, ETag) of the source's branch; a 304 to the stored ETag means the stored commit."""
    etag = known.get("etag") if known.get("commit") else None
    url = ctx.url("github_api", f"/repos/{source.repo}/commits/{source.branch}")
    response = await http.get(url, headers=_api_headers(ctx, etag), ok=(200, 304))
    if response.status == 304:
        return known["commit"], etag
    sha = response.text().strip().lower()
    if not _SHA.match(sha):
        raise FetchError(f"GitHub answered {sha[:60]!r} for the commit of {source.repo}@{source.branch}, not a SHA")
    return sha, response.headers.get("etag")


def _write_temp(folder: Path, name: str, content: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=TEMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _ingest(source: DocSource, tar: Path, commit: str) -> tuple[list[Page], list[tuple[str, str]]]:
    """The pages of a downloaded tarball; SapDevsError when it is not a usable tarball of ``commit``."""
    try:
        found, pages, redirects = load_source(source, str(tar))
    except TarballRefused as exc:
        raise SapDevsError(f"the tarball of {source.repo} @ {short(commit)} is refused: {exc}") from None
    except Exception as exc:  # a truncated or foreign archive fails in tarfile/gzip/zlib in many ways
        raise SapDevsError(f"the tarball of {source.repo} cannot be read ({type(exc).__name__}: {exc})") from None
    if _HEX.match(found) and not commit.startswith(found):
        raise SapDevsError(f"the tarball of {source.repo} holds commit {short(found)}, not {short(commit)}")
    if not pages:
        raise SapDevsError(f"the tarball of {source.repo} @ {short(commit)} has no documentation pages")
    return pages, redirects


async def download(http: Http, ctx: FetchContext, source: DocSource, commit: str, had: int = 0) -> Outcome:
    """Download and ingest one repository at ``commit`` (whose previous commit had ``had`` pages in the
    index); the tarball is kept in the cache folder once it is taken."""
    response = await http.get(ctx.url("github_codeload", f"/{source.repo}/tar.gz/{commit}"))
    if not response.content.startswith(b"\x1f\x8b"):
        raise FetchError(f"{source.repo} @ {short(commit)}: codeload answered something that is not a gzip tarball")
    folder = tarball_dir()
    name = tarball_name(source)
    try:
        tmp = await asyncio.to_thread(_write_temp, folder, name, response.content)
    except OSError as exc:
        raise SapDevsError(f"could not write the tarball of {source.repo} under {folder} ({exc})") from None
    del response
    try:
        pages, redirects = await asyncio.to_thread(_ingest, source, tmp, commit)
        check_not_shrunk(source, commit, len(pages), had)
        tmp.replace(folder / name)
    finally:
        tmp.unlink(missing_ok=True)
    return Outcome(source, "changed", commit, pages=pages, redirects=redirects)


def check_not_shrunk(source: DocSource, commit: str, pages: int, had: int) -> None:
    """Refuse a commit with far fewer pages than the index has: a repository that moved or dropped its
    documentation folder (the UI5 CLI moved its docs once) would otherwise vanish from search."""
    if had >= SHRINK_MIN_PAGES and pages < had * SHRINK_SHARE:
        raise SapDevsError(
            f"the tarball of {source.repo} @ {short(commit)} has {pages} documentation pages where the index "
            f"has {had}: the repository has most likely moved or removed its documentation, which this sap-devs "
            "version does not read yet (an update of sap-devs will)"
        )


def _current() -> DocsIndex | None:
    try:
        return store.current()
    except SapDevsError:
        return None


def _rows(
    outcomes: list[Outcome],
    index: DocsIndex | None,
    kept: dict[str, SourceInfo],
    now: str,
    stop: threading.Event,
    step: Callable[[], None],
) -> Iterator[SourceRows]:
    """The index rows in SOURCES order: new pages for changed repositories, the others carried over."""
    for outcome in outcomes:
        if stop.is_set():
            raise SapDevsError("the documentation index build was cancelled")
        step()
        source = outcome.source
        if outcome.state == "changed":
            yield source, outcome.commit or "", outcome.pages, "synced", now, outcome.redirects
            outcome.pages = []  # indexed: let the memory go
        elif index is not None and source.repo in kept:
            info = kept[source.repo]
            pages, redirects = index.pages_of(source.repo)
            yield source, info.commit, pages, info.origin, info.fetched_at, redirects


def rebuild(
    outcomes: list[Outcome], index: DocsIndex | None, stop: threading.Event, step: Callable[[], None]
) -> dict[str, int]:
    """Write the new index at ``store.synced_path()`` (atomically); runs in a worker thread. When the index in
    use can be updated in place (``index.updatable``), only the changed repositories are indexed, into a copy
    of it (``index.update``); otherwise every repository is (``index.build``)."""
    kept = {s.repo: s for s in index.sources()} if index is not None else {}
    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    if index is not None and updatable(index.path):
        changed = [o for o in outcomes if o.state == "changed"]
        for o in outcomes:
            if o.state != "changed":
                step()

        def prepare() -> None:
            if stop.is_set():
                raise SapDevsError("the documentation index build was cancelled")

        keep = [o.source.repo for o in outcomes if o.state != "changed" and o.source.repo in kept]
        rows = _rows(changed, None, {}, now, stop, step)
        api = kept.get(API_REFERENCE.repo)
        if api is not None and api.commit == api_reference.version():
            keep.append(API_REFERENCE.repo)  # made from this package's data already
        else:
            rows = itertools.chain(rows, [api_rows()])
        return update(index.path, store.synced_path(), rows, keep=keep, prepare=prepare)
    # the API reference pages are made from the package's data, never downloaded: made again with the rest
    return build(store.synced_path(), itertools.chain(_rows(outcomes, index, kept, now, stop, step), [api_rows()]))


async def fetch(http: Http, ctx: FetchContext) -> dict[str, Any]:
    index = _current()
    indexed = {s.repo: s for s in index.sources()} if index is not None else {}
    had = index.pages_per_source() if index is not None else {}
    previous = ctx.previous if isinstance(ctx.previous, dict) else {}
    known: dict[str, dict[str, str]] = previous.get("repos") or {}
    sources = list(SOURCES)
    total = 2 * len(sources)  # one step per repository checked, one per repository indexed
    done = [0]
    downloads = asyncio.Semaphore(CONCURRENT_DOWNLOADS)

    async def one(source: DocSource) -> Outcome:
        try:
            commit, etag = await head_commit(http, ctx, source, known.get(source.repo) or {})
            info = indexed.get(source.repo)
            if info is not None and same_commit(info.commit, commit):
                return Outcome(source, "unchanged", commit, etag)
            async with downloads:
                outcome = await download(http, ctx, source, commit, had.get(source.repo, 0))
            outcome.etag = etag
            return outcome
        except FetchError as exc:
            return Outcome(source, "failed", error=_explain(exc, ctx))
        except SapDevsError as exc:
            return Outcome(source, "failed", error=str(exc))
        finally:
            done[0] += 1
            ctx.tick(done[0], total)

    outcomes = list(await asyncio.gather(*(one(s) for s in sources)))
    changed = [o for o in outcomes if o.state == "changed"]
    failed = [o for o in outcomes if o.state == "failed"]
    if failed and not changed:
        what = "every repository failed" if len(failed) == len(outcomes) else "no changed repository could be fetched"
        raise FetchError(f"{what}: " + "; ".join(f"{o.source.repo}: {o.error}" for o in failed[:3]))

    def step() -> None:  # one repository indexed (called from the build thread)
        done[0] += 1
        ctx.tick(done[0], total)

    if changed:
        stop = threading.Event()
        try:
            counts = await asyncio.to_thread(rebuild, outcomes, index, stop, step)
        except (OSError, sqlite3.Error) as exc:  # disk full, folder not writable, file held open (Windows)
            raise SapDevsError(f"could not write the documentation index {store.synced_path()} ({exc})") from None
        finally:
            stop.set()  # a cancelled sync (budget spent) stops the build thread at the next repository
        store.reset()
        pages = counts["pages"]
    else:
        pages = index.counts()[0] if index is not None else 0
    ctx.tick(total, total)

    if len(changed) > 3:
        ctx.note(f"{len(changed)} repositories updated")
    else:
        for o in changed:
            before = indexed.get(o.source.repo)
            ctx.note(f"{o.source.repo} {short(before.commit) if before else 'new'} -> {short(o.commit)}")
    for o in failed:
        had = "kept its previous pages" if o.source.repo in indexed else "left out of the index"
        ctx.note(f"{o.source.repo} {had}: {o.error}")
    unchanged = sum(o.state == "unchanged" for o in outcomes)
    if unchanged:
        ctx.note(f"{unchanged} unchanged")

    repos: dict[str, dict[str, str]] = {}
    for o in outcomes:
        if o.state == "failed":
            if o.source.repo in known:
                repos[o.source.repo] = known[o.source.repo]
            continue
        repos[o.source.repo] = {"commit": o.commit or "", "etag": o.etag or ""}
    return {"repos": repos, "pages": pages, "index": str(store.synced_path()) if changed else None}


def _age(fetched_at: str | None) -> str:
    if not fetched_at:
        return ""
    try:
        when = dt.datetime.fromisoformat(fetched_at)
    except ValueError:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    seconds = max(0, int((dt.datetime.now(dt.UTC) - when).total_seconds()))
    if seconds < 3600:
        return f"{seconds // 60} min"
    if seconds < 172800:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} days"


def details() -> list[dict[str, str]]:
    """Per repository of the index in use: commit (short), origin (bundled or synced) and age."""
    index = _current()
    if index is None:
        return []
    return [
        {"repo": s.repo, "commit": short(s.commit), "origin": s.origin, "age": _age(s.fetched_at)}
        for s in index.sources()
    ]


def bundled() -> tuple[int, str]:
    """Pages of the index shipped in the package, and the newest date its repositories were taken."""
    index = _current()
    if index is None:
        return 0, "unknown"
    pages, _ = index.counts()
    dates = [s.fetched_at[:10] for s in index.sources() if s.fetched_at]
    return pages, max(dates) if dates else "unknown"


def _pages(data: Any) -> int:
    return int(data["pages"])


SOURCE = Source(
    name="docs",
    title="SAP documentation index",
    cache_name=CACHE_NAME,
    ttl=TTL,
    policy=Policy(
        allowed_hosts=HOSTS,
        read_timeout=30.0,
        max_bytes=MAX_TARBALL_BYTES,
        retries=2,
        deadline=600.0,  # one tarball, from connecting to its last byte
    ),
    fetch=fetch,
    count=_pages,
    budget=1800.0,
    details=details,
    bundled=bundled,
)
