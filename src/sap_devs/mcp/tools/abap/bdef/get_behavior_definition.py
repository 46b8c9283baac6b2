"""get_behavior_definition: the source of a RAP behavior definition."""

from sap_devs.mcp.tools.abap._shared import MODERN, source_tool

TOOL = source_tool(
    name="get_behavior_definition",
    module=__name__,
    kind="behavior_definition",
    title="RAP behavior definition",
    description="Source of a RAP behavior definition (BDEF: operations, draft, validations, actions) from the user's system.",
    category="abap",
    available_in=MODERN,
    example="ZI_SALESORDER",
)
