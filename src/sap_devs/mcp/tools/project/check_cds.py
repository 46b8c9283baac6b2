"""check_cds: compile the CAP project's CDS model with SAP's cds-compiler and return its messages."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, ToolContext, ToolError, ToolInput, limit_field
from sap_devs.mcp.tools.project._cds_compile import (
    NO_MODEL_HINT,
    cds_tool,
    compiled,
    project_folder,
    source_note,
)
from sap_devs.mcp.tools.project._shared import KnownErrorRef, path_field
from sap_devs.toolchain.known_errors import known_error_for

SEVERITY_ORDER = {"Error": 0, "Warning": 1, "Info": 2, "Debug": 3}


class Input(ToolInput):
    path: str | None = path_field("the CAP project root")
    limit: int = limit_field(LIST_LIMIT, "messages (errors first)")


class CdsMessageOut(BaseModel):
    severity: str = Field(description="Error, Warning, Info or Debug, as cds-compiler grades it.")
    message_id: str | None = Field(None, description="cds-compiler's message id, e.g. 'ref-undefined-def'.")
    message: str = Field(description="The text exactly as cds-compiler words it.")
    file: str | None = Field(None, description="Relative to the project root ('@sap/cds/...' for CAP's own files).")
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    formatted: str | None = Field(None, description="The message as `cdsc` prints it, with where in the model it is.")
    origin: str = Field(
        description="cds-compiler, or sap-devs for a file it refused to read (too large, outside the project)."
    )
    known_error: KnownErrorRef | None = Field(None, description="The known error this message is, with cause and fix.")


Output = Envelope[CdsMessageOut]


async def handle(params: Input, ctx: ToolContext) -> Output:
    root = project_folder(params.path, ctx)
    result = await compiled(root)
    if not result.roots:
        raise ToolError(f"{root} has no CDS model.", hint=NO_MODEL_HINT)
    ordered = sorted(result.messages, key=lambda m: SEVERITY_ORDER.get(m.severity, 9))
    memo: dict = {}
    items = []
    for m in ordered[: params.limit]:
        known = None
        if m.severity in ("Error", "Warning"):
            entry = known_error_for(ctx.knowledge, m.message_id or "", m.message, memo=memo)
            if entry is not None:
                known = KnownErrorRef.of(entry)
        items.append(
            CdsMessageOut(
                severity=m.severity,
                message_id=m.message_id,
                message=m.message,
                file=m.file,
                line=m.line,
                column=m.column,
                end_line=m.end_line,
                end_column=m.end_column,
                formatted=m.formatted,
                origin=m.origin,
                known_error=known,
            )
        )
    errors = len(result.errors)
    warnings = sum(1 for m in result.messages if m.severity == "Warning")
    if errors:
        hint = f"{errors} error(s), {warnings} warning(s): the model does not compile. Fix the first error first; later ones often follow from it."
    elif warnings:
        hint = f"The model compiles with {warnings} warning(s)."
    else:
        hint = "The model compiles without errors or warnings."
    if len(ordered) > params.limit:
        hint += f" Showing the first {params.limit} of {len(ordered)} messages (errors first); raise limit for more."
    out = Output.build(items, limit=params.limit, entity="compiler messages", hint=hint, total=len(ordered))
    return out.add_note(source_note(result))


TOOL = cds_tool(
    name="check_cds",
    title="Compile the project's CDS model",
    description=(
        "Compile the CAP project's CDS model with SAP's cds-compiler (nothing of the project runs) and return its "
        "messages: severity, message id, text exactly as the compiler words it, file, line and column, with the "
        "known error and fix where one matches."
    ),
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction="After editing CDS files, run check_cds and fix every error before running or deploying the app.",
    example={},
)
