"""get_include: the source of an ABAP include program."""

from sap_devs.mcp.tools.abap._shared import CLASSIC, source_tool

TOOL = source_tool(
    name="get_include",
    module=__name__,
    kind="include",
    title="ABAP include source",
    description="Source of an ABAP include program from the user's system, with package and description. Not on ABAP Cloud.",
    category="abap",
    available_in=CLASSIC,
    example="ZTEST_INCLUDE",
)
