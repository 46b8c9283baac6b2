"""Quality gates for the bundled knowledge: valid, linked to official hosts, findable, layered by verbosity."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from sap_devs.core import paths
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.queries import find_known_errors
from sap_devs.knowledge.validate import validate_path
from tests.conftest import bundled_layer

KB = KnowledgeBase.load(layers=[bundled_layer()])
BASELINE = paths.bundled_root() / "live" / "data" / "tutorials-baseline.json"


def test_bundled_packs_and_profiles_validate_without_errors_or_warnings() -> None:
    report = validate_path(paths.bundled_root())
    assert report.problems == [], "\n".join(str(p) for p in report.problems)
    assert set(report.packs) == set(KB.pack_ids)


@pytest.mark.parametrize("kind", ["resources", "known_errors", "samples", "tools", "event_instances"])
def test_ids_are_unique_across_packs(kind: str) -> None:
    counts = Counter(item.id for pack in KB.packs for item in getattr(pack, kind))
    assert [i for i, n in counts.items() if n > 1] == []


def test_tutorial_slugs_exist_in_the_bundled_tutorial_index() -> None:
    known = {t["slug"] for t in json.loads(BASELINE.read_text(encoding="utf-8"))["tutorials"]}
    missing = [(p.id, t.slug) for p in KB.packs for t in p.tutorials if t.slug not in known]
    assert missing == []
    featured = [t for p in KB.packs for t in p.tutorials if t.featured]
    assert featured, "packs feature tutorials"


# Entries whose messages differ only in words the search cannot weigh (no/not, word order): either
# may come first for the other's message, but the two must lead together.
NEAR_DUPLICATES = {
    frozenset({"cap/cds-compiler-no-artifact-found", "cap/cds-compiler-artifact-not-found"}),
}


def _as_pasted(pattern: str) -> str:
    """The pattern the way it reaches the tool: placeholders filled with a user's own name, inside
    a log line with a timestamp and a file path."""
    message = pattern.replace("...", "ZCL_MY_ORDER_42").replace("\u2026", "ZCL_MY_ORDER_42")
    return f"2026-11-30T05:00:00Z {message} (/home/dev/project/srv/service.js:42)"


def test_no_two_known_errors_share_a_pattern() -> None:
    patterns = Counter(e.pattern.strip().lower() for p in KB.packs for e in p.known_errors)
    assert [p for p, n in patterns.items() if n > 1] == []


@pytest.mark.parametrize("entry", [e for p in KB.packs for e in p.known_errors], ids=lambda e: e.id)
def test_every_known_error_comes_first_for_its_message_as_pasted(entry) -> None:
    """Not the pattern itself (that only tests that a text finds itself among 100 others): the
    message with a real name for its placeholder and a log line's noise around it, ranked first."""
    top = [e.id for _, e in find_known_errors(KB, _as_pasted(entry.pattern))]
    assert top, f"nothing found for {_as_pasted(entry.pattern)!r}"
    twins = next((pair for pair in NEAR_DUPLICATES if entry.id in pair), None)
    if twins:
        assert set(top[:2]) == twins, top[:3]
    else:
        assert top[0] == entry.id, top[:3]


@pytest.mark.parametrize("pack", KB.packs, ids=lambda p: p.id)
def test_context_grows_with_verbosity(pack) -> None:
    minimal, standard, full = (pack.context.at(v) for v in ("minimal", "standard", "full"))
    assert minimal, "minimal is a short orientation"
    assert len(minimal) < len(standard) <= len(full)
    if not pack.meta.base:
        assert len(minimal) < len(standard) < len(full), "full adds the extended reference"
    assert len(minimal) < 3000, "minimal stays short (~200-300 tokens)"


def test_minimum_totals_across_packs() -> None:
    def total(kind: str) -> int:
        return sum(len(getattr(p, kind)) for p in KB.packs)

    assert {"base", "cap", "abap", "btp", "fiori-ui5", "hana-cloud", "integration-suite", "build"} <= set(KB.pack_ids)
    assert total("known_errors") >= 80
    assert total("resources") >= 100
    assert total("tips") >= 80
    assert total("samples") >= 30
    assert len({t.id for p in KB.packs for t in p.tools}) >= 15
    expected = {"cap-developer", "abap-developer", "btp-developer", "fiori-developer", "integration-developer"}
    assert expected <= set(KB.profiles)


@pytest.mark.parametrize("profile", sorted(KB.profiles), ids=str)
def test_profiles_name_existing_packs_and_tags_with_tips(profile: str) -> None:
    prof = KB.profiles[profile]
    assert {p.id for p in prof.packs} <= set(KB.pack_ids)
    tags = {t for p in KB.packs for tip in p.tips for t in tip.tags}
    assert set(prof.tip_tags) & tags, "at least one preferred tag has tips"


def test_cap_developer_profile_brings_what_cap_projects_use() -> None:
    """A CAP developer deploys to HANA Cloud and builds Fiori front ends; ABAP is another job (issue 30)."""
    packs = {p.id for p in KB.profiles["cap-developer"].packs}
    assert {"cap", "btp", "hana-cloud", "fiori-ui5"} <= packs and "abap" not in packs
