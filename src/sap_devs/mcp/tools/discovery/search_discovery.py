"""search_discovery: SAP BTP services from the Discovery Center catalogue."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sap_devs.knowledge import services
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        description="What to find, e.g. 'SAP HANA Cloud', 'destination', 'event mesh', 'document management'.",
    )
    type: Literal["services"] = Field(
        "services",
        description="What to search: 'services' (the SAP BTP service and application catalogue).",
    )
    limit: int = limit_field(SEARCH_LIMIT, "services")


class ServiceOut(BaseModel):
    id: str = Field(description="Technical name, as used by the btp and cf CLIs.")
    name: str
    category: str = Field(description="service, application or environment.")
    description: str
    plans: list[str] = Field(default_factory=list, description="Service plan names; '(free)' marks free plans.")
    documentation: str | None = None
    discovery_center: str | None = None


Output = Envelope[ServiceOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    snapshot = services.load()
    hits = services.search(snapshot.items, params.query)
    items = [
        ServiceOut(
            id=s.id,
            name=s.name,
            category=s.category,
            description=s.description,
            plans=[f"{p.name} (free)" if p.free else p.name for p in s.plans],
            documentation=s.documentation,
            discovery_center=s.discovery_center,
        )
        for s in hits
    ]
    envelope = Output.build(items, limit=params.limit, entity="services", query=params.query)
    return envelope.add_note(snapshot.hint("SAP BTP service catalogue"))


TOOL = Tool(
    name="search_discovery",
    title="Search SAP BTP services",
    description=(
        "Search the SAP BTP service and application catalogue of SAP Discovery Center: technical name (as used "
        "by btp/cf CLIs and mta.yaml), description, service plans (free ones marked), documentation and "
        "Discovery Center links. Use it when the user needs to find or compare BTP services."
    ),
    category="discovery",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use search_discovery to find SAP BTP services, their technical names and plans.",
    example={"query": "SAP HANA Cloud", "type": "services"},
)
