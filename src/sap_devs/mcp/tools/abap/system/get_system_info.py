"""get_system_info: release and database facts of the connected ABAP system."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    pass


class Output(ToolOutput):
    url: str = Field(description="The system the server is connected to.")
    client: str | None = None
    system_type: str
    facts: dict[str, str] = Field(description="System information entries (application server, DB, release ...).")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.system import system_facts

    client = ctx.adt()
    facts = await system_facts(client)
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
