"""Sync wall time per source and cache sizes, against a loopback server with recorded-format data.

The loopback server answers in the real formats at realistic volumes (1,400 tutorials in 18
repositories, a 5,000-item learning catalogue, feeds, Khoros, Discovery Center). Network latency
is not simulated, so the figures show sap-devs' own cost. Usage: python benchmarks/sync.py
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.loopback import Loopback  # noqa: E402

RECORDED = ROOT / "tests" / "data" / "recorded"
MD = "---\nparser: v2\ntime: 20\ntags: [ tutorial>beginner, programming-tool>node-js ]\n---\n# Tutorial {n}\n" + (
    "<!-- description --> Learn something useful.\n\n---\n\n" + "### Step\nText.\n" * 6
)


def serve(srv: Loopback) -> None:
    from sap_devs.knowledge import news_sync, tutorials_sync

    repos, _, _ = tutorials_sync._known_repos()
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
        from sap_devs.knowledge.sources import all_sources
        from sap_devs.knowledge.sync import run_sync

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
            ]
            results = [anyio.run(lambda s=s: run_sync([s], bases=bases, env={}, force=True)) for s in sources]
        print(f"{'source':10} {'status':7} {'items':>6} {'seconds':>8} {'cache KiB':>10}")
        for source, [r] in zip(sources, results, strict=True):
            size = cache.cache_file(source.cache_name).stat().st_size / 1024
            print(f"{r.name:10} {r.status:7} {r.items or 0:>6} {r.seconds:>8.2f} {size:>10.1f}")


if __name__ == "__main__":
    main()
