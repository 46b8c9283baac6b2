"""create_program: a new ABAP report in an allowed package (writes only)."""

from sap_devs.mcp.tools.abap._shared import CLASSIC
from sap_devs.mcp.tools.abap.common._create import create_tool

TOOL = create_tool(
    name="create_program",
    module=__name__,
    kind="program",
    title="Create ABAP program",
    description="Create an executable ABAP program (Z*/Y*/namespace) in an allowed package, optionally with its source. Not on ABAP Cloud.",
    available_in=CLASSIC,
)
