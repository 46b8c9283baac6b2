"""apply_quick_fix: apply one ADT quick fix and save the result (writes only)."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolError, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, BARE, saved_hint
from sap_devs.mcp.tools.abap.editor._position import PositionInput, position_source


class Input(PositionInput):  # the fix applies to source when given (unsaved editor text), else to the saved one
    fix: int = Field(ge=1, le=100, description="Number N from get_quick_fixes.", json_schema_extra=BARE)
    transport: str | None = Field(
        None,
        max_length=10,
        pattern=r"^[A-Z0-9]{3}K\d{6}$",
        description="Transport for non-local packages.",
        json_schema_extra=BARE,
    )


class Output(ToolOutput):
    name: str
    applied: str
    changed_lines: int
    lines_after: int
    unlocked: bool
    hint: str


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.includes import write_include
    from sap_devs.adt.quickfix import apply_deltas, fix_deltas, proposals
    from sap_devs.adt.write import write_source

    target, source = await position_source(ctx, params)
    uri, client, policy = target.uri, ctx.adt(), ctx.policy()
    found = await proposals(client, uri, source, params.line, params.column)
    if params.fix > len(found):
        raise ToolError(
            f"There are {len(found)} quick fixes at line {params.line}, column {params.column}; "
            f"no number {params.fix}.",
            hint="Call get_quick_fixes for the same position first.",
        )
    chosen = found[params.fix - 1]
    fixed = apply_deltas(source, await fix_deltas(client, chosen, uri, source, params.line, params.column), uri)
    if params.include:
        report = await write_include(client, policy, params.name, params.include, fixed, transport=params.transport)
    else:
        report = await write_source(
            client, policy, params.kind, params.name, fixed, transport=params.transport, group=target.group
        )
    old, new = source.splitlines(), fixed.splitlines()
    changed = sum(a != b for a, b in zip(old, new, strict=False)) + abs(len(old) - len(new))
    hint = saved_hint("Saved as inactive; run syntax_check, then activate_objects.", report.unlocked)
    return Output(
        name=report.name,
        applied=chosen.description,
        changed_lines=changed,
        lines_after=len(new),
        unlocked=report.unlocked,
        hint=hint,
    )


TOOL = Tool(
    name="apply_quick_fix",
    title="Apply quick fix",
    description="Fix an error: apply fix N of get_quick_fixes (same position, source) and save it; allowed packages.",
    category="abap",
    action="update",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=False, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"name": "ZCL_SALES_ORDER", "kind": "class", "line": 12, "column": 4, "fix": 1},
)
