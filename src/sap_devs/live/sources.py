"""The live sources ``sap-devs sync`` knows, and the real base URLs they fetch from."""

from __future__ import annotations

from types import ModuleType

from sap_devs.live.sync import Source


def _modules() -> list[ModuleType]:
    from sap_devs.docs import sync as docs_sync
    from sap_devs.live.discovery import sync as discovery_sync
    from sap_devs.live.events import sync as events_sync
    from sap_devs.live.learning import sync as learning_sync
    from sap_devs.live.news import sync as news_sync
    from sap_devs.live.released_apis import sync as released_apis_sync
    from sap_devs.live.tutorials import sync as tutorials_sync
    from sap_devs.live.videos import sync as videos_sync

    return [
        tutorials_sync,
        learning_sync,
        news_sync,
        videos_sync,
        events_sync,
        discovery_sync,
        released_apis_sync,
        docs_sync,
    ]


def all_sources() -> list[Source]:
    from sap_devs.live.discovery import sync as discovery_sync

    single = [m.SOURCE for m in _modules() if hasattr(m, "SOURCE")]
    return [*single, discovery_sync.MISSIONS, discovery_sync.SERVICES]


def default_bases() -> dict[str, str]:
    bases: dict[str, str] = {}
    for module in _modules():
        bases.update(module.BASES)
    return bases
