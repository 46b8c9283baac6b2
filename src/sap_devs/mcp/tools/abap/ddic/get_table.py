"""get_table: the definition of a database table."""

from sap_devs.mcp.tools.abap._shared import MODERN, source_tool

TOOL = source_tool(
    name="get_table",
    module=__name__,
    kind="table",
    title="ABAP database table",
    description="Definition of a DDIC database table (define table ... source: fields, keys, annotations) from the user's system.",
    category="abap",
    available_in=MODERN,
    example="ZSALES_ORDER",
)
