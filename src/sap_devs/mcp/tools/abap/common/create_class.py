"""create_class: a new global ABAP class in an allowed package (writes only)."""

from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS
from sap_devs.mcp.tools.abap.common._create import create_tool

TOOL = create_tool(
    name="create_class",
    module=__name__,
    kind="class",
    title="Create ABAP class",
    description="Create a global ABAP class (Z*/Y*/namespace) in an allowed package, optionally with its full source.",
    available_in=ALL_SYSTEMS,
)
