"""create_interface: a new global ABAP interface in an allowed package (writes only)."""

from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS
from sap_devs.mcp.tools.abap.common._create import create_tool

TOOL = create_tool(
    name="create_interface",
    module=__name__,
    kind="interface",
    title="Create ABAP interface",
    description="Create a global ABAP interface (Z*/Y*/namespace) in an allowed package, optionally with its full source.",
    available_in=ALL_SYSTEMS,
)
