"""get_cds_view: the source of a CDS view or view entity (DDL source)."""

from sap_devs.mcp.tools.abap._shared import MODERN, source_tool

TOOL = source_tool(
    name="get_cds_view",
    module=__name__,
    kind="cds_view",
    title="CDS view source",
    description="Source of a CDS data definition (view entity, projection, custom entity) from the user's system, with package.",
    category="abap",
    available_in=MODERN,
    example="ZI_SALESORDER",
)
