"""The live sources ``sap-devs sync`` knows, and the real base URLs they fetch from."""

from __future__ import annotations

from sap_devs.knowledge.sync import Source


def all_sources() -> list[Source]:
    from sap_devs.knowledge import news_sync, tutorials_sync

    return [tutorials_sync.SOURCE, news_sync.SOURCE]


def default_bases() -> dict[str, str]:
    from sap_devs.knowledge import news_sync, tutorials_sync

    return {**tutorials_sync.BASES, **news_sync.BASES}
