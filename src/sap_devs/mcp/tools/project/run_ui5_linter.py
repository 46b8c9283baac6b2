"""run_ui5_linter: SAP's UI5 linter (@ui5/linter) over a UI5 project, from the sap-devs toolchain."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.project._shared import KnownErrorRef, path_field, resolve_path, time_budget
from sap_devs.toolchain.known_errors import known_error_for
from sap_devs.toolchain.paths import PATTERN_MAX, PATTERNS_MAX

Pattern = Annotated[str, StringConstraints(min_length=1, max_length=PATTERN_MAX)]


class Input(ToolInput):
    path: str | None = path_field("the UI5 project (the folder with ui5.yaml or webapp/)")
    files: list[Pattern] | None = Field(
        None,
        max_length=PATTERNS_MAX,
        description="Lint only these files or glob patterns, relative to the project, e.g. ['webapp/controller/**']. Omit for the whole project.",
    )
    limit: int = limit_field(LIST_LIMIT, "findings")


class Ui5FindingOut(BaseModel):
    rule_id: str = Field(description="The linter's rule, e.g. no-deprecated-api, no-globals, async-component-flags.")
    severity: str = Field(description="error or warning, as the linter rates it.")
    message: str
    file: str = Field(description="Relative to the project root.")
    line: int | None = None
    column: int | None = None
    fix: str | None = Field(None, description="What the linter says to do instead (its message details).")
    docs: str = Field(description="The rule's documentation.")
    known_error: KnownErrorRef | None = Field(
        None, description="sap-devs' known error for this rule, when there is one."
    )


class Output(Envelope[Ui5FindingOut]):
    linter_version: str
    errors: int
    warnings: int
    seconds: float = Field(description="How long the linter ran.")


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.toolchain import ui5lint

    root = resolve_path(params.path, ctx, what="UI5 project folder")
    report = ui5lint.lint(root, params.files, timeout=time_budget())
    items = []
    memo: dict = {}
    for f in report.findings:
        known = known_error_for(ctx.knowledge, f.rule_id, f.message, memo=memo)
        items.append(
            Ui5FindingOut(
                rule_id=f.rule_id,
                severity=f.severity,
                message=f.message,
                file=f.file,
                line=f.line,
                column=f.column,
                fix=f.fix,
                docs=f.docs,
                known_error=KnownErrorRef.of(known) if known else None,
            )
        )
    errors = sum(1 for f in report.findings if f.severity == "error")
    notes = []
    if not items:
        notes.append("The UI5 linter found nothing to report.")
    elif len(items) > params.limit:
        notes.append(f"Showing {params.limit} of {len(items)} findings; lint fewer files or raise limit.")
    if report.config_file:
        used = (
            f"its {' and '.join(report.config_applied)} applied"
            if report.config_applied
            else "it sets no ignores, files or ui5Config"
        )
        notes.append(f"{report.config_file} was read as text, never run (nothing from the project runs): {used}.")
    notes += [f"Note: {note}." for note in report.config_notes]
    built = Envelope.build(items, limit=params.limit, entity="findings", hint=" ".join(notes) or None)
    return Output(
        count=built.count,
        total=built.total,
        results=built.results,
        hint=built.hint,
        linter_version=report.linter_version,
        errors=errors,
        warnings=len(report.findings) - errors,
        seconds=round(report.seconds, 2),
    )


TOOL = Tool(
    name="run_ui5_linter",
    title="Run SAP's UI5 linter",
    description=(
        "Run SAP's UI5 linter (@ui5/linter) over a UI5/Fiori project or some of its files: deprecated APIs, "
        "global access, sync loading, outdated manifest and other UI5 2.x blockers, each with rule id, severity, "
        "file, line, column, the linter's fix and the rule docs. Needs `sap-devs toolchain install ui5`."
    ),
    category="project",
    project_kinds=frozenset({"ui5"}),  # listed where the server starts in such a project
    action="execute",
    risk="low",  # runs SAP's linter from the toolchain; the project is only read
    input=Input,
    output=Output,
    handler=handle,
    instruction="After editing UI5 JavaScript, XML views or manifest.json, run run_ui5_linter and fix what it reports.",
    example={"files": ["webapp/controller/**"]},
)
