"""``sap-devs sync``: fetch every live source, normalise it, store it in the cache.

A source that fails leaves its previous cache file untouched (stale beats nothing); the run
reports per source whether it is ok, still fresh, stale or failed.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sap_devs.core import cache
from sap_devs.core.errors import SapDevsError
from sap_devs.core.http import FetchError, Http, Policy

log = logging.getLogger(__name__)

Status = Literal["ok", "fresh", "stale", "failed", "absent", "bundled", "offline"]
ProgressFn = Callable[[str, int, int | None], None]  # (source, done, total)


@dataclass
class FetchContext:
    """What a source's fetch function gets: base URLs (overridable in tests), credentials, progress."""

    bases: dict[str, str]
    env: dict[str, str]
    progress: ProgressFn
    source: str = ""
    previous: Any = None  # the data cached by the last successful sync, for incremental work
    notes: list[str] = field(default_factory=list)  # partial failures worth reporting on success

    def note(self, text: str) -> None:
        log.info("sync %s: %s", self.source, text)
        self.notes.append(text)

    def url(self, base: str, path: str) -> str:
        return self.bases[base].rstrip("/") + path

    def tick(self, done: int, total: int | None = None) -> None:
        self.progress(self.source, done, total)


FetchFn = Callable[[Http, FetchContext], Awaitable[Any]]


@dataclass(frozen=True)
class Source:
    name: str
    title: str
    cache_name: str
    ttl: dt.timedelta
    policy: Policy
    fetch: FetchFn
    count: Callable[[Any], int] = len
    budget: float = 300.0  # seconds for the whole source
    details: Callable[[], list[dict[str, str]]] | None = None  # rows for --status (docs: one per repository)
    bundled: Callable[[], tuple[int, str]] | None = None  # (items, as of) of the snapshot shipped in the package


@dataclass
class SourceResult:
    name: str
    title: str
    status: Status
    items: int | None = None
    age: str | None = None
    message: str | None = None
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _count(source: Source, data: Any) -> int | None:
    try:
        return source.count(data)
    except (TypeError, KeyError):
        return None


async def sync_one(source: Source, ctx: FetchContext, *, force: bool) -> SourceResult:
    started = time.perf_counter()
    previous = cache.read(source.cache_name)
    if previous is not None and not force and previous.fresh(source.ttl):
        return SourceResult(source.name, source.title, "fresh", _count(source, previous.data), previous.age_text())
    ctx.source = source.name
    ctx.previous = previous.data if previous is not None else None
    try:
        async with Http(source.policy) as http:
            data = await asyncio.wait_for(source.fetch(http, ctx), source.budget)
        if not data:
            raise FetchError("the source answered, but with no items")
        cache.write(source.cache_name, data)
    except Exception as exc:  # one broken source must not stop the others; it is reported, not hidden
        if isinstance(exc, TimeoutError):
            message = f"timed out after {source.budget:g}s"
        elif isinstance(exc, SapDevsError):
            message = str(exc)
        else:
            message = f"unexpected {type(exc).__name__}: {exc}"
            log.warning("sync %s failed unexpectedly", source.name, exc_info=True)
        log.info("sync %s failed: %s", source.name, message)
        elapsed = time.perf_counter() - started
        if previous is not None:
            return SourceResult(
                source.name,
                source.title,
                "stale",
                _count(source, previous.data),
                previous.age_text(),
                f"{message}; keeping the cached copy",
                elapsed,
            )
        return SourceResult(source.name, source.title, "failed", None, None, message, elapsed)
    notes = "; ".join(ctx.notes) or None
    return SourceResult(
        source.name, source.title, "ok", _count(source, data), "0 min", notes, time.perf_counter() - started
    )


async def run_sync(
    sources: list[Source],
    *,
    bases: dict[str, str],
    env: dict[str, str],
    force: bool = False,
    progress: ProgressFn | None = None,
    concurrency: int = 4,
) -> list[SourceResult]:
    limiter = asyncio.Semaphore(concurrency)

    async def guarded(source: Source) -> SourceResult:
        async with limiter:
            ctx = FetchContext(bases=bases, env=env, progress=progress or (lambda *_: None))
            return await sync_one(source, ctx, force=force)

    return list(await asyncio.gather(*(guarded(s) for s in sources)))


def _unsynced(source: Source) -> SourceResult:
    """A source never synced here: the bundled snapshot is what the tools serve, when there is one."""
    if source.bundled is None:
        return SourceResult(source.name, source.title, "absent", message="never synced; no snapshot is bundled")
    items, as_of = source.bundled()
    dated = f" of {as_of}" if as_of != "unknown" else ""
    return SourceResult(
        source.name, source.title, "bundled", items, message=f"never synced: the bundled snapshot{dated} is in use"
    )


def bundled_names(sources: list[Source]) -> list[str]:
    """The sources whose tools answer from a bundled snapshot when nothing was ever synced."""
    return [s.name for s in sources if s.bundled is not None]


def status(sources: list[Source]) -> list[SourceResult]:
    """What is cached now, without fetching anything."""
    out = []
    for source in sources:
        cached = cache.read(source.cache_name)
        if cached is None:
            out.append(_unsynced(source))
            continue
        state: Status = "fresh" if cached.fresh(source.ttl) else "stale"
        out.append(SourceResult(source.name, source.title, state, _count(source, cached.data), cached.age_text()))
    for source, result in zip(sources, out, strict=True):
        if source.details is not None:
            result.extra["details"] = source.details()
    return out
