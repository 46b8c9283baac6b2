"""get_structure: the definition of a DDIC structure."""

from sap_devs.mcp.tools.abap._shared import MODERN, source_tool

TOOL = source_tool(
    name="get_structure",
    module=__name__,
    kind="structure",
    title="ABAP structure",
    description="Definition of a DDIC structure (define structure ... source) from the user's system, with package.",
    category="abap",
    available_in=MODERN,
    example="ZSALES_ORDER_S",
)
