"""run_unit_tests: ABAP Unit tests of objects or a package, with statement coverage when asked."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import READ_ONLY_RANDOM, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._objects import objects_field, package_field, selected_uris
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, name_field

MAX_ALERT_TEXT = 500


class TestedObject(BaseModel):
    # ABAP Unit test classes live in classes, programs and function groups only
    name: str = name_field("Name", "ZCL_SALES_ORDER")
    kind: Literal["class", "program", "function_group"]


class Input(ToolInput):
    objects: list[TestedObject] | None = objects_field("test")
    package: str | None = package_field("test")
    with_coverage: bool = Field(False, description="Also measure statement coverage.")
    risk_levels: list[Literal["harmless", "dangerous", "critical"]] = Field(
        ["harmless"], min_length=1, max_length=3, description="dangerous and critical need --allow-writes."
    )
    durations: list[Literal["short", "medium", "long"]] = Field(
        ["short", "medium", "long"], min_length=1, max_length=3, description="Durations to run."
    )


class Alert(BaseModel):
    kind: str
    severity: str
    message: str
    details: list[str] = Field(default_factory=list)
    stack: list[str] = Field(default_factory=list, description="Innermost first: include and line.")


class Method(BaseModel):
    name: str
    status: str = Field(description="passed, failed, warning or skipped.")
    seconds: float | None = None
    alerts: list[Alert] = Field(default_factory=list)


class TestClass(BaseModel):
    program: str
    name: str
    status: str
    risk_level: str | None = None
    methods: list[Method]
    alerts: list[Alert] = Field(default_factory=list)


METHODS_SHOWN = 30


class MethodCoverage(BaseModel):
    method: str
    statement_percent: float | None = None
    statements: str | None = None


class CoverageLine(BaseModel):
    object: str
    type: str
    statement_percent: float | None = None
    statements: str | None = Field(None, description="executed/total")
    branch_percent: float | None = None
    procedure_percent: float | None = None
    methods: list[MethodCoverage] = Field(default_factory=list, description="Least covered first.")


class Output(ToolOutput):
    passed: int
    failed: int
    warnings: int
    skipped: int
    classes: list[TestClass]
    problems: list[str] = Field(default_factory=list, description="Alerts outside a test: syntax errors, no tests.")
    coverage: list[CoverageLine] | None = None
    hint: str | None = None


def _alert(a) -> Alert:  # type: ignore[no-untyped-def]
    stack = [f"{e.description or e.name}".strip() for e in a.stack]
    return Alert(
        kind=a.kind,
        severity=a.severity,
        message=a.title[:MAX_ALERT_TEXT],
        details=[d[:MAX_ALERT_TEXT] for d in a.details[:10]],
        stack=stack[:10],
    )


def _percent(pair: tuple[int, int] | None) -> float | None:
    return round(100 * pair[0] / pair[1], 1) if pair and pair[1] else None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.aunit import run_unit_tests
    from sap_devs.adt.safety import PolicyError

    risky = sorted(set(params.risk_levels) - {"harmless"})
    if risky and not ctx.policy().writes:
        raise PolicyError(
            f"Running {' and '.join(risky)} ABAP Unit tests is refused: they may change data on the system.",
            hint="Run harmless tests only, or start the server with --allow-writes to allow them.",
        )
    uris, _ = selected_uris(params.objects, params.package)
    result = await run_unit_tests(
        ctx.adt(),
        uris,
        coverage=params.with_coverage,
        risk_levels=tuple(params.risk_levels),
        durations=tuple(params.durations),
    )
    classes = []
    for c in result.classes:
        methods = [
            Method(name=m.name, status=m.status, seconds=m.seconds, alerts=[_alert(a) for a in m.alerts])
            for m in c.methods
        ]
        statuses = {m.status for m in methods}
        status = "failed" if c.alerts or "failed" in statuses else "warning" if "warning" in statuses else "passed"
        classes.append(
            TestClass(
                program=c.program,
                name=c.name,
                status=status,
                risk_level=c.risk_level,
                methods=methods,
                alerts=[_alert(a) for a in c.alerts],
            )
        )
    all_methods = [m for c in classes for m in c.methods]
    count = {s: sum(m.status == s for m in all_methods) for s in ("passed", "failed", "warning", "skipped")}
    failed = count["failed"] + sum(1 for c in classes if c.alerts and not c.methods)
    problems = [f"{a.title}" + (f" ({'; '.join(a.details[:3])})" if a.details else "") for a in result.run_alerts]
    problems += [
        f"{program}: {a.title}" + (f" ({'; '.join(a.details[:3])})" if a.details else "")
        for program, a in result.program_alerts
    ]
    coverage = None
    if params.with_coverage:
        coverage = [
            CoverageLine(
                object=cv.name,
                type=cv.type,
                statement_percent=_percent(cv.statement),
                statements=f"{cv.statement[0]}/{cv.statement[1]}" if cv.statement else None,
                branch_percent=_percent(cv.branch),
                procedure_percent=_percent(cv.procedure),
                methods=[
                    MethodCoverage(
                        method=m.name,
                        statement_percent=_percent(m.statement),
                        statements=f"{m.statement[0]}/{m.statement[1]}" if m.statement else None,
                    )
                    for m in sorted(cv.methods, key=lambda m: _percent(m.statement) or 0.0)[:METHODS_SHOWN]
                ],
            )
            for cv in result.coverage
        ]
    hint = None
    if not all_methods and not classes:
        hint = "No test ran: " + ("; ".join(problems) if problems else "the selection holds no ABAP Unit tests.")
    elif failed:
        hint = "Read the failed methods' alerts and stack (include and line); get_class shows the testclasses include."
    if params.with_coverage and not coverage and all_methods:
        note = "The system returned no coverage measurement."
        hint = f"{hint} {note}" if hint else note
    return Output(
        passed=count["passed"],
        failed=failed,
        warnings=count["warning"],
        skipped=count["skipped"],
        classes=classes,
        problems=problems,
        coverage=coverage,
        hint=hint,
    )


TOOL = Tool(
    name="run_unit_tests",
    title="Run ABAP Unit tests",
    description="Run the ABAP Unit tests of objects or a package on the user's system: status per test class and method, failures with message and stack, statement coverage on request.",
    category="abap",
    action="execute",
    risk="medium",
    annotations=READ_ONLY_RANDOM,
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={"objects": [{"name": "ZCL_SALES_ORDER", "kind": "class"}], "with_coverage": True},
)
