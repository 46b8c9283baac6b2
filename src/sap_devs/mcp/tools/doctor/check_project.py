"""check_project: detect the SAP project type in a folder and report what needs fixing."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import threading
from pathlib import Path

from pydantic import BaseModel, Field

from sap_devs.doctor.baseline import baseline_from
from sap_devs.doctor.project import Limits, check_project, shorten_path
from sap_devs.mcp.dispatch import deadline
from sap_devs.mcp.framework import Envelope, Tool, ToolContext, ToolError, ToolInput, ToolOutput

MAX_FINDINGS = 100
MAX_PATH = 4096  # PATH_MAX on Linux; longer cannot name a folder anywhere
LIMITS = Limits()


class Input(ToolInput):
    path: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_PATH,
        description=(
            "Absolute path of the project root folder. Omit to check the folder the MCP server was started in."
        ),
    )


class DetectionOut(BaseModel):
    types: list[str] = Field(
        description="Detected project kinds, e.g. 'CAP (Node.js)', 'MTA', 'SAPUI5 / Fiori', 'ABAP (abapGit)'."
    )
    cap_runtime: str | None = None
    cap_version: str | None = None
    database: str | None = None
    deployment: list[str] = Field(default_factory=list)
    auth: str | None = None
    ui5_apps: list[str] = Field(default_factory=list, description="Folders of UI5 apps, relative to the root.")
    abap_packages: list[str] = Field(default_factory=list)


class FindingOut(BaseModel):
    category: str
    severity: str = Field(
        description="error: will not build, deploy or start, or a security hole; warning: likely to hurt soon; "
        "info: a suggestion."
    )
    message: str
    fix: str | None = None
    file: str | None = Field(None, description="File the finding is about, relative to the project root.")
    line: int | None = Field(None, description="1-based line in file where the evidence is, when there is one.")


class Output(ToolOutput):
    path: str
    detection: DetectionOut
    findings: Envelope[FindingOut]


def _resolve(path: str | None, ctx: ToolContext) -> Path:
    if path is None:
        return ctx.cwd
    shown = shorten_path(path)
    if "\0" in path:
        raise ToolError(f"path contains a NUL character: {shown!r}.", hint="Pass the project root folder.")
    try:
        candidate = Path(path).expanduser()
    except RuntimeError:  # ~user of an unknown user
        candidate = Path(path)
    if not candidate.is_absolute():
        raise ToolError(
            f"path must be absolute, got {shown!r}.",
            hint="Pass the full path of the project root, or omit path to use the server's working folder.",
        )
    try:
        is_dir = candidate.is_dir()
        exists = is_dir or candidate.exists()
        resolved = candidate.resolve() if is_dir else candidate
    except OSError as exc:  # too long a name, no permission on a parent, a link loop
        raise ToolError(
            f"{shown} cannot be opened: {exc.strerror or exc}.",
            hint="Pass the project root folder, readable by the user the MCP server runs as.",
        ) from None
    if not exists:
        raise ToolError(f"{shown} does not exist.", hint="Pass the project root folder.")
    if not is_dir:
        raise ToolError(f"{shown} is a file, not a folder.", hint="Pass the project root folder that contains it.")
    if not os.access(resolved, os.R_OK | os.X_OK):
        raise ToolError(
            f"{shown} cannot be read (permission denied).",
            hint="Pass a folder readable by the user the MCP server runs as.",
        )
    return resolved


async def handle(params: Input, ctx: ToolContext) -> Output:
    root = _resolve(params.path, ctx)
    baseline = baseline_from(ctx.knowledge)
    # The dispatcher abandons (cannot stop) a worker at its deadline: finish before it instead.
    limits = dataclasses.replace(LIMITS, max_seconds=min(LIMITS.max_seconds, deadline() * 0.75))
    cancel = threading.Event()
    try:
        report = await asyncio.to_thread(check_project, root, baseline=baseline, limits=limits, cancel=cancel)
    except asyncio.CancelledError:
        cancel.set()  # the worker thread cannot be killed; it stops at its next folder or file
        raise
    findings = [
        FindingOut(category=f.category, severity=f.severity, message=f.message, fix=f.fix, file=f.file, line=f.line)
        for f in report.findings
    ]
    errors = sum(1 for f in findings if f.severity == "error")
    counts = f"{len(findings)} finding(s), {errors} error(s). Fix errors first."
    if not report.detection.types:
        hint = "No SAP project markers found (package.json with @sap/cds, mta.yaml, ui5.yaml, .abapgit.xml ...)."
        if findings:  # e.g. a package.json that could not be read, or an xs-security.json alone
            hint += " " + counts
    elif not findings:
        hint = "No issues found: the project looks healthy."
    else:
        hint = counts
    if len(findings) > MAX_FINDINGS:
        hint += f" Showing the first {MAX_FINDINGS} (errors first)."
    if report.notes:
        hint += " Incomplete check: " + "; ".join(report.notes) + "."
    det = report.detection
    return Output(
        path=str(report.path),
        detection=DetectionOut(
            types=det.types,
            cap_runtime=det.cap_runtime,
            cap_version=det.cap_version,
            database=det.database,
            deployment=det.deployment,
            auth=det.auth,
            ui5_apps=det.ui5_apps,
            abap_packages=det.abap_packages,
        ),
        findings=Envelope[FindingOut].build(findings, limit=MAX_FINDINGS, entity="findings", hint=hint),
    )


TOOL = Tool(
    name="check_project",
    title="Check an SAP project",
    description=(
        "Inspect an SAP project folder without running it: detects CAP, MTA, UI5/Fiori, abapGit, XSUAA, app router, Helm; reports findings with severity and fix."
    ),
    category="doctor",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use check_project to detect the project type and spot configuration problems before editing.",
    example={},
)
