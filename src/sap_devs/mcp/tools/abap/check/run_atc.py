"""run_atc: ABAP Test Cockpit checks of objects or a package, with the variant that was used."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, READ_ONLY_RANDOM, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.abap._objects import ObjectRef, objects_field, package_field, selected_uris
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS


class Input(ToolInput):
    objects: list[ObjectRef] | None = objects_field("check")
    package: str | None = package_field("check")
    check_variant: str | None = Field(
        None,
        max_length=30,
        pattern=r"^[A-Za-z0-9_/]+$",
        description="Default: the system's ATC variant.",
    )
    max_priority: int = Field(3, ge=1, le=4, description="Lowest priority to return.")
    limit: int = limit_field(LIST_LIMIT, "findings")


class AtcFinding(BaseModel):
    object: str
    object_type: str
    line: int | None = None
    column: int | None = None
    priority: int | None = Field(None, description="1 error, 2 warning, 3 information.")
    check: str
    message: str
    quick_fix: bool = Field(description="The system offers a quick fix for it in ADT.")
    docs_uri: str | None = Field(None, description="Pass to get_atc_finding_docs for the check's documentation.")


class Output(Envelope[AtcFinding]):
    check_variant: str
    variant_source: str = Field(description="'given' or 'system default'.")
    objects_checked: list[str]
    by_priority: dict[str, int]
    messages: list[str] = Field(default_factory=list, description="Run messages, e.g. aborted checks.")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.atc import run_atc

    uris, _ = selected_uris(params.objects, params.package)
    result = await run_atc(ctx.adt(), uris, check_variant=params.check_variant)
    kept = [f for f in result.findings if f.priority is None or f.priority <= params.max_priority]
    kept.sort(key=lambda f: (f.priority or 9, f.object_name, f.line or 0))
    by_priority: dict[str, int] = {}
    for f in result.findings:
        key = str(f.priority) if f.priority is not None else "?"
        by_priority[key] = by_priority.get(key, 0) + 1
    items = [
        AtcFinding(
            object=f.object_name,
            object_type=f.object_type,
            line=f.line,
            column=f.column,
            priority=f.priority,
            check=f.check,
            message=f.message,
            quick_fix=f.quick_fix,
            docs_uri=f.docs_uri,
        )
        for f in kept
    ]
    messages = [f"{kind}: {text}" for kind, text in result.infos if kind not in ("FINDING_STATS",)]
    hint = None
    if not result.findings and not messages:
        hint = f"No ATC findings with check variant {result.check_variant}."
    elif any(kind == "TOOL_FAILURE" for kind, _ in result.infos):
        hint = "Some checks aborted (see messages); their findings are missing."
    elif len(items) > params.limit:
        hint = f"Showing {params.limit} of {len(items)} findings, most severe first; narrow objects or max_priority."
    if params.check_variant:
        note = "An unknown check_variant makes the system run its DEFAULT variant without saying so."
        hint = f"{hint} {note}" if hint else note
    shown = items[: params.limit]
    return Output(
        count=len(shown),
        total=len(items),
        results=shown,
        hint=hint,
        check_variant=result.check_variant,
        variant_source=result.variant_source,
        objects_checked=result.objects_checked,
        by_priority=by_priority,
        messages=messages,
    )


TOOL = Tool(
    name="run_atc",
    title="Run ATC checks",
    description="Run ABAP Test Cockpit (ATC) code checks on objects or a package on the user's system: findings with line, priority, check, message and quick-fix flag, and the check variant used (system default unless given).",
    category="abap",
    action="execute",
    risk="low",
    annotations=READ_ONLY_RANDOM,
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"objects": [{"name": "ZCL_SALES_ORDER", "kind": "class"}]},
)
