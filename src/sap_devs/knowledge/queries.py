"""Searches over pack items. Exact filters (pack, type, scope) first, then ranking by the shared engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.error_lines import error_lines
from sap_devs.knowledge.error_text import error_codes, strip_variable_parts
from sap_devs.knowledge.match_strength import STRENGTHS, EntryFacts, Fit, MessageFacts, Strength, fit
from sap_devs.knowledge.models import EventInstance, KnownError, Resource, Sample
from sap_devs.search import Field, index_for

Record = tuple[str, Any]


def _in_pack(kb: KnowledgeBase, pack: str | None) -> Callable[[Record], bool] | None:
    if pack is None:
        return None
    kb.pack(pack)  # an unknown pack id is an error that lists the valid ones
    return lambda rec: rec[0] == pack


def _all(*checks: Callable[[Record], bool] | None) -> Callable[[Record], bool] | None:
    active = [c for c in checks if c is not None]
    if not active:
        return None
    return lambda rec: all(c(rec) for c in active)


def find_resources(
    kb: KnowledgeBase, query: str, *, pack: str | None = None, type: str | None = None
) -> list[tuple[str, Resource]]:
    index = index_for(
        kb.records("resources"),
        [Field("title", 3.0), Field("tags", 2.0), Field("id", 2.0), Field("type", 1.0), Field("description", 1.0)],
        lambda rec: {
            "title": rec[1].title,
            "tags": " ".join(rec[1].tags),
            "id": rec[1].id.replace("/", " "),
            "type": rec[1].type,
            "description": rec[1].description or "",
        },
        id_of=lambda rec: rec[1].id,
    )
    by_type = (lambda rec: rec[1].type == type) if type else None
    return index.search(query, allow=_all(_in_pack(kb, pack), by_type))


@dataclass(frozen=True)
class KnownErrorMatch:
    pack: str
    entry: KnownError
    fit: Fit

    @property
    def strength(self) -> Strength:
        return self.fit.strength


@dataclass(frozen=True)
class KnownErrorMatches:
    matches: list[KnownErrorMatch]
    matched_on: str
    """The text that was matched: the whole message, or the error lines of a long paste."""

    @property
    def strong(self) -> bool:
        """Whether any result is ``exact`` or ``likely``."""
        return any(m.strength != "weak" for m in self.matches)


WEAK_SHOWN = 3
"""Weak results kept after the strong ones: enough for the agent to see what was near, few enough
not to bury the message that nothing fits."""


def match_known_errors(kb: KnowledgeBase, query: str, *, pack: str | None = None) -> KnownErrorMatches:
    """Entries for an error message, ``exact`` and ``likely`` ones first (each tier in ranking order),
    then at most WEAK_SHOWN ``weak`` ones; a long paste is matched on its error lines."""
    text = error_lines(query)
    records = kb.records("known_errors")
    index = index_for(
        records,
        [
            Field("pattern", 3.0),
            Field("codes", 3.0),
            Field("tags", 2.0),
            Field("id", 2.0),
            Field("cause", 1.0),  # the fix text is long and adds little to matching a message
        ],
        lambda rec: {
            "pattern": strip_variable_parts(rec[1].pattern),
            "codes": " ".join(error_codes(f"{rec[1].pattern} {' '.join(rec[1].tags)}")),
            "tags": " ".join(rec[1].tags),
            "id": rec[1].id.replace("/", " "),
            "cause": rec[1].cause,
        },
        id_of=lambda rec: rec[1].id,
    )
    cleaned = strip_variable_parts(text) or text
    message = MessageFacts.of(text)
    wanted = error_codes(text)
    facts = _facts_by_entry(records)

    def boost(rec: Record) -> float:
        entry = facts[rec[1].id]
        shared = len(wanted & entry.all_codes)
        return (1.0 + PATTERN_WEIGHT * shared) * (
            1.0 + PATTERN_WEIGHT * _share(frozenset(entry.wording), message.terms, index.idf)
        )

    ranked = index.search(cleaned, allow=_in_pack(kb, pack), boost=boost)
    matches = [KnownErrorMatch(p, e, fit(facts[e.id], message, index.idf)) for p, e in ranked]
    order = {s: i for i, s in enumerate(STRENGTHS)}
    matches.sort(key=lambda m: order[m.strength])  # stable: ranking order within a strength
    strong = [m for m in matches if m.strength != "weak"]
    weak = [m for m in matches if m.strength == "weak"][:WEAK_SHOWN]
    return KnownErrorMatches(strong + weak, text)


def find_known_errors(kb: KnowledgeBase, query: str, *, pack: str | None = None) -> list[tuple[str, KnownError]]:
    """The entries of ``match_known_errors``, best first, without their strength."""
    return [(m.pack, m.entry) for m in match_known_errors(kb, query, pack=pack).matches]


# A bundled pattern is the error's own wording; a paste that contains all of it (among stack
# traces and log lines) is that error, one that shares a few common words is not. How much of the
# wording a message contains, weighted by rarity, multiplies the text score by up to 1 + this, and
# each exact error code the two share counts as much as the whole wording.
PATTERN_WEIGHT = 2.0


def _share(terms: frozenset[str], said: frozenset[str], idf: Callable[[str], float]) -> float:
    whole = sum(idf(t) for t in terms)
    return sum(idf(t) for t in terms & said) / whole if whole else 0.0


Facts = dict[str, EntryFacts]
_facts_cache: dict[int, tuple[list[Record], Facts]] = {}


def _facts_by_entry(records: list[Record]) -> Facts:
    """Per entry id: its error codes, quoted names and the other search terms of its pattern,
    worked out once per record list."""
    hit = _facts_cache.get(id(records))
    if hit is None or hit[0] is not records:
        facts: Facts = {rec[1].id: EntryFacts.of(rec[1].pattern, rec[1].tags) for rec in records}
        hit = (records, facts)
        _facts_cache[id(records)] = hit
    return hit[1]


def find_samples(kb: KnowledgeBase, query: str | None, *, pack: str | None = None) -> list[tuple[str, Sample]]:
    records = kb.records("samples")
    allow = _in_pack(kb, pack)
    if not query:
        return [r for r in records if allow is None or allow(r)]
    index = index_for(
        records,
        [Field("label", 3.0), Field("tags", 2.0), Field("id", 2.0), Field("description", 1.0)],
        lambda rec: {
            "label": rec[1].label,
            "tags": " ".join(rec[1].tags),
            "id": rec[1].id.replace("/", " "),
            "description": rec[1].description,
        },
    )
    return index.search(query, allow=allow)


def filter_events(
    kb: KnowledgeBase,
    query: str | None,
    *,
    type: str | None = None,
    scope: str | None = None,
    community: Sequence[EventInstance] = (),
) -> list[tuple[str, EventInstance]]:
    """Pack events plus ``community`` ones (fetched by sync, passed in so packs stay apart from live
    sources); a pack event wins over a community event with the same id."""
    pack_events = kb.records("event_instances")
    known = {ev.id for _, ev in pack_events}
    synced = [("community", ev) for ev in community if ev.id not in known]
    records = [
        (origin, ev)
        for origin, ev in pack_events + synced
        if (type is None or ev.type == type) and (scope is None or ev.scope == scope)
    ]
    if not query:
        return records
    # events are few and change with every sync: index them per call
    index = index_for(
        records,
        [Field("title", 3.0), Field("type", 2.0), Field("tags", 2.0), Field("location", 1.0)],
        lambda rec: {
            "title": rec[1].title,
            "type": rec[1].type,
            "tags": " ".join(rec[1].tags),
            "location": rec[1].location or "",
        },
    )
    return index.search(query)
