"""get_program: the source of an ABAP report (executable program)."""

from sap_devs.mcp.tools.abap._shared import CLASSIC, source_tool

TOOL = source_tool(
    name="get_program",
    module=__name__,
    kind="program",
    title="ABAP program source",
    description="Source of an ABAP program (report) from the user's system, with package and description. Not on ABAP Cloud.",
    category="abap",
    available_in=CLASSIC,
    example="ZTEST_PROGRAM",
)
