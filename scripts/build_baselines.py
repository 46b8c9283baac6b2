"""Build the bundled offline snapshots from ../shared/data (run by hand when that data changes).

Writes to src/sap_devs/knowledge/data/:
- tutorials-baseline.json: one record per live developers.sap.com tutorial slug (and drafts with
  full metadata). Records with metadata come from tutorials.json; slugs only known from the live
  discovery baseline get a title derived from the slug and `metadata: false`.
- news-baseline.json: SAP Developer News episodes with their SAP Community posts.
- btp-services-baseline.json: the SAP BTP service and application catalogue.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = ROOT.parent / "shared" / "data"
OUT_DIR = ROOT / "src" / "sap_devs" / "knowledge" / "data"
KEEP = ("slug", "title", "description", "tags", "primary_tag", "time_minutes", "level", "url", "steps", "repo")


def build_tutorials(shared: Path) -> dict:
    detailed = {t["slug"]: t for t in json.loads((shared / "tutorials.json").read_text(encoding="utf-8"))}
    baseline = json.loads(
        (shared / "tutorials-ims" / "scripts" / "parsers" / "discovery-baseline.json").read_text(encoding="utf-8")
    )
    records = []
    for slug in sorted(set(detailed) | set(baseline)):
        if slug in detailed:
            rec = {k: detailed[slug].get(k) for k in KEEP}
            rec["live"] = bool(detailed[slug].get("in_live_index"))
            rec["metadata"] = True
        else:
            entry = baseline[slug]
            rec = {
                "slug": slug,
                "title": slug.replace("-", " "),
                "url": f"https://developers.sap.com/tutorials/{slug}.html",
                "repo": f"sap-tutorials/{entry['repo']}",
                "live": True,
                "metadata": False,
            }
        records.append({k: v for k, v in rec.items() if v is not None})
    return {
        "data_as_of": "2026-11-29",
        "sources": [
            "sap-tutorials/* tutorial front matter via shared/data/tutorials.json (CC-BY-4.0; btp-adai Apache-2.0)",
            "sap-tutorials/tutorials-ims scripts/parsers/discovery-baseline.json (Apache-2.0)",
        ],
        "tutorials": records,
    }


def build_news(shared: Path) -> dict:
    raw = json.loads((shared / "sap-devs-cli" / "content" / "packs" / "base" / "news-episodes.json").read_text())
    episodes = []
    for item in raw:
        ep, post = item["Episode"], item.get("Community") or {}
        episodes.append(
            {
                "id": ep["ID"],
                "title": ep["Title"],
                "url": ep["URL"],
                "published": ep["Published"],
                "description": ep.get("Description") or "",
                "community_url": post.get("URL") or None,
                "community_title": post.get("Title") or None,
            }
        )
    episodes.sort(key=lambda e: e["published"], reverse=True)
    return {
        "data_as_of": episodes[0]["published"][:10],
        "sources": ["SAP-samples/sap-devs-cli content/packs/base/news-episodes.json (Apache-2.0)"],
        "episodes": episodes,
    }


def build_services(shared: Path) -> dict:
    root = shared / "btp-service-metadata" / "v0"
    inventory = json.loads((root / "inventory.json").read_text())
    services = []
    for entry in inventory:
        detail = json.loads((root / "developer" / entry["fileName"]).read_text())
        links = {link.get("classification"): link.get("value") for link in detail.get("links") or []}
        plans = [
            {"name": p["name"], "free": bool(p.get("isFree")), "beta": bool(p.get("isBeta"))}
            for p in detail.get("servicePlans") or []
        ]
        services.append(
            {
                "id": entry["technicalId"],
                "name": detail.get("displayName") or entry["displayName"],
                "category": entry["category"].lower(),
                "description": detail.get("description") or entry.get("description") or "",
                "documentation": links.get("Documentation"),
                "discovery_center": links.get("Discovery Center"),
                "plans": plans,
            }
        )
    return {
        "data_as_of": "2026-08-22",
        "sources": ["SAP-samples/btp-service-metadata v0 (Apache-2.0), commit 806df7c24304"],
        "services": services,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, data in (
        ("tutorials-baseline.json", build_tutorials(args.shared)),
        ("news-baseline.json", build_news(args.shared)),
        ("btp-services-baseline.json", build_services(args.shared)),
    ):
        out = OUT_DIR / name
        out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
