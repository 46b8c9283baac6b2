"""Syncing SAP's released-API lists from the GitHub repository SAP/abap-atc-cr-cv-s4hc.

Four files, fetched side by side from raw.githubusercontent.com and parsed into the dataset shape
of ``released_apis``. A file that fails (network, HTTP error, a body that is not the expected
list) keeps its previous data: from the last synced cache when there is one, else from the bundled
snapshot, and the run says so. Only when every file fails does the source fail, and then
``sync`` leaves the previous cache untouched.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.live.released_apis import lists as released_apis
from sap_devs.live.released_apis.lists import CLASSIFICATIONS, SECTIONS, ReleasedApiDataError
from sap_devs.live.sync import FetchContext, Source

BASES = {"github_raw": "https://raw.githubusercontent.com"}
HOSTS = frozenset({"raw.githubusercontent.com"})
SECTION_TITLES = {**released_apis.TARGET_TITLES, CLASSIFICATIONS: "classic-API classifications"}


def _path(section: str) -> str:
    return f"/{released_apis.UPSTREAM_REPO}/{released_apis.UPSTREAM_BRANCH}/{released_apis.UPSTREAM_FILES[section]}"


async def _fetch_section(http: Http, ctx: FetchContext, section: str) -> list[str]:
    response = await http.get(ctx.url("github_raw", _path(section)))
    try:
        # parsing 40,000 CSV lines takes a moment: off the event loop, so the other downloads go on
        return await asyncio.to_thread(released_apis.parse_upstream, section, response.text())
    except ReleasedApiDataError as exc:
        raise FetchError(f"{released_apis.UPSTREAM_FILES[section]} is not SAP's list: {exc}", retryable=False) from None


def _fallback(previous: Any) -> tuple[dict[str, Any], str]:
    """The dataset to take a failed file's rows from: the last synced one, else the bundled one."""
    try:
        return released_apis.validate_dataset(previous), "the previous sync"
    except ReleasedApiDataError:
        return released_apis.load_baseline().data, "the bundled snapshot"


async def fetch(http: Http, ctx: FetchContext) -> dict[str, Any]:
    done = [0]

    async def one(section: str) -> list[str] | FetchError:
        try:
            return await _fetch_section(http, ctx, section)
        except FetchError as exc:
            return exc
        finally:
            done[0] += 1
            ctx.tick(done[0], len(SECTIONS))

    results = dict(zip(SECTIONS, await asyncio.gather(*(one(s) for s in SECTIONS)), strict=True))
    failures = {s: r for s, r in results.items() if isinstance(r, FetchError)}
    if len(failures) == len(SECTIONS):
        first = next(iter(failures.values()))
        raise FetchError(f"every released-API file failed, e.g. {first}", retryable=first.retryable)

    today = dt.datetime.now(dt.UTC).date().isoformat()
    sections: dict[str, list[str]] = {}
    as_of: dict[str, str] = {}
    fallback: tuple[dict[str, Any], str] | None = None
    for section, result in results.items():
        if isinstance(result, FetchError):
            fallback = fallback or _fallback(ctx.previous)
            data, where = fallback
            sections[section] = data["sections"][section]
            as_of[section] = str(data["as_of"].get(section) or "unknown date")
            ctx.note(f"kept the {SECTION_TITLES[section]} list from {where} ({result})")
        else:
            sections[section] = result
            as_of[section] = today
    source = f"{released_apis.UPSTREAM_REPO} ({released_apis.UPSTREAM_BRANCH})"
    return released_apis.build_dataset(sections, as_of=as_of, source=source)


SOURCE = Source(
    name="released-apis",
    title="SAP released ABAP APIs (Cloudification Repository)",
    cache_name=released_apis.CACHE_NAME,
    ttl=released_apis.TTL,
    # the largest file (private cloud CSV) is about 3.5 MB today; the cap leaves room for growth
    policy=Policy(allowed_hosts=HOSTS, read_timeout=30.0, max_bytes=40 * 1024 * 1024, retries=2),
    fetch=fetch,
    count=lambda data: sum(len(data["sections"][s]) for s in released_apis.TARGETS),
    budget=180.0,
    bundled=released_apis.bundled,
)
