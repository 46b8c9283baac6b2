"""The live sources ``sap-devs sync`` knows, and the real base URLs they fetch from."""

from __future__ import annotations

from types import ModuleType

from sap_devs.knowledge.sync import Source


def _modules() -> list[ModuleType]:
    from sap_devs.knowledge import events_sync, learning_sync, news_sync, tutorials_sync, videos_sync

    return [tutorials_sync, learning_sync, news_sync, videos_sync, events_sync]


def all_sources() -> list[Source]:
    return [m.SOURCE for m in _modules()]


def default_bases() -> dict[str, str]:
    bases: dict[str, str] = {}
    for module in _modules():
        bases.update(module.BASES)
    return bases
