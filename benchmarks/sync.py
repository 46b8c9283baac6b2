"""Sync wall time per source and cache sizes, against a loopback server with recorded-format data.

The loopback server answers in the real formats at realistic volumes (1,400 tutorials in 18
repositories, a 5,000-item learning catalogue, feeds, Khoros, Discovery Center). Network latency
is not simulated, so the figures show sap-devs' own cost. Usage: python benchmarks/sync.py [--docs-only]

The docs part serves the ten real documentation tarballs of data/docs the way GitHub does (the API's
bare commit SHA, codeload's tarball of it) and times ``sync --only docs`` with every repository
new (no index yet), one repository changed (the rest carried over from the bundled index) and none
changed (commits equal to the bundled index's: nothing downloaded).
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import os
import resource
import sys
import tarfile
import tempfile
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback import Loopback  # noqa: E402

RECORDED = ROOT / "tests" / "data" / "recorded"
MD = "---\nparser: v2\ntime: 20\ntags: [ tutorial>beginner, programming-tool>node-js ]\n---\n# Tutorial {n}\n" + (
    "<!-- description --> Learn something useful.\n\n---\n\n" + "### Step\nText.\n" * 6
)


SHARED_RELEASED = ROOT.parent / "shared" / "data" / "abap-released-apis"


def serve_released_apis(srv: Loopback) -> None:
    """SAP's full release-info files when the workspace has them (about 40 MB unpacked), else the test excerpts."""
    from sap_devs.live.released_apis.lists import UPSTREAM_FILES

    for path in UPSTREAM_FILES.values():
        name = Path(path).name
        full = SHARED_RELEASED / (name + ".gz")
        body = (
            gzip.decompress(full.read_bytes())
            if full.is_file()
            else (RECORDED.parent / "released-apis" / name).read_bytes()
        )
        srv.add(f"/SAP/abap-atc-cr-cv-s4hc/main/{path}", body=body)


def serve(srv: Loopback) -> None:
    from sap_devs.live.news import sync as news_sync
    from sap_devs.live.tutorials import sync as tutorials_sync

    serve_released_apis(srv)

    repos, _ = tutorials_sync._known_repos()
    for r, repo in enumerate(repos):
        srv.add(f"/repos/sap-tutorials/{repo}", body=json.dumps({"default_branch": "main"}).encode())
        slugs = [f"{repo}-t{i}" for i in range(80)]
        tree = {"sha": f"sha{r}", "tree": [{"path": f"tutorials/{s}/{s}.md"} for s in slugs]}
        srv.add(f"/repos/sap-tutorials/{repo}/git/trees/main", body=json.dumps(tree).encode())
        for i, s in enumerate(slugs):
            srv.add(f"/sap-tutorials/{repo}/main/tutorials/{s}/{s}.md", body=MD.format(n=i).encode())
    catalogue = [
        {
            "Learning_type": "Learning Journey" if i % 3 == 0 else "Course",
            "Title": f"Journey {i}",
            "Description": "A description " * 40,
            "Level": "Beginner",
            "Duration_in_hours": "12",
            "Role": "Developer",
            "LSC_product": "SAP BTP",
            "Direct_link": {"hyperlink": f"https://learning.sap.com/learning-journeys/j-{i}"},
        }
        for i in range(5000)
    ]
    srv.add("/service/catalog-download/json", body=json.dumps(catalogue).encode())
    feed = (RECORDED / "playlist.xml").read_bytes()
    srv.add(f"/feeds/videos.xml?playlist_id={news_sync.PLAYLIST_ID}", body=feed)
    srv.add("/feeds/videos.xml?channel_id=UCNfmelKDrvRmjYwSi9yvrMg", body=feed)
    srv.add("/khhcw49343/rss/board?board.id=developer-news", body=(RECORDED / "posts.xml").read_bytes())
    srv.add("/t5/devtoberfest/bg-p/devtoberfest/rss", body=(RECORDED / "posts.xml").read_bytes())
    srv.add("/api/2.0/search", body=json.dumps({"status": "success", "data": {"items": []}}).encode())
    srv.add("/platformx/", headers={"x-csrf-token": "t"})
    groups = [{"missions": [{"Id": i, "Name": f"Mission {i}", "UCLongDescription": "x" * 300} for i in range(400)]}]
    inner = json.dumps({"d": {"GetMissionCatalogContentV2": json.dumps(groups)}})
    srv.add(
        "/platformx/$batch",
        body=f"--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 200 OK\r\n\r\n{inner}\r\n--b--".encode(),
    )
    services = {"d": {"results": [{"Id": str(i), "Name": f"Service {i}", "ShortName": f"s-{i}"} for i in range(300)]}}
    srv.add("/servicecatalog/ServiceDetailss", body=json.dumps(services).encode())


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SAP_DEVS_CACHE_DIR"] = tmp
        from sap_devs.core import cache
        from sap_devs.live.sources import all_sources
        from sap_devs.live.sync import run_sync

        with Loopback().running() as srv:
            serve(srv)
            bases = dict.fromkeys(
                ("github_api", "github_raw", "youtube", "community", "youtube_api", "learning", "khoros", "discovery"),
                srv.base,
            )
            sources = [
                dataclasses.replace(
                    s, policy=dataclasses.replace(s.policy, allowed_hosts=s.policy.allowed_hosts | {"127.0.0.1"})
                )
                for s in all_sources()
                if s.name != "docs"  # measured on its own below, with the real repositories
            ]
            results = [anyio.run(lambda s=s: run_sync([s], bases=bases, env={}, force=True)) for s in sources]
        print(f"{'source':13} {'status':7} {'items':>6} {'seconds':>8} {'cache KiB':>10}")
        for source, [r] in zip(sources, results, strict=True):
            path = cache.cache_file(source.cache_name)  # sources that keep their own store have no cache file
            size = f"{path.stat().st_size / 1024:.1f}" if path.is_file() else "-"
            print(f"{r.name:13} {r.status:7} {r.items or 0:>6} {r.seconds:>8.2f} {size:>10}")
            if r.status != "ok":
                print(f"  {r.message}")


def _repacked(tar_path: Path, top: str) -> bytes:
    """The tarball with its top folder renamed (a new commit of the same content)."""
    out = io.BytesIO()
    with tarfile.open(tar_path, "r:gz") as src, tarfile.open(fileobj=out, mode="w:gz") as dst:
        for member in src.getmembers():
            handle = src.extractfile(member) if member.isfile() else None
            member.name = top + member.name[member.name.index("/") :] if "/" in member.name else top
            dst.addfile(member, handle)
    return out.getvalue()


def docs() -> None:
    from sap_devs.docs import store
    from sap_devs.docs import sync as docs_sync
    from sap_devs.docs.build import tarball_name
    from sap_devs.docs.sources import SOURCES
    from sap_devs.live.sync import run_sync

    # ten commit requests at once overflow the loopback server's default listen backlog of 5, and the
    # kernel retries a dropped connection after a second: that would be measured, not sap-devs
    ThreadingHTTPServer.request_queue_size = 64
    data = ROOT / "data" / "docs"
    bundled = store.bundled_path()
    commits: dict[str, str] = {}
    for source in SOURCES:
        with tarfile.open(data / tarball_name(source), "r:gz") as tar:
            first = next(m for m in tar.getmembers() if m.isfile())
        commits[source.repo] = first.name.split("/", 1)[0].rsplit("-", 1)[1]
    source = dataclasses.replace(
        docs_sync.SOURCE,
        policy=dataclasses.replace(
            docs_sync.SOURCE.policy, allowed_hosts=docs_sync.SOURCE.policy.allowed_hosts | {"127.0.0.1"}
        ),
    )
    changed_repo = "capire/docs"
    new_sha = "f" * 40
    print(f"\n{'docs sync (10 real repositories)':40} {'status':7} {'pages':>6} {'seconds':>8} {'tarball MiB':>12}")
    for scenario in ("every repository new", "one repository changed", "none changed"):
        with tempfile.TemporaryDirectory() as tmp, Loopback().running() as srv:
            os.environ["SAP_DEVS_CACHE_DIR"] = tmp
            store.bundled_path = (
                (lambda: Path(tmp) / "none.sqlite") if scenario.startswith("every") else lambda: bundled
            )
            store.reset()
            served = 0
            for doc in SOURCES:
                sha = new_sha if scenario.startswith("one") and doc.repo == changed_repo else commits[doc.repo]
                srv.add(f"/repos/{doc.repo}/commits/{doc.branch}", body=sha.encode(), headers={"ETag": f'"{sha}"'})
                if sha == new_sha:
                    body = _repacked(data / tarball_name(doc), f"{doc.name}-{sha}")
                else:
                    body = (data / tarball_name(doc)).read_bytes()
                srv.add(f"/{doc.repo}/tar.gz/{sha}", body=body)
                served += len(body) if scenario.startswith("every") or sha == new_sha else 0
            bases = {"github_api": srv.base, "github_codeload": srv.base}
            started = time.perf_counter()
            [result] = anyio.run(lambda b=bases: run_sync([source], bases=b, env={}, force=True))
            seconds = time.perf_counter() - started
            print(f"{scenario:40} {result.status:7} {result.items or 0:>6} {seconds:>8.2f} {served / 2**20:>12.1f}")
            if result.status != "ok":
                print(f"  {result.message}")
    store.bundled_path = lambda: bundled
    store.reset()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the benchmark process: {peak:.0f} MiB")


if __name__ == "__main__":
    if "--docs-only" not in sys.argv[1:]:
        main()
    docs()
