"""Build the bundled offline snapshots from ../shared/data (run by hand when that data changes).

Writes to src/sap_devs/live/data/:
- tutorials-baseline.json: one record per developers.sap.com tutorial slug, in the platform's
  discovery list (tutorials-ims) or in tutorials.json. Records with metadata come from
  tutorials.json, or, for the four repositories too large to copy (Tutorials,
  abap-core-development, sap-build-process-automation, sap-mobile-development-kit), from the
  front-matter facts in data/tutorials/front-matter/<repo>.jsonl (see data/tutorials/README.md);
  a listed slug with neither gets a title derived from the slug and `metadata: false`. Each record
  has a `status` (see sap_devs.live.tutorials.index): `published` when the list has it; otherwise
  `new` when our copy of its repository is newer than the list (added since; shown when its
  metadata is full, else `draft`), `withdrawn` when the list is newer than our copy and left it out.
- news-baseline.json: SAP Developer News episodes with their SAP Community posts.
- btp-services-baseline.json: the SAP BTP service and application catalogue.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from pathlib import Path

from sap_devs.live.tutorials.index import LIVE_STATUSES, unlisted_status

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = ROOT.parent / "shared" / "data"
OUT_DIR = ROOT / "src" / "sap_devs" / "live" / "data"
FRONT_MATTER = ROOT / "data" / "tutorials" / "front-matter"
KEEP = ("slug", "title", "description", "tags", "primary_tag", "time_minutes", "level", "url", "steps", "repo")


# shared/data/README.md: the commit and date of each repository copy behind tutorials.json, and the
# date the discovery list last changed
_REPO_ROW = re.compile(r"^\| ([A-Za-z0-9._-]+) \| ([0-9a-f]{12}) \| (\d{4}-\d{2}-\d{2}) \|", re.M)
_LIST_CHANGED = re.compile(r"discovery-baseline\.json`.*?\(last changed (\d{4}-\d{2}-\d{2})\)", re.S)


def source_dates(readme: str) -> tuple[dict[str, tuple[str, dt.date]], dt.date]:
    """Per repository (``sap-tutorials/<name>``) the commit and date of our copy; the list's date."""
    repos = {f"sap-tutorials/{m[1]}": (m[2], dt.date.fromisoformat(m[3])) for m in _REPO_ROW.finditer(readme)}
    listed = _LIST_CHANGED.search(readme)
    if not repos or listed is None:
        raise SystemExit("shared/data/README.md no longer says when the tutorial sources were copied")
    return repos, dt.date.fromisoformat(listed[1])


FACT_FIELDS = ("title", "description", "tags", "primary_tag", "time_minutes", "level")


def load_front_matter(folder: Path = FRONT_MATTER) -> dict[str, dict]:
    """Per slug, the front-matter facts read from one repository's file (or a note that it was not found)."""
    facts: dict[str, dict] = {}
    for path in sorted(folder.glob("*.jsonl")):
        repo = f"sap-tutorials/{path.stem}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{number}"
            try:
                fact = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{where}: not JSON ({exc})") from None
            slug = fact.get("slug")
            if not isinstance(slug, str) or fact.get("repo") != repo:
                raise SystemExit(f"{where}: needs a slug and repo {repo!r}")
            if slug in facts:
                raise SystemExit(f"{where}: {slug} appears twice")
            if fact.get("found", True):
                if not str(fact.get("title") or "").strip() or not re.fullmatch(
                    r"[0-9a-f]{40}", fact.get("commit", "")
                ):
                    raise SystemExit(f"{where}: {slug} needs the title read and the commit of the file")
                if not isinstance(fact.get("tags"), list):
                    raise SystemExit(f"{where}: {slug} needs its tags as a list")
            elif not fact.get("note"):
                raise SystemExit(f"{where}: {slug} was not found; say where it was looked for in `note`")
            facts[slug] = fact
    return facts


def listed_record(slug: str, repo: str, fact: dict | None) -> dict:
    """A slug the discovery list publishes but tutorials.json lacks: its front-matter facts when
    they were read, else a title derived from the slug and ``metadata: false``."""
    rec: dict = {"slug": slug, "url": f"https://developers.sap.com/tutorials/{slug}.html", "repo": repo}
    if fact is not None and fact.get("found", True):
        if fact["repo"] != repo:
            raise SystemExit(f"{slug}: the list says {repo}, the front matter was read from {fact['repo']}")
        rec.update({k: fact.get(k) for k in FACT_FIELDS}, status="published", metadata=True)
    else:
        rec.update(title=slug.replace("-", " "), status="published", metadata=False)
    return rec


def slug_titled(records: list[dict]) -> dict[str, int]:
    """Per repository, how many records still have only a title derived from their slug."""
    counts: dict[str, int] = {}
    for record in records:
        if not record["metadata"]:
            counts[record["repo"]] = counts.get(record["repo"], 0) + 1
    return counts


def build_tutorials(shared: Path, front_matter: dict[str, dict] | None = None) -> dict:
    detailed = {t["slug"]: t for t in json.loads((shared / "tutorials.json").read_text(encoding="utf-8"))}
    baseline = json.loads(
        (shared / "tutorials-ims" / "scripts" / "parsers" / "discovery-baseline.json").read_text(encoding="utf-8")
    )
    copies, list_date = source_dates((shared / "README.md").read_text(encoding="utf-8"))
    facts = front_matter or {}
    stray = sorted(set(facts) - (set(baseline) - set(detailed)))
    if stray:
        raise SystemExit(f"front matter for slugs the list does not publish or tutorials.json has: {', '.join(stray)}")
    undated = sorted({t["repo"] for t in detailed.values()} - set(copies))
    if undated:
        raise SystemExit(f"no copy date for {', '.join(undated)} in shared/data/README.md")
    records = []
    for slug in sorted(set(detailed) | set(baseline)):
        if slug in detailed:
            source = detailed[slug]
            rec = {k: source.get(k) for k in KEEP}
            # in_live_index: in the list, from this repository. A record the list does not have was
            # added after the list was written if our copy of its repository is newer than the list;
            # if our copy is older, the list is the newer word and the platform dropped it.
            if source.get("in_live_index"):
                rec["status"] = "published"
            else:
                rec["status"] = unlisted_status(source, read_after_list=copies[source["repo"]][1] > list_date)
            rec["metadata"] = True
        else:
            rec = listed_record(slug, f"sap-tutorials/{baseline[slug]['repo']}", facts.get(slug))
        rec["live"] = rec["status"] in LIVE_STATUSES
        records.append({k: v for k, v in rec.items() if v is not None})
    read = sorted(
        {f.get("read_from", f["repo"]) for f in facts.values() if f.get("found", True)}
        | {f["repo"] for f in facts.values() if f.get("found", True)}
    )
    sources = [
        "sap-tutorials/* tutorial front matter via shared/data/tutorials.json (CC-BY-4.0; btp-adai Apache-2.0): "
        + ", ".join(f"{repo.split('/', 1)[1]}@{commit} ({day})" for repo, (commit, day) in sorted(copies.items())),
    ]
    if read:
        sources.append(
            "sap-tutorials/{" + ",".join(r.split("/", 1)[1] for r in read) + "} tutorial front matter (CC-BY-4.0 per "
            "REUSE.toml), read file by file on 2026-12-01; the commit of each file is in data/tutorials/front-matter/"
        )
    return {
        "data_as_of": "2026-11-29",
        "list_as_of": list_date.isoformat(),
        "sources": [
            *sources,
            f"sap-tutorials/tutorials-ims scripts/parsers/discovery-baseline.json (Apache-2.0), last changed {list_date}",
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
    tutorials = build_tutorials(args.shared, load_front_matter())
    counts: dict[str, int] = {}
    for record in tutorials["tutorials"]:
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    print("tutorials by status:", ", ".join(f"{n} {status}" for status, n in sorted(counts.items())))
    left = slug_titled(tutorials["tutorials"])
    print("still titled by their slug:", ", ".join(f"{n} {repo}" for repo, n in sorted(left.items())) or "none")
    for name, data in (
        ("tutorials-baseline.json", tutorials),
        ("news-baseline.json", build_news(args.shared)),
        ("btp-services-baseline.json", build_services(args.shared)),
    ):
        out = OUT_DIR / name
        out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
