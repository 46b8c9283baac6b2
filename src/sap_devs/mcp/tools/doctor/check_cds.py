"""check_cds: compile the CAP project's CDS model with SAP's cds-compiler and return its messages."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from sap_devs.knowledge.queries import find_known_errors
from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolError, ToolInput, limit_field
from sap_devs.mcp.tools.doctor._cds_compile import NO_MODEL_HINT, compiled, source_note
from sap_devs.mcp.tools.doctor._project_path import MAX_PATH, project_root

if TYPE_CHECKING:
    from sap_devs.knowledge.base import KnowledgeBase

SEVERITY_ORDER = {"Error": 0, "Warning": 1, "Info": 2, "Debug": 3}


class Input(ToolInput):
    path: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_PATH,
        description="Absolute path of the CAP project root. Omit for the folder the MCP server was started in.",
    )
    limit: int = limit_field(LIST_LIMIT, "messages (errors first)")


class KnownErrorRef(BaseModel):
    id: str
    cause: str
    fix: str
    docs: str | None = None


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


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"\.\.\.|…", pattern)
    return re.compile(".+?".join(re.escape(p.strip()) if i else re.escape(p) for i, p in enumerate(parts)), re.I)


def _known_error(kb: KnowledgeBase, text: str) -> KnownErrorRef | None:
    """The known error whose pattern this message is (its ``...`` standing for the names in it),
    among the candidates get_known_errors ranks for the text; None when none fits."""
    for _pack, entry in find_known_errors(kb, text)[:5]:
        if _pattern_regex(entry.pattern).search(text):
            return KnownErrorRef(id=entry.id, cause=entry.cause, fix=entry.fix, docs=entry.docs)
    return None


async def handle(params: Input, ctx: ToolContext) -> Output:
    root = project_root(params.path, ctx)
    result = await compiled(root)
    if not result.roots:
        raise ToolError(f"{root} has no CDS model.", hint=NO_MODEL_HINT)
    ordered = sorted(result.messages, key=lambda m: SEVERITY_ORDER.get(m.severity, 9))
    known: dict[str, KnownErrorRef | None] = {}
    items = []
    for m in ordered[: params.limit]:
        if m.severity in ("Error", "Warning") and m.message not in known:
            known[m.message] = _known_error(ctx.knowledge, m.message)
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
                known_error=known.get(m.message),
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


TOOL = Tool(
    name="check_cds",
    title="Compile the project's CDS model",
    description=(
        "Compile the CAP project's CDS model with SAP's cds-compiler (nothing of the project runs) and return its "
        "messages: severity, message id, text exactly as the compiler words it, file, line and column, with the "
        "known error and fix where one matches."
    ),
    category="doctor",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction="After editing CDS files, run check_cds and fix every error before running or deploying the app.",
    example={},
)
