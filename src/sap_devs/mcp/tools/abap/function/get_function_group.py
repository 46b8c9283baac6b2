"""get_function_group: a function group's metadata and main program source."""

from sap_devs.mcp.tools.abap._shared import CLASSIC, source_tool

TOOL = source_tool(
    name="get_function_group",
    module=__name__,
    kind="function_group",
    title="ABAP function group",
    description="A function group on the user's system: package, description and its main program (the includes it is built from).",
    category="abap",
    available_in=CLASSIC,
    example="ZSALES",
)
