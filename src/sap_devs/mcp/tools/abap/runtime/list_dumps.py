"""list_dumps: recent ABAP runtime errors (ST22 short dumps) on the user's system."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolError, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    user: str | None = Field(None, max_length=12, pattern=r"^[A-Za-z0-9_.@-]+$", description="Only this user's dumps.")
    since: str | None = Field(
        None,
        max_length=20,
        pattern=r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?$",
        description="Only dumps after this time (UTC), e.g. 2026-11-28T08:00:00.",
    )
    limit: int = limit_field(LIST_LIMIT, "dumps")


class DumpItem(BaseModel):
    id: str = Field(description="Pass to get_dump.")
    runtime_error: str | None = None
    program: str | None = None
    user: str | None = None
    time: str | None = None
    title: str | None = None


Output = Envelope[DumpItem]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.runtime import list_dumps

    try:
        since = datetime.fromisoformat(params.since.rstrip("Z")) if params.since else None
    except ValueError:
        raise ToolError(f"since {params.since!r} is not a date.", hint="Use e.g. 2026-11-28T08:00:00.") from None
    found = await list_dumps(ctx.adt(), user=params.user, since=since, limit=params.limit)
    items = [DumpItem(**entry.__dict__) for entry in found]
    return Output.build(items, limit=params.limit, entity="runtime errors", refine_hint=False)


TOOL = Tool(
    name="list_dumps",
    title="ABAP runtime errors (ST22)",
    description="Which ABAP runtime errors (short dumps, ST22) occurred on the user's system, newest first: runtime error, terminated program, user and time; filter by user or since a time, then read one with get_dump.",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"user": "DEVELOPER", "limit": 10},
)
