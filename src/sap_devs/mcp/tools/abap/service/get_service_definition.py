"""get_service_definition: the source of a service definition."""

from sap_devs.mcp.tools.abap._shared import MODERN, source_tool

TOOL = source_tool(
    name="get_service_definition",
    module=__name__,
    kind="service_definition",
    title="Service definition",
    description="Source of a service definition (SRVD: the CDS entities a RAP service exposes) from the user's system.",
    category="abap",
    available_in=MODERN,
    example="ZUI_SALESORDER",
)
