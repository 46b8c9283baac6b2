"""search_objects: find ABAP repository objects by name pattern on the user's system."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS

ADTCORE = "{http://www.sap.com/adt/core}"


class Input(ToolInput):
    query: str = Field(
        min_length=1, max_length=120, description="Name pattern with * as wildcard, e.g. 'ZCL_SALES*', '*ORDER*'."
    )
    object_type: str | None = Field(
        None,
        max_length=8,
        pattern=r"^[A-Z]{4}(/[A-Z]{1,3})?$",
        description="ADT type filter, e.g. CLAS, PROG, DDLS, TABL, INTF.",
    )
    limit: int = limit_field(SEARCH_LIMIT, "objects")


class ObjectRef(BaseModel):
    name: str
    type: str
    uri: str
    package: str | None = None
    description: str | None = None


Output = Envelope[ObjectRef]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.core.xml import parse_xml

    query = {"operation": "quickSearch", "query": params.query, "maxResults": str(params.limit + 1)}
    if params.object_type:
        # the search takes the main type only (abap-adt-api strips "/OC" on purpose); a subtype filters here
        query["objectType"] = params.object_type.split("/", 1)[0]
    response = await ctx.adt().request(
        "GET", "/sap/bc/adt/repository/informationsystem/search", params=query, accept="application/xml"
    )
    root = parse_xml(response.content, source="search result")
    items = [
        ObjectRef(
            name=ref.get(f"{ADTCORE}name", ""),
            type=ref.get(f"{ADTCORE}type", ""),
            uri=ref.get(f"{ADTCORE}uri", ""),
            package=ref.get(f"{ADTCORE}packageName"),
            description=ref.get(f"{ADTCORE}description"),
        )
        for ref in root.iter(f"{ADTCORE}objectReference")
        if not params.object_type or "/" not in params.object_type or ref.get(f"{ADTCORE}type") == params.object_type
    ]
    return Output.build(items, limit=params.limit, entity="objects", query=params.query)


TOOL = Tool(
    name="search_objects",
    title="Search ABAP objects",
    description="Find ABAP repository objects (classes, programs, CDS views, tables ...) on the user's system by name pattern with * wildcards.",
    category="abap",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    instruction="Use search_objects to find ABAP objects on the user's system by name.",
    example={"query": "ZCL_SALES*"},
)
