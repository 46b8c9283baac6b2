"""search_events: SAP community events from the packs, upcoming first."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from sap_devs.knowledge.events import arrange, count_past
from sap_devs.knowledge.models import EventScope
from sap_devs.knowledge.queries import filter_events
from sap_devs.live.events import community as synced_events
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools._bounds import ID_MAX, QUERY_MAX
from sap_devs.mcp.tools._origin import origin_field, origin_of


class Input(ToolInput):
    query: str | None = Field(
        None,
        min_length=1,
        max_length=QUERY_MAX,
        description="Words to match in title, type, location or tags, e.g. 'TechEd', 'India'.",
    )
    type: str | None = Field(
        None, min_length=1, max_length=ID_MAX, description="Event type id, e.g. 'teched', 'codejam', 'devtoberfest'."
    )
    scope: EventScope | None = Field(None, description="Only events of this reach.")
    include_past: bool = Field(False, description="Also return events that have ended (after the upcoming ones).")
    limit: int = limit_field(SEARCH_LIMIT, "events")


class EventOut(BaseModel):
    id: str
    type: str
    title: str
    date: str = Field(description="Start date, YYYY-MM-DD.")
    end_date: str | None = None
    location: str | None = None
    scope: str
    url: str
    tags: list[str]
    status: str = Field(description="upcoming, ongoing or past, relative to today.")
    pack: str = Field(description="Pack the event comes from, or 'community' for events fetched by sync.")
    origin: str | None = origin_field()


Output = Envelope[EventOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    today = dt.date.today()
    community, age = synced_events.load()
    matches = filter_events(ctx.knowledge, params.query, type=params.type, scope=params.scope, community=community)
    arranged = arrange(matches, today, include_past=params.include_past)
    items = [
        EventOut(
            id=d.event.id,
            type=d.event.type,
            title=d.event.title,
            date=d.event.date.isoformat(),
            end_date=d.event.end_date.isoformat() if d.event.end_date else None,
            location=d.event.location,
            scope=d.event.scope,
            url=d.event.url,
            tags=d.event.tags,
            status=d.status,
            pack=d.pack,
            origin=origin_of(d.event, d.event.url),
        )
        for d in arranged
    ]
    hint = None
    hidden = 0 if params.include_past else count_past(matches, today)
    if not items and hidden:
        hint = f"No upcoming events match; {hidden} past event(s) do. Pass include_past=true to see them."
    envelope = Output.build(items, limit=params.limit, entity="events", query=params.query, hint=hint)
    if age is None:
        envelope.add_note("Community events (CodeJams, Devtoberfest ...) appear after `sap-devs sync --only events`.")
    return envelope


TOOL = Tool(
    name="search_events",
    title="Search SAP community events",
    description=(
        "SAP community events (TechEd, CodeJam, Devtoberfest ...): dates, location, scope, URL; upcoming first, past ones only with include_past."
    ),
    category="knowledge",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use search_events for SAP community events such as TechEd, CodeJams and Devtoberfest.",
    example={"query": "TechEd", "include_past": True},
)
