"""get_dump: one ABAP short dump, with the known-error knowledge for its runtime error."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS

SECTION_MAX = 3000
SECTIONS = {
    "short_text": "Short Text",
    "what_happened": "What happened?",
    "error_analysis": "Error analysis",
    "how_to_correct": "How to correct the error",
    "where_terminated": "Information on where terminated",
    "source_extract": "Source Code Extract",
}


class Input(ToolInput):
    id: str = Field(max_length=200, pattern=r"^[A-Za-z0-9_ %.:@-]+$", description="Dump id from list_dumps.")


class KnownError(BaseModel):
    id: str
    cause: str
    fix: str
    docs: str | None = None


class Output(ToolOutput):
    id: str
    runtime_error: str | None = None
    exception: str | None = None
    program: str | None = None
    include: str | None = None
    line: int | None = None
    time: str | None = None
    short_text: str | None = None
    what_happened: str | None = None
    error_analysis: str | None = None
    how_to_correct: str | None = None
    where_terminated: str | None = None
    source_extract: str | None = Field(None, description=">>>>> marks the line that failed.")
    known_errors: list[KnownError] = Field(default_factory=list, description="sap-devs knowledge on this error.")


def known(ctx: ToolContext, names: list[str]) -> list[KnownError]:
    """Known errors that name this runtime error or exception class (not merely similar text)."""
    from sap_devs.knowledge.error_text import error_codes
    from sap_devs.knowledge.queries import find_known_errors

    wanted = {n.upper() for n in names if n}
    if not wanted:
        return []
    hits = find_known_errors(ctx.knowledge, "Runtime error " + " ".join(sorted(wanted)))
    return [
        KnownError(id=e.id, cause=e.cause, fix=e.fix, docs=e.docs)
        for _, e in hits
        if wanted & {c.upper() for c in error_codes(e.pattern)}
    ][:3]


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.runtime import read_dump

    dump = await read_dump(ctx.adt(), params.id)
    texts = {field: (dump.sections.get(title) or "")[:SECTION_MAX] or None for field, title in SECTIONS.items()}
    return Output(
        id=dump.id,
        runtime_error=dump.runtime_error,
        exception=dump.exception,
        program=dump.program,
        include=dump.include,
        line=dump.line,
        time=dump.time,
        known_errors=known(ctx, [dump.runtime_error or "", dump.exception or ""]),
        **texts,
    )


TOOL = Tool(
    name="get_dump",
    title="ABAP short dump",
    description="Details of one ABAP runtime error (short dump) by its id from list_dumps: error, exception, program, include and line, source extract, what happened and error analysis, plus sap-devs' known-error cause and fix when the runtime error is a known one.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"id": "20261128140211fakhost_FAK_00 DEVELOPER 100"},
)
