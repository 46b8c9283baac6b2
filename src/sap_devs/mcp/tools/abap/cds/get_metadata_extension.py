"""get_metadata_extension: the source of a CDS metadata extension (UI annotations)."""

from sap_devs.mcp.tools.abap._shared import MODERN, source_tool

TOOL = source_tool(
    name="get_metadata_extension",
    module=__name__,
    kind="metadata_extension",
    title="CDS metadata extension",
    description="Source of a CDS metadata extension (DDLX with @UI annotations for Fiori elements) from the user's system.",
    category="abap",
    available_in=MODERN,
    example="ZC_SALESORDER",
)
