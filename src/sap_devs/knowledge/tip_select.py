"""Choosing a tip: by topic tag, else by the profile's tags, else any; random on every call."""

from __future__ import annotations

import random

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.models import Tip
from sap_devs.search import Field, rank


def all_tips(kb: KnowledgeBase) -> list[Tip]:
    return [tip for pack in kb.packs for tip in pack.tips]


def tip_tags(kb: KnowledgeBase) -> list[str]:
    return sorted({tag for tip in all_tips(kb) for tag in tip.tags})


def candidates(kb: KnowledgeBase, topic: str | None) -> list[Tip]:
    tips = all_tips(kb)
    if topic:
        wanted = topic.strip().lower()
        tagged = [t for t in tips if wanted in t.tags]
        if tagged:
            return tagged
        # no tag of that name: fall back to tips that talk about the topic
        return rank(
            topic,
            tips,
            [Field("title", 2.0), Field("tags", 2.0), Field("content", 1.0)],
            lambda t: {"title": t.title, "tags": " ".join(t.tags), "content": t.content},
        )
    if kb.profile and kb.profile.tip_tags:
        preferred = set(kb.profile.tip_tags)
        tagged = [t for t in tips if preferred.intersection(t.tags)]
        if tagged:
            return tagged
    return tips


def pick_tip(kb: KnowledgeBase, topic: str | None, rng: random.Random | None = None) -> Tip | None:
    pool = candidates(kb, topic)
    if not pool:
        return None
    return (rng or random.SystemRandom()).choice(pool)
