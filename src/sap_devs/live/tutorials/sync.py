"""Syncing the tutorial index from the public sap-tutorials GitHub repositories.

Per repository: its default branch, then its file tree; a tree whose SHA has not changed since
the last sync reuses the records already cached. Each tutorial's front matter comes from the raw
markdown file. A repository that fails keeps its previous records; only when every repository
fails does the source fail (and the old cache stays as it was).

Status (see ``tutorials``): developers.sap.com publishes every tutorial folder of these public
repositories, so a tutorial read now that the bundled list has as published stays published, and
one the list does not know is ``new`` (``draft`` without full metadata). One the bundled index marks
``withdrawn`` stays withdrawn: the platform's list dropped it although its folder was there.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.live.snapshot import bundled_json
from sap_devs.live.sync import FetchContext, Source
from sap_devs.live.tutorials.index import CACHE_NAME, LIVE_STATUSES, TTL, unlisted_status
from sap_devs.live.tutorials.index import bundled as bundled_tutorials
from sap_devs.live.tutorials.markdown import parse_tutorial

ORG = "sap-tutorials"
BASES = {"github_api": "https://api.github.com", "github_raw": "https://raw.githubusercontent.com"}
HOSTS = frozenset({"api.github.com", "raw.githubusercontent.com"})
_CONCURRENT_FILES = 10


def _known_repos() -> tuple[list[str], dict[str, str]]:
    """Repositories in the bundled index, and the status it gives each slug."""
    records = bundled_json("tutorials-baseline.json")["tutorials"]
    repos = sorted({r["repo"].split("/", 1)[1] for r in records if r.get("repo", "").startswith(f"{ORG}/")})
    statuses = {
        r["slug"]: str(r.get("status") or ("published" if r.get("live", True) else "withdrawn")) for r in records
    }
    return repos, statuses


def status_of(record: dict[str, Any], known: dict[str, str]) -> str:
    """The status of a tutorial read from its repository now, given the bundled index's statuses."""
    status = known.get(record["slug"])
    if status in ("published", "withdrawn"):
        return status
    return unlisted_status(record, read_after_list=True)


def _headers(ctx: FetchContext) -> dict[str, str]:
    token = ctx.env.get("GITHUB_TOKEN") or ctx.env.get("GH_TOKEN")
    headers = {"Accept": "application/vnd.github+json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


async def _repo_tree(http: Http, ctx: FetchContext, repo: str) -> tuple[str, str, list[str]]:
    headers = _headers(ctx)
    info = (await http.get(ctx.url("github_api", f"/repos/{ORG}/{repo}"), headers=headers)).json()
    branch = info.get("default_branch") or "main"
    tree = (
        await http.get(ctx.url("github_api", f"/repos/{ORG}/{repo}/git/trees/{branch}?recursive=1"), headers=headers)
    ).json()
    pattern = re.compile(r"^tutorials/([a-z0-9][a-z0-9-]*)/\1\.md$")
    slugs = sorted({m.group(1) for e in tree.get("tree", []) if (m := pattern.match(str(e.get("path", ""))))})
    if tree.get("truncated") and not slugs:
        raise FetchError(f"the file tree of {ORG}/{repo} is too large for one request", retryable=False)
    return branch, str(tree.get("sha", "")), slugs


async def _fetch_records(
    http: Http, ctx: FetchContext, repo: str, branch: str, slugs: list[str], done: list[int], total: list[int]
) -> list[dict[str, Any]]:
    limiter = asyncio.Semaphore(_CONCURRENT_FILES)

    async def one(slug: str) -> dict[str, Any] | None:
        async with limiter:
            url = ctx.url("github_raw", f"/{ORG}/{repo}/{branch}/tutorials/{slug}/{slug}.md")
            try:
                text = (await http.get(url)).text()
            except FetchError:
                return None
            finally:
                done[0] += 1
                ctx.tick(done[0], total[0])
        return parse_tutorial(slug, text, repo=f"{ORG}/{repo}")

    results = await asyncio.gather(*(one(s) for s in slugs))
    return [r for r in results if r is not None]


async def fetch(http: Http, ctx: FetchContext) -> dict[str, Any]:
    repos, known = _known_repos()
    previous = ctx.previous if isinstance(ctx.previous, dict) else {}
    previous_repos: dict[str, Any] = previous.get("repos") or {}
    previous_records: list[dict[str, Any]] = previous.get("tutorials") or []
    by_repo: dict[str, list[dict[str, Any]]] = {}
    for record in previous_records:
        by_repo.setdefault(str(record.get("repo", "")).split("/", 1)[-1], []).append(record)

    done, total = [0], [0]
    repo_state: dict[str, Any] = {}
    records: list[dict[str, Any]] = []
    failures: list[str] = []

    async def sync_repo(repo: str) -> None:
        try:
            branch, sha, slugs = await _repo_tree(http, ctx, repo)
        except FetchError as exc:
            failures.append(f"{repo}: {exc}")
            records.extend(by_repo.get(repo, []))
            if repo in previous_repos:
                repo_state[repo] = previous_repos[repo]
            return
        if sha and previous_repos.get(repo, {}).get("sha") == sha and by_repo.get(repo):
            records.extend(by_repo[repo])
        else:
            total[0] += len(slugs)
            records.extend(await _fetch_records(http, ctx, repo, branch, slugs, done, total))
        repo_state[repo] = {"branch": branch, "sha": sha}

    await asyncio.gather(*(sync_repo(r) for r in repos))
    if len(failures) == len(repos):
        raise FetchError("every tutorial repository failed: " + "; ".join(failures[:3]))
    for failure in failures:
        ctx.note(f"kept the previous records of {failure}")
    for record in records:
        record["status"] = status_of(record, known)
        record["live"] = record["status"] in LIVE_STATUSES
    records.sort(key=lambda r: r["slug"])
    return {"repos": repo_state, "tutorials": records, "failed_repos": failures}


SOURCE = Source(
    name="tutorials",
    title="developers.sap.com tutorials",
    cache_name=CACHE_NAME,
    ttl=TTL,
    policy=Policy(allowed_hosts=HOSTS, read_timeout=30.0, max_bytes=20 * 1024 * 1024, retries=2),
    fetch=fetch,
    count=lambda data: len(data["tutorials"]),
    budget=600.0,
    bundled=bundled_tutorials,
)
