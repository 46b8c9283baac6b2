"""compare_versions: a unified diff between two versions of an object's source."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, Kind, name_field

MAX_DIFF_LINES = 2000


class Input(ToolInput):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind = Field(description="Object kind.")
    a: str = Field(max_length=40, pattern=r"^[A-Za-z0-9_.-]+$", description="Older version id, e.g. 00042.")
    b: str = Field(
        "active",
        max_length=40,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="Newer version, or active/inactive.",
    )


class Output(ToolOutput):
    name: str
    a: str
    b: str
    identical: bool
    added: int
    removed: int
    diff: str
    truncated: bool = False


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.versions import unified_diff, version_source

    client = ctx.adt()
    old = await version_source(client, params.kind, params.name, params.a)
    new = await version_source(client, params.kind, params.name, params.b)
    diff = unified_diff(old, new, f"{params.name.upper()} {params.a}", f"{params.name.upper()} {params.b}")
    lines = diff.splitlines()
    added = sum(1 for x in lines if x.startswith("+") and not x.startswith("+++"))
    removed = sum(1 for x in lines if x.startswith("-") and not x.startswith("---"))
    return Output(
        name=params.name.upper(),
        a=params.a,
        b=params.b,
        identical=not lines,
        added=added,
        removed=removed,
        diff="\n".join(lines[:MAX_DIFF_LINES]),
        truncated=len(lines) > MAX_DIFF_LINES,
    )


TOOL = Tool(
    name="compare_versions",
    title="Compare ABAP versions",
    description="Unified diff between two versions of an ABAP object's source on the user's system (a version id from get_versions, or the current active/inactive source): what changed, with added and removed line counts.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "a": "00042", "b": "active"},
)
