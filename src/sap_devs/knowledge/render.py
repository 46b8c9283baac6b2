"""Pack context as markdown at a chosen verbosity, constraints included."""

from __future__ import annotations

from sap_devs.knowledge.packs import Pack
from sap_devs.knowledge.verbosity import Verbosity


def render_pack(pack: Pack, verbosity: Verbosity) -> str:
    body = pack.context.at(verbosity)
    rules = pack.constraints.at(verbosity)
    if not body and not rules:
        return ""
    parts = [f"## {pack.meta.name}"]
    if rules:
        parts.append(f"### Constraints\n\n{rules}")
    if body:
        parts.append(body)
    return "\n\n".join(parts)


def render_packs(packs: list[Pack], verbosity: Verbosity) -> tuple[str, list[str]]:
    """The joined markdown and the ids of the packs that contributed to it."""
    rendered = [(p.id, render_pack(p, verbosity)) for p in packs]
    used = [(pid, text) for pid, text in rendered if text]
    return "\n\n".join(text for _, text in used), [pid for pid, _ in used]
