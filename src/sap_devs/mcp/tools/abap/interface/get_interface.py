"""get_interface: the source of a global ABAP interface."""

from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, source_tool

TOOL = source_tool(
    name="get_interface",
    module=__name__,
    kind="interface",
    title="ABAP interface source",
    description="Source of a global ABAP interface from the user's system, with package, description and version.",
    category="abap",
    available_in=ALL_SYSTEMS,
    example="ZIF_SALES_ORDER",
)
