"""Where a pack item comes from, for items that did not ship with sap-devs.

Content from a user's, company's or cloned project's packs is served beside SAP's bundled content;
an agent must be able to tell them apart, and a link from such a pack is not vouched for unless
its host is on the allow-list of official documentation hosts.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from sap_devs.knowledge.hosts import link_problem

DESCRIPTION = (
    "Present only for content that did not ship with sap-devs: the layer (user, company, project) and the "
    "file it comes from, and a warning for a link outside the official documentation hosts."
)


def origin_field() -> Any:
    return Field(None, description=DESCRIPTION)


def origin_of(item: Any, *urls: str | None) -> str | None:
    found = getattr(item, "_origin", None)
    if found is None:
        return None
    layer, file = found
    text = f"{layer} layer: {file}"
    for url in urls:
        problem = link_problem(url) if url else None
        if problem:
            text += f" (link not verified by sap-devs: {problem})"
    return text
