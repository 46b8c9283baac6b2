"""Searches over pack items. Exact filters first, then ranking by the shared engine."""

from __future__ import annotations

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.models import EventInstance, KnownError, Resource, Sample
from sap_devs.search import Field, rank

Hit = tuple[str, object]


def find_resources(
    kb: KnowledgeBase, query: str, *, pack: str | None = None, type: str | None = None
) -> list[tuple[str, Resource]]:
    records = [(p.id, r) for p, r in kb.items("resources", pack) if type is None or r.type == type]
    return rank(
        query,
        records,
        [Field("title", 3.0), Field("tags", 2.0), Field("id", 2.0), Field("type", 1.0), Field("description", 1.0)],
        lambda rec: {
            "title": rec[1].title,
            "tags": " ".join(rec[1].tags),
            "id": rec[1].id,
            "type": rec[1].type,
            "description": rec[1].description or "",
        },
    )


def find_known_errors(kb: KnowledgeBase, query: str, *, pack: str | None = None) -> list[tuple[str, KnownError]]:
    records = [(p.id, e) for p, e in kb.items("known_errors", pack)]
    return rank(
        query,
        records,
        [Field("pattern", 3.0), Field("tags", 2.0), Field("id", 2.0), Field("cause", 1.0), Field("fix", 0.5)],
        lambda rec: {
            "pattern": rec[1].pattern,
            "tags": " ".join(rec[1].tags),
            "id": rec[1].id,
            "cause": rec[1].cause,
            "fix": rec[1].fix,
        },
    )


def find_samples(kb: KnowledgeBase, query: str | None, *, pack: str | None = None) -> list[tuple[str, Sample]]:
    records = [(p.id, s) for p, s in kb.items("samples", pack)]
    if not query:
        return records
    return rank(
        query,
        records,
        [Field("label", 3.0), Field("tags", 2.0), Field("id", 2.0), Field("description", 1.0)],
        lambda rec: {
            "label": rec[1].label,
            "tags": " ".join(rec[1].tags),
            "id": rec[1].id,
            "description": rec[1].description,
        },
    )


def filter_events(
    kb: KnowledgeBase, query: str | None, *, type: str | None = None, scope: str | None = None
) -> list[tuple[str, EventInstance]]:
    from sap_devs.knowledge import synced_events

    pack_events = [(p.id, ev) for p, ev in kb.items("event_instances")]
    known = {ev.id for _, ev in pack_events}
    synced = [("community", ev) for ev in synced_events.load()[0] if ev.id not in known]
    records = [
        (origin, ev)
        for origin, ev in pack_events + synced
        if (type is None or ev.type == type) and (scope is None or ev.scope == scope)
    ]
    if not query:
        return records
    return rank(
        query,
        records,
        [Field("title", 3.0), Field("type", 2.0), Field("tags", 2.0), Field("location", 1.0)],
        lambda rec: {
            "title": rec[1].title,
            "type": rec[1].type,
            "tags": " ".join(rec[1].tags),
            "location": rec[1].location or "",
        },
    )
