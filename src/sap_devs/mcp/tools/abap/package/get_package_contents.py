"""get_package_contents: the objects and sub-packages of an ABAP package."""

from __future__ import annotations

from pydantic import BaseModel

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, name_field


class Input(ToolInput):
    package: str = name_field("Package name", "ZSALES or $TMP")
    limit: int = limit_field(LIST_LIMIT, "objects")


class Node(BaseModel):
    name: str
    type: str
    uri: str | None = None
    description: str | None = None


Output = Envelope[Node]
# the tree is an asx:abap document told apart by its dataname (sapcli's Accept for nodestructure)
TREE_CONTENT = "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.RepositoryObjectTreeContent"


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.core.xml import parse_xml

    response = await ctx.adt().request(
        "POST",
        "/sap/bc/adt/repository/nodestructure",
        params={"parent_type": "DEVC/K", "parent_name": params.package.upper(), "withShortDescriptions": "true"},
        accept=TREE_CONTENT,
    )
    root = parse_xml(response.content, source="package contents")
    items = [
        Node(
            name=node.findtext("OBJECT_NAME") or "",
            type=node.findtext("OBJECT_TYPE") or "",
            uri=node.findtext("OBJECT_URI") or None,
            description=node.findtext("DESCRIPTION") or None,
        )
        for node in root.iter("SEU_ADT_REPOSITORY_OBJ_NODE")
        if node.findtext("OBJECT_NAME")
    ]
    return Output.build(items, limit=params.limit, entity="objects")


TOOL = Tool(
    name="get_package_contents",
    title="ABAP package contents",
    description="Objects and sub-packages of an ABAP package on the user's system (type, name, description, ADT URI).",
    category="abap",
    action="list",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"package": "$TMP"},
)
