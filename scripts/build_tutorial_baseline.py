"""Build the bundled developers.sap.com tutorial index from ../shared/data (run by hand when it changes).

Output: src/sap_devs/knowledge/data/tutorials-baseline.json, a compact JSON object
{"generated": DATE, "sources": [...], "tutorials": [...]} with one record per live slug (and the
drafts that have full metadata). Records with full metadata come from tutorials.json; slugs only
known from the live discovery baseline get a title derived from the slug and `metadata: false`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "src" / "sap_devs" / "knowledge" / "data" / "tutorials-baseline.json"
KEEP = ("slug", "title", "description", "tags", "primary_tag", "time_minutes", "level", "url", "steps", "repo")


def build(shared: Path) -> dict:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()
    data = build(args.shared)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data['tutorials'])} tutorials, {OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
