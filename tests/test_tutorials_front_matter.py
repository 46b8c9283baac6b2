"""Front-matter facts for the tutorials whose repositories are too large to copy (issue #30).

data/tutorials/front-matter/<repo>.jsonl holds the title, description and tags read from each
tutorial's own file; scripts/build_baselines.py merges them into the bundled snapshot. These tests
check the data, the merge and that search now finds those tutorials by their real words.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from sap_devs.live.tutorials import index as tutorials

ROOT = Path(__file__).resolve().parent.parent
FRONT_MATTER = ROOT / "data" / "tutorials" / "front-matter"
BASELINE = ROOT / "src" / "sap_devs" / "live" / "data" / "tutorials-baseline.json"


def _builder():
    spec = importlib.util.spec_from_file_location("build_baselines", ROOT / "scripts" / "build_baselines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _builder()
FACTS = BUILD.load_front_matter(FRONT_MATTER)
RECORDS = {r["slug"]: r for r in json.loads(BASELINE.read_text(encoding="utf-8"))["tutorials"]}


def test_the_front_matter_covers_the_four_large_repositories() -> None:
    repos = {f["repo"] for f in FACTS.values()}
    assert {
        "sap-tutorials/abap-core-development",
        "sap-tutorials/sap-build-process-automation",
        "sap-tutorials/sap-mobile-development-kit",
    } <= repos
    assert len([f for f in FACTS.values() if f.get("found", True)]) >= 300


def test_every_fact_read_is_in_the_bundled_snapshot_with_its_real_title() -> None:
    for slug, fact in FACTS.items():
        if not fact.get("found", True):
            continue
        record = RECORDS[slug]
        assert record["metadata"] is True, slug
        assert record["title"] == fact["title"], slug
        assert record["title"] != slug.replace("-", " "), slug
        assert record["tags"] == fact["tags"], slug
        assert record["repo"] == fact["repo"], slug
        assert record.get("description") == fact.get("description"), slug
        assert record.get("level") == fact.get("level"), slug


def test_facts_record_where_they_were_read() -> None:
    for slug, fact in FACTS.items():
        # a folder may hold its tutorial under another name; it is still a Markdown file in that folder
        assert fact["path"].startswith(f"tutorials/{slug}/") and fact["path"].endswith(".md"), slug
        if fact.get("found", True):
            assert re.fullmatch(r"[0-9a-f]{40}", fact["commit"]), slug
            assert fact.get("read_from", fact["repo"]).startswith("sap-tutorials/"), slug
            assert len(fact.get("description", "")) <= 300, slug
            assert fact.get("level") in (None, "beginner", "intermediate", "advanced"), slug


def test_a_tutorial_whose_file_was_not_found_keeps_its_slug_title_and_is_counted() -> None:
    missing = [slug for slug, fact in FACTS.items() if not fact.get("found", True)]
    assert missing, "the data records at least one file the index does not hold"
    for slug in missing:
        assert FACTS[slug]["note"], slug
        record = RECORDS[slug]
        assert record["metadata"] is False, slug
        assert record["title"] == slug.replace("-", " "), slug
    counts = BUILD.slug_titled(list(RECORDS.values()))
    for slug in missing:
        assert counts[RECORDS[slug]["repo"]] >= 1
    assert sum(counts.values()) == sum(1 for r in RECORDS.values() if not r["metadata"])


def test_no_slug_title_is_left_where_a_fact_was_read() -> None:
    read = {slug for slug, fact in FACTS.items() if fact.get("found", True)}
    slug_titled = {slug for slug, r in RECORDS.items() if not r["metadata"]}
    assert not read & slug_titled


def test_every_tutorial_still_titled_by_its_slug_is_one_recorded_as_not_found() -> None:
    """No published slug of the four large repositories is left unread: each has facts or a note."""
    slug_titled = {slug for slug, r in RECORDS.items() if not r["metadata"]}
    not_found = {slug for slug, fact in FACTS.items() if not fact.get("found", True)}
    assert slug_titled == not_found


def _write(folder: Path, name: str, *lines: dict | str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    (folder / f"{name}.jsonl").write_text(text, encoding="utf-8")


GOOD = {
    "slug": "abap-hello",
    "repo": "sap-tutorials/abap-core-development",
    "path": "tutorials/abap-hello/abap-hello.md",
    "commit": "0" * 40,
    "title": "Say Hello in ABAP",
    "tags": ["tutorial>beginner"],
    "level": "beginner",
}


def test_the_loader_reads_good_records(tmp_path: Path) -> None:
    gone = {"slug": "abap-gone", "repo": GOOD["repo"], "path": "x", "found": False, "note": "not in the index"}
    _write(tmp_path, "abap-core-development", GOOD, gone)
    facts = BUILD.load_front_matter(tmp_path)
    assert set(facts) == {"abap-hello", "abap-gone"}


@pytest.mark.parametrize(
    "line",
    [
        "{not json",
        {**GOOD, "repo": "sap-tutorials/Tutorials"},
        {**GOOD, "commit": "abc"},
        {**GOOD, "title": " "},
        {**GOOD, "tags": "tutorial>beginner"},
        {"slug": "abap-gone", "repo": GOOD["repo"], "found": False},
    ],
)
def test_the_loader_refuses_bad_records(tmp_path: Path, line: dict | str) -> None:
    _write(tmp_path, "abap-core-development", line)
    with pytest.raises(SystemExit):
        BUILD.load_front_matter(tmp_path)


def test_the_loader_refuses_a_slug_twice(tmp_path: Path) -> None:
    _write(tmp_path, "abap-core-development", GOOD, GOOD)
    with pytest.raises(SystemExit):
        BUILD.load_front_matter(tmp_path)


def test_a_listed_record_takes_the_facts_or_falls_back_to_its_slug() -> None:
    repo = GOOD["repo"]
    rec = BUILD.listed_record("abap-hello", repo, GOOD)
    assert (rec["title"], rec["metadata"], rec["level"], rec["status"]) == (
        "Say Hello in ABAP",
        True,
        "beginner",
        "published",
    )
    assert BUILD.listed_record("abap-hello", repo, None)["title"] == "abap hello"
    gone = {"slug": "abap-hello", "repo": repo, "found": False, "note": "n"}
    assert BUILD.listed_record("abap-hello", repo, gone)["metadata"] is False
    with pytest.raises(SystemExit):
        BUILD.listed_record("abap-hello", "sap-tutorials/Tutorials", GOOD)


def _shared(tmp_path: Path) -> Path:
    listing = {s: {"slug": s, "repo": "abap-core-development"} for s in ("abap-hello", "abap-other")}
    parsers = tmp_path / "tutorials-ims" / "scripts" / "parsers"
    parsers.mkdir(parents=True)
    (parsers / "discovery-baseline.json").write_text(json.dumps(listing), encoding="utf-8")
    (tmp_path / "tutorials.json").write_text("[]", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "| `tutorials-ims/scripts/parsers/discovery-baseline.json` | ... |\n\n"
        "| repo | commit | commit date | records | live | licence |\n| --- | --- | --- | --- | --- | --- |\n"
        "| btp-foundation | 0123456789ab | 2026-08-21 | 0 | 0 | CC-BY-4.0 |\n\n"
        "- `scripts/parsers/discovery-baseline.json` is the platform's record (last changed 2026-07-01).\n",
        encoding="utf-8",
    )
    return tmp_path


def test_the_build_merges_facts_and_names_the_repositories_read(tmp_path: Path) -> None:
    built = BUILD.build_tutorials(_shared(tmp_path), {"abap-hello": GOOD})
    got = {r["slug"]: (r["title"], r["metadata"], r["live"]) for r in built["tutorials"]}
    assert got == {"abap-hello": ("Say Hello in ABAP", True, True), "abap-other": ("abap other", False, True)}
    assert any("abap-core-development" in s and "REUSE.toml" in s for s in built["sources"])
    assert BUILD.slug_titled(built["tutorials"]) == {"sap-tutorials/abap-core-development": 1}


def test_the_build_refuses_facts_for_slugs_the_list_does_not_publish(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        BUILD.build_tutorials(_shared(tmp_path), {"abap-nowhere": {**GOOD, "slug": "abap-nowhere"}})


@pytest.mark.parametrize(
    ("query", "slug"),
    [
        ("SOAMANAGER", "ws-local-configuration"),
        ("WebSocket RFC SAP Business Connector", "abap-websocket-rfc-bc"),
        ("billing completeness data product", "joule-studio-bdc-agent-create"),
        ("Petstore", "cp-mobile-dev-kit-rest-api"),
        ("Screen Personas barcode scanning", "personas-mobile-workbook-build-flavor"),
        ("K-anonymity XS Advanced", "xsa-calculation-views-anonymization-k"),
        # these two were read from a file in the slug's folder that is not named after the slug
        ("scheduled data upload ingestion API", "signavio-process-intelligence-upload-data-using-cloud-integration"),
        ("Omnichannel Promotion Pricing reserve coupon code", "opps-basic-scenario-redeem-multicode-coupon"),
    ],
)
def test_search_finds_them_by_words_only_in_their_real_title(query: str, slug: str) -> None:
    """Each query misses its tutorial in the snapshot built before these facts (slug titles only)."""
    assert FACTS[slug].get("found", True)
    slug_words = set(slug.split("-"))
    assert any(word.lower() not in slug_words for word in query.split())
    items, _ = tutorials._baseline()
    top = [t.slug for t in tutorials.search(items, query)[:3]]
    assert slug in top, top
