"""search_discovery: SAP Discovery Center missions and the SAP BTP service catalogue."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from sap_devs.core.errors import SapDevsError
from sap_devs.live.discovery import missions, services
from sap_devs.mcp.framework import (
    SEARCH_LIMIT,
    Annotations,
    Envelope,
    Tool,
    ToolContext,
    ToolInput,
    limit_field,
)
from sap_devs.mcp.tools._bounds import QUERY_MAX


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX,
        description="What to find, e.g. 'SAP HANA Cloud', 'destination', 'event mesh', 'CAP full-stack'.",
    )
    type: Literal["missions", "services"] = Field(
        "missions",
        description="missions = guided hands-on projects; services = the BTP service catalogue.",
    )
    limit: int = limit_field(SEARCH_LIMIT, "results")


class DiscoveryItem(BaseModel):
    kind: Literal["mission", "service"]
    id: str = Field(description="Mission number, or the service's technical name as used by btp/cf CLIs and mta.yaml.")
    name: str
    description: str
    category: str | None = None
    url: str | None = Field(None, description="Discovery Center page.")
    effort: str | None = Field(None, description="Missions: estimated effort.")
    plans: list[str] = Field(default_factory=list, description="Services: plan names; '(free)' marks free plans.")
    documentation: str | None = None
    deprecated: bool = False


Output = Envelope[DiscoveryItem]


def _service_items(query: str) -> tuple[list[DiscoveryItem], str | None]:
    snapshot = services.load()
    items = [
        DiscoveryItem(
            kind="service",
            id=s.id,
            name=s.name,
            description=s.description,
            category=s.category,
            url=s.discovery_center,
            plans=[f"{p.name} (free)" if p.free else p.name for p in s.plans],
            documentation=s.documentation,
            deprecated=s.deprecated,
        )
        for s in services.search(snapshot.items, query)
    ]
    return items, snapshot.hint("SAP BTP service catalogue")


def _mission_item(m: dict) -> DiscoveryItem:
    return DiscoveryItem(
        kind="mission",
        id=str(m["id"]),
        name=m["name"],
        description=m.get("description") or "",
        category=str(m["category"]) if m.get("category") is not None else None,
        url=m.get("url"),
        effort=str(m["effort"]) if m.get("effort") is not None else None,
    )


async def _mission_items(query: str, limit: int, ctx: ToolContext) -> tuple[list[DiscoveryItem], str | None]:
    snapshot = missions.load()
    if snapshot is not None:
        hits = missions.search(snapshot.items, query)
        return [_mission_item(m.model_dump()) for m in hits], snapshot.hint("mission catalogue")
    from sap_devs.live.discovery.mission_search import search_live

    base = ctx.endpoints.get("discovery")
    extra = frozenset({urlsplit(base).hostname or ""}) if base else frozenset()
    found, note = await search_live(query, limit, base=base, extra_hosts=extra)
    return [_mission_item(m) for m in found], note


async def handle(params: Input, ctx: ToolContext) -> Output:
    if params.type == "services":
        items, note = _service_items(params.query)
    else:
        try:
            items, note = await _mission_items(params.query, params.limit, ctx)
        except SapDevsError as exc:
            reason = f" ({exc.hint})" if exc.hint else ""
            return Output.build([], limit=params.limit, entity="missions", hint=f"{exc.message}{reason}")
    envelope = Output.build(items, limit=params.limit, entity=params.type, query=params.query)
    return envelope.add_note(note)


TOOL = Tool(
    name="search_discovery",
    title="Search SAP Discovery Center",
    description=(
        "Search SAP Discovery Center: 'missions' (guided BTP projects) or 'services' (BTP catalogue: technical names, plans, docs links)."
    ),
    category="discovery",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=True, destructive=False, idempotent=True, open_world=True),
    instruction="Use search_discovery for BTP services (technical names, plans) and Discovery Center missions.",
    example={"query": "SAP HANA Cloud", "type": "services"},
)
