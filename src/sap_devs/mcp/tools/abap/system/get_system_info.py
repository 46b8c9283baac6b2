"""get_system_info: release and database facts of the connected ABAP system."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS

ATOM = "{http://www.w3.org/2005/Atom}"


class Input(ToolInput):
    pass


class Output(ToolOutput):
    url: str = Field(description="The system the server is connected to.")
    client: str | None = None
    system_type: str
    facts: dict[str, str] = Field(description="System information entries (application server, DB, release ...).")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.core.xml import parse_xml

    client = ctx.adt()
    response = await client.request("GET", "/sap/bc/adt/system/information", accept="application/atom+xml;type=feed")
    root = parse_xml(response.content, source="system information")
    facts = {
        (entry.findtext(f"{ATOM}id") or "").strip(): (entry.findtext(f"{ATOM}title") or "").strip()
        for entry in root.iter(f"{ATOM}entry")
    }
    config = client.config
    return Output(url=config.url, client=config.client, system_type=config.system_type, facts=facts)


TOOL = Tool(
    name="get_system_info",
    title="ABAP system information",
    description="Facts about the connected ABAP system: URL, client, environment, application server, database and release.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={},
)
