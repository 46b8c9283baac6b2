"""`sap-devs sync --only docs` against a loopback server playing api.github.com and codeload.github.com.

Tarballs are built here in GitHub's layout (a pax global header with the commit, one top folder
``<owner>-<repo>-<sha7>/``); the bundled index is a small one built from such tarballs, so every test
sees the real ingest, index build and swap, never the internet."""

from __future__ import annotations

import dataclasses
import io
import os
import tarfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sap_devs.core import cache
from sap_devs.docs import store
from sap_devs.docs import sync as docs_sync
from sap_devs.docs.index import build
from sap_devs.docs.ingest import load_source
from sap_devs.docs.sources import API_REFERENCE, BY_REPO, DocSource
from sap_devs.knowledge.ui5_api import catalog
from sap_devs.live.sync import run_sync, status
from tests.loopback import Loopback, Route

pytestmark = pytest.mark.anyio

CAP = BY_REPO["capire/docs"]
FIORI = BY_REPO["sap-docs/btp-fiori-tools"]
SHA = {name: f"{n:x}" * 40 for n, name in enumerate(("cap1", "cap2", "cap3", "fio1", "fio2"), start=1)}
LOIO = "0123456789abcdef0123456789abcdef"


def cap_files(word: str) -> dict[str, str]:
    return {
        "index.md": "# Capire\n\nThe CAP documentation home.\n",
        "guides/deploy.md": f"---\ntitle: Deploying\n---\n# Deploying\n\n## To Cloud Foundry\n\nDeploy the {word} app.\n",
        "redirects.md": "- [guides/deployment](guides/deploy)\n",
        "README.md": "# not a page\n",
    }


def fiori_files(word: str) -> dict[str, str]:
    page = f"<!-- loio{LOIO} -->\n\n# Generating an Application\n\nThe {word} generator builds a Fiori app.\n"
    return {"docs/generating.md": page, "LICENSE": "CC-BY-4.0\n"}


def tarball(source: DocSource, sha: str, files: dict[str, str], *, top: str | None = None) -> bytes:
    """A tarball as GitHub serves it: pax global header carrying the commit, one top folder."""
    top = top or f"{source.owner}-{source.name}-{sha[:7]}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": sha}) as tar:
        folder = tarfile.TarInfo(top)
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
        for path, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{path}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def docs_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Two doc sources; a bundled index of capire @ cap1 ('walrus') and fiori @ fio1 ('penguin')."""
    monkeypatch.setattr(docs_sync, "SOURCES", (CAP, FIORI))
    rows = []
    for source, sha, files in ((CAP, SHA["cap1"], cap_files("walrus")), (FIORI, SHA["fio1"], fiori_files("penguin"))):
        tar = tmp_path / f"{source.name}.tar.gz"
        tar.write_bytes(tarball(source, sha, files))
        _, pages, redirects = load_source(source, str(tar))
        rows.append((source, sha, pages, "bundled", None, redirects))
    yield use_bundled(monkeypatch, tmp_path / "bundled" / "docs.sqlite", rows)
    store.reset()


def use_bundled(monkeypatch: pytest.MonkeyPatch, path: Path, rows: list) -> Path:
    """An index built from ``rows`` at ``path``, served as the bundled one (the store forgets what it had open)."""
    build(path, rows)
    monkeypatch.setattr(store, "bundled_path", lambda: path)
    store.reset()
    return path


@pytest.fixture
def server():
    with Loopback().running() as srv:
        yield srv


def docs_source(**policy: object):
    source = docs_sync.SOURCE
    allowed = source.policy.allowed_hosts | {"127.0.0.1"}
    return dataclasses.replace(source, policy=dataclasses.replace(source.policy, allowed_hosts=allowed, **policy))


def bases(server: Loopback) -> dict[str, str]:
    return {"github_api": server.base, "github_codeload": server.base}


def serve_commit(server: Loopback, source: DocSource, sha: str, *, etag: str | None = None) -> None:
    headers = {"ETag": etag} if etag else {}
    server.add(f"/repos/{source.repo}/commits/{source.branch}", body=sha.encode(), headers=headers)


def serve_tarball(server: Loopback, source: DocSource, sha: str, body: bytes, **route: object) -> None:
    server.add(f"/{source.repo}/tar.gz/{sha}", Route(body=body, **route))  # type: ignore[arg-type]


def tarball_requests(server: Loopback) -> list[str]:
    return [r.path for r in server.requests if "/tar.gz/" in r.path]


def search(word: str) -> list[str]:
    hits, _ = store.current().search(word)
    return [h.source for h in hits]


def leftovers() -> list[str]:
    folder = docs_sync.tarball_dir()
    return [p.name for p in folder.iterdir() if p.name.startswith(".")] if folder.is_dir() else []


async def sync(server: Loopback, *, force: bool = True, env: dict[str, str] | None = None, **policy: object):
    [result] = await run_sync([docs_source(**policy)], bases=bases(server), env=env or {}, force=force)
    return result


async def test_unchanged_commits_download_nothing(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap1"])
    serve_commit(server, FIORI, SHA["fio1"])
    result = await sync(server, env={"GITHUB_TOKEN": "ghp_secret"})
    assert result.status == "ok", result.message
    assert tarball_requests(server) == []
    assert not store.synced_path().exists()  # nothing changed: no rebuild
    assert result.items == 3 and "2 unchanged" in (result.message or "")
    commit_calls = [r for r in server.requests if "/commits/" in r.path]
    assert {r.headers["Accept"] for r in commit_calls} == {"application/vnd.github.sha"}
    assert {r.headers["Authorization"] for r in commit_calls} == {"Bearer ghp_secret"}


async def test_changed_commit_brings_new_pages_and_keeps_the_others(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"], etag='"e-cap2"')
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    assert "capire/docs" in search("walrus")
    result = await sync(server)
    assert result.status == "ok", result.message
    assert tarball_requests(server) == [f"/capire/docs/tar.gz/{SHA['cap2']}"]
    assert "capire/docs 1111111 -> 2222222" in (result.message or "")

    index = store.current()
    assert index.path == store.synced_path()
    assert search("narwhal") == ["capire/docs"] and search("walrus") == []
    assert search("penguin") == ["SAP-docs/btp-fiori-tools"]  # carried over unchanged
    info = {s.repo: s for s in index.sources()}
    assert info["capire/docs"].commit == SHA["cap2"] and info["capire/docs"].origin == "synced"
    assert info["capire/docs"].fetched_at
    fiori = info["SAP-docs/btp-fiori-tools"]
    assert (fiori.commit, fiori.origin, fiori.fetched_at) == (SHA["fio1"], "bundled", None)
    # capire's redirects were re-read from the new tarball, fiori's page addresses carried over as they were
    assert index.find_page(page_id="capire/docs:guides/deployment.md") is not None
    assert index.find_page(url=f"{FIORI.help_base}/{LOIO}.html") is not None
    # the tarball stays in the cache folder, no temporary file is left
    assert (docs_sync.tarball_dir() / "capire+docs.tar.gz").read_bytes()[:2] == b"\x1f\x8b"
    assert leftovers() == []
    state = cache.read(docs_sync.CACHE_NAME)
    assert state is not None and state.data["repos"]["capire/docs"] == {"commit": SHA["cap2"], "etag": '"e-cap2"'}


async def test_a_changed_repository_is_indexed_alone_the_others_are_not_read_again(
    server, docs_env, monkeypatch
) -> None:
    from sap_devs.docs.index import DocsIndex

    def no_reading(self: DocsIndex, repo: str) -> object:
        raise AssertionError(f"{repo} was read back and indexed again")

    monkeypatch.setattr(DocsIndex, "pages_of", no_reading)
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    result = await sync(server)
    assert result.status == "ok", result.message
    assert search("narwhal") == ["capire/docs"] and search("walrus") == []
    assert search("penguin") == ["SAP-docs/btp-fiori-tools"]
    info = {s.repo: (s.commit, s.origin) for s in store.current().sources()}
    assert info["SAP-docs/btp-fiori-tools"] == (SHA["fio1"], "bundled") and info["capire/docs"][1] == "synced"


async def test_an_index_whose_terms_were_made_otherwise_is_rebuilt_whole(server, docs_env) -> None:
    import sqlite3

    con = sqlite3.connect(docs_env)  # as an index written by a sap-devs whose analysis or questions differ
    con.execute("UPDATE meta SET value = 'another' WHERE key = 'terms'")
    con.commit()
    con.close()
    store.reset()
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    result = await sync(server)
    assert result.status == "ok", result.message
    assert search("narwhal") == ["capire/docs"] and search("walrus") == []
    assert search("penguin") == ["SAP-docs/btp-fiori-tools"]
    con = sqlite3.connect(store.synced_path())
    assert dict(con.execute("SELECT key, value FROM meta"))["terms"] != "another"  # written anew
    con.close()


async def test_etag_answered_304_downloads_nothing(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"], etag='"e-cap2"')
    serve_commit(server, FIORI, SHA["fio1"], etag='"e-fio1"')
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    assert (await sync(server)).status == "ok"
    built = store.synced_path().stat().st_mtime_ns
    server.routes.clear()
    server.requests.clear()
    for source in (CAP, FIORI):
        server.add(f"/repos/{source.repo}/commits/main", status=304)
    again = await sync(server)
    assert again.status == "ok", again.message
    sent = {r.path.split("/")[3]: r.headers.get("If-None-Match") for r in server.requests}
    assert sent == {"docs": '"e-cap2"', "btp-fiori-tools": '"e-fio1"'}
    assert tarball_requests(server) == []
    assert store.synced_path().stat().st_mtime_ns == built
    assert search("narwhal") == ["capire/docs"]


async def test_fresh_source_is_not_fetched_without_force(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap1"])
    serve_commit(server, FIORI, SHA["fio1"])
    assert (await sync(server)).status == "ok"
    server.requests.clear()
    assert (await sync(server, force=False)).status == "fresh"
    assert server.requests == []


async def test_truncated_tarball_keeps_the_previous_index(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"], etag='"e-cap2"')
    serve_commit(server, FIORI, SHA["fio1"])
    good = tarball(CAP, SHA["cap2"], cap_files("narwhal"))
    serve_tarball(server, CAP, SHA["cap2"], good)
    assert (await sync(server)).status == "ok"
    before = store.synced_path().read_bytes()
    kept_tarball = (docs_sync.tarball_dir() / "capire+docs.tar.gz").read_bytes()
    state_before = cache.cache_file(docs_sync.CACHE_NAME).read_bytes()

    server.routes.clear()
    serve_commit(server, CAP, SHA["cap3"])
    serve_commit(server, FIORI, SHA["fio1"])
    broken = tarball(CAP, SHA["cap3"], cap_files("octopus"))
    serve_tarball(server, CAP, SHA["cap3"], broken[: len(broken) // 2])
    result = await sync(server, retries=0)
    assert result.status == "stale"
    assert "capire/docs" in result.message and "cannot be read" in result.message
    assert "keeping the cached copy" in result.message
    assert store.synced_path().read_bytes() == before
    assert (docs_sync.tarball_dir() / "capire+docs.tar.gz").read_bytes() == kept_tarball
    assert cache.cache_file(docs_sync.CACHE_NAME).read_bytes() == state_before
    assert leftovers() == []
    store.reset()
    assert search("narwhal") == ["capire/docs"] and search("octopus") == []


async def test_server_error_on_first_sync_fails_and_keeps_the_bundled_index(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], b"oops", status=500)
    result = await sync(server, retries=0)
    assert result.status == "failed"
    assert "HTTP 500" in result.message and "capire/docs" in result.message
    assert not store.synced_path().exists() and cache.read(docs_sync.CACHE_NAME) is None
    assert store.current().path == docs_env and search("walrus") == ["capire/docs"]


async def test_one_failing_repository_keeps_its_pages_while_the_other_is_refreshed(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio2"])
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    serve_tarball(server, FIORI, SHA["fio2"], b"", status=503)
    result = await sync(server, retries=0)
    assert result.status == "ok"
    assert "SAP-docs/btp-fiori-tools kept its previous pages" in result.message and "HTTP 503" in result.message
    assert search("narwhal") == ["capire/docs"] and search("penguin") == ["SAP-docs/btp-fiori-tools"]
    info = {s.repo: s for s in store.current().sources()}
    assert info["SAP-docs/btp-fiori-tools"].commit == SHA["fio1"]
    state = cache.read(docs_sync.CACHE_NAME)
    assert state is not None and "SAP-docs/btp-fiori-tools" not in state.data["repos"]  # asked again next time


async def test_a_tarball_of_another_commit_or_an_answer_that_is_no_sha_is_refused(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"])
    server.add(f"/repos/{FIORI.repo}/commits/main", body=b"<html>rate limited</html>")
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap3"], cap_files("octopus")))
    result = await sync(server, retries=0)
    assert result.status == "failed"
    assert f"holds commit {SHA['cap3'][:7]}, not {SHA['cap2'][:7]}" in result.message
    assert "not a SHA" in result.message
    assert not store.synced_path().exists() and leftovers() == []


async def test_codeload_layout_with_the_full_sha_is_read_too(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    body = tarball(CAP, SHA["cap2"], cap_files("narwhal"), top=f"docs-{SHA['cap2']}")
    serve_tarball(server, CAP, SHA["cap2"], body)
    assert (await sync(server)).status == "ok"
    assert search("narwhal") == ["capire/docs"]


async def test_rate_limit_without_token_says_how_to_raise_it(server, docs_env) -> None:
    for source in (CAP, FIORI):
        server.add(f"/repos/{source.repo}/commits/main", status=403)
    result = await sync(server, retries=0)
    assert result.status == "failed" and "every repository failed" in result.message
    assert "GITHUB_TOKEN" in result.message


def test_status_lists_each_repository(docs_env) -> None:
    [result] = status([docs_sync.SOURCE])
    assert result.status == "bundled"
    rows = {r["repo"]: r for r in result.extra["details"]}
    assert rows["capire/docs"] == {"repo": "capire/docs", "commit": SHA["cap1"][:7], "origin": "bundled", "age": ""}


def test_cli_sync_only_docs_exit_code_and_status(server, docs_env, monkeypatch: pytest.MonkeyPatch) -> None:
    from sap_devs.cli.app import app
    from sap_devs.live import sources

    monkeypatch.setattr(sources, "all_sources", lambda: [docs_source(retries=0)])
    monkeypatch.setattr(sources, "default_bases", lambda: bases(server))
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], b"", status=500, times=1)
    failed = CliRunner().invoke(app, ["sync", "--only", "docs"])
    assert failed.exit_code == 1, failed.output
    assert "docs | failed" in failed.output and "HTTP 500" in failed.output

    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    ok = CliRunner().invoke(app, ["sync", "--only", "docs"])
    assert ok.exit_code == 0, ok.output
    # the two repositories' 3 pages, and the API reference pages made from the package's data (never downloaded)
    assert f"docs | ok | {3 + len(catalog.bundled().catalog.symbols)} items" in ok.output
    store.reset()
    assert API_REFERENCE.repo in {s.repo for s in store.current().sources()}

    shown = CliRunner().invoke(app, ["sync", "--status", "--only", "docs"])
    assert shown.exit_code == 0, shown.output
    assert f"capire/docs | {SHA['cap2'][:7]} | synced | age 0 min" in shown.output
    assert f"SAP-docs/btp-fiori-tools | {SHA['fio1'][:7]} | bundled" in shown.output


def test_a_running_reader_picks_up_the_new_index(docs_env, tmp_path: Path) -> None:
    """store.current() re-opens when the synced file's modification time changes."""
    first = store.current()
    assert first.path == docs_env
    synced = store.synced_path()
    synced.parent.mkdir(parents=True, exist_ok=True)
    synced.write_bytes(docs_env.read_bytes())
    assert store.current().path == synced
    opened = store.current()
    os.utime(synced, ns=(synced.stat().st_atime_ns, synced.stat().st_mtime_ns + 10**9))
    assert store.current() is not opened


async def test_progress_counts_checks_then_indexing(server, docs_env) -> None:
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    ticks: list[tuple[str, int, int | None]] = []
    [result] = await run_sync(
        [docs_source()], bases=bases(server), env={}, force=True, progress=lambda *t: ticks.append(t)
    )
    assert result.status == "ok"
    assert [done for _, done, _ in ticks] == [1, 2, 3, 4, 4] and {t for _, _, t in ticks} == {4}


async def test_a_failed_index_write_keeps_the_index_in_use(server, docs_env, monkeypatch) -> None:
    import sqlite3

    def disk_full(*args: object, **kwargs: object) -> dict[str, int]:
        list(args[-1])  # type: ignore[call-overload]
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(docs_sync, "build", disk_full)  # a whole rebuild
    monkeypatch.setattr(docs_sync, "update", disk_full)  # and an update in place
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], cap_files("narwhal")))
    result = await sync(server)
    assert result.status == "failed" and "could not write the documentation index" in result.message
    assert "disk is full" in result.message and cache.read(docs_sync.CACHE_NAME) is None
    assert store.current().path == docs_env and search("walrus") == ["capire/docs"]


def bomb_tarball(source: DocSource, sha: str, word: str, extra: dict[str, bytes]) -> bytes:
    """A real page of ``source`` plus ``extra`` files (path -> content) in GitHub's layout."""
    files = {**cap_files(word)}
    top = f"{source.owner}-{source.name}-{sha[:7]}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": sha}) as tar:
        for path, data in [*((p, t.encode()) for p, t in files.items()), *extra.items()]:
            info = tarfile.TarInfo(f"{top}/{path}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("limit", "value", "extra", "reason"),
    [
        ("MAX_MEMBERS", 60, {f"img/{n}.png": b"" for n in range(100)}, "more than 60 entries"),
        ("MAX_PAGES_BYTES", 64 * 1024, {f"guides/p{n}.md": b"# P\n\n" + b"x" * 8192 for n in range(20)}, "pages hold"),
        ("MAX_EXPANDED_BYTES", 1024 * 1024, {"img/huge.bin": b"\0" * (2 * 1024 * 1024)}, "expands to more"),
    ],
)
async def test_a_tarball_over_a_limit_is_refused_and_the_index_in_use_stays(
    server, docs_env, monkeypatch, limit: str, value: int, extra: dict[str, bytes], reason: str
) -> None:
    from sap_devs.docs import ingest

    monkeypatch.setattr(ingest, limit, value, raising=False)  # the same limits, scaled down to test sizes
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], bomb_tarball(CAP, SHA["cap2"], "kraken", extra))
    result = await sync(server, retries=0)
    assert result.status == "failed", result.message
    assert "capire/docs" in result.message and "refused" in result.message and reason in result.message
    assert not store.synced_path().exists() and leftovers() == []
    assert search("walrus") == ["capire/docs"] and search("kraken") == []


async def test_a_page_over_the_page_limit_is_left_out(server, docs_env) -> None:
    from sap_devs.docs import ingest

    big = b"# Huge\n\n" + b"squid " * (1_800_000 // 6)  # a page no real repository has (the largest: 740 KB)
    assert len(big) > ingest.MAX_PAGE_BYTES
    serve_commit(server, CAP, SHA["cap2"])
    serve_commit(server, FIORI, SHA["fio1"])
    serve_tarball(server, CAP, SHA["cap2"], bomb_tarball(CAP, SHA["cap2"], "kraken", {"guides/huge.md": big}))
    result = await sync(server, retries=0)
    assert result.status == "ok", result.message
    assert search("kraken") == ["capire/docs"] and search("squid") == []


def bundle_twelve_cap_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A bundled index whose capire @ cap1 has twelve 'walrus' pages (enough for the shrink rule); its files."""
    many = {f"guides/topic{n}.md": f"# Topic {n}\n\nThe walrus topic number {n}.\n" for n in range(12)}
    tar = tmp_path / "many.tar.gz"
    tar.write_bytes(tarball(CAP, SHA["cap1"], many))
    _, pages, redirects = load_source(CAP, str(tar))
    use_bundled(monkeypatch, tmp_path / "many" / "docs.sqlite", [(CAP, SHA["cap1"], pages, "bundled", None, redirects)])
    return many


async def test_a_commit_with_far_fewer_pages_keeps_the_previous_pages(
    server, docs_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository that moved its documentation folder upstream must not vanish from search."""
    bundle_twelve_cap_pages(tmp_path, monkeypatch)
    serve_commit(server, CAP, SHA["cap2"])
    moved = {"index.md": "# Capire\n\nThe docs moved to another folder; the octopus stays.\n"}
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], moved))
    result = await sync(server, retries=0)
    assert result.status == "failed"
    assert "has 1 documentation pages where the index has 12" in result.message
    assert "moved or removed its documentation" in result.message
    assert not (docs_sync.tarball_dir() / "capire+docs.tar.gz").exists()  # the refused tarball is not kept
    assert len(search("walrus")) > 5 and search("octopus") == []
    state = cache.read(docs_sync.CACHE_NAME)
    assert state is None or "capire/docs" not in state.data["repos"]  # asked again next time


async def test_a_source_may_shrink_a_little(server, docs_env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    many = bundle_twelve_cap_pages(tmp_path, monkeypatch)
    serve_commit(server, CAP, SHA["cap2"])
    fewer = {path: text.replace("walrus", "narwhal") for path, text in list(many.items())[:7]}
    serve_tarball(server, CAP, SHA["cap2"], tarball(CAP, SHA["cap2"], fewer))
    assert (await sync(server, retries=0)).status == "ok"
    assert len(search("narwhal")) == 7 and search("walrus") == []
