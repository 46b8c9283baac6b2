"""check_abap_code: ABAP checked offline with abaplint (ABAP Cloud or Standard) and SAP's released-API list."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sap_devs.mcp.framework import LIST_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools.project._shared import PATH_MAX, RELATIVE_NOTE, KnownErrorRef, resolve_path, time_budget
from sap_devs.toolchain.abap_files import SOURCE_MAX
from sap_devs.toolchain.known_errors import known_error_for


class Input(ToolInput):
    # the code comes one way, which the schema says too; an explicit null is refused (no null type)
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"oneOf": [{"required": ["source"]}, {"required": ["path"]}]}
    )

    source: str = Field(
        None,
        min_length=1,
        max_length=SOURCE_MAX,
        description=(
            "ABAP source to check: a global class, interface or report, or just statements (checked as a method "
            "body). Give source or path."
        ),
    )
    path: str = Field(
        None,
        min_length=1,
        max_length=PATH_MAX,
        description=(
            "Path of an abapGit repository folder (its .abapgit.xml STARTING_FOLDER is read) or one ABAP file: "
            f"{RELATIVE_NOTE}. Give source or path."
        ),
    )
    language_version: Literal["cloud", "standard"] = Field(
        "cloud",
        description=(
            "cloud = ABAP for Cloud Development (SAP BTP ABAP environment, S/4HANA Cloud, tier 1): only released "
            "APIs and cloud statements; standard = classic ABAP."
        ),
    )
    limit: int = limit_field(LIST_LIMIT, "findings")

    @model_validator(mode="after")
    def _one_input(self) -> Input:
        if (self.source is None) == (self.path is None):
            raise ValueError("give exactly one of source (ABAP text) or path (abapGit folder or file)")
        return self


class AbapFindingOut(BaseModel):
    source: str = Field(description="abaplint (syntax, language version) or released-api (SAP's released-API list).")
    rule: str = Field(description="abaplint's rule key (parser_error, check_syntax, cloud_types ...) or released-api.")
    severity: str = Field(description="error, warning or info.")
    message: str
    file: str = Field(description="'source' for source, else the path relative to the folder.")
    line: int
    column: int
    object_name: str | None = Field(None, description="released-api: the SAP object referred to, e.g. MARA.")
    object_type: str | None = None
    state: str | None = Field(
        None, description="released-api: its state in SAP's list (released, deprecated, notToBeReleased ...)."
    )
    successors: list[str] = Field(
        default_factory=list, description="released-api: what SAP says to use instead, e.g. I_PRODUCT."
    )
    docs: str | None = None
    known_error: KnownErrorRef | None = None


class Output(Envelope[AbapFindingOut]):
    language_version: str
    abaplint_version: str
    errors: int
    objects: list[str] = Field(description="The ABAP objects checked, e.g. 'CLAS ZCL_DEMO'.")
    sap_objects_checked: int = Field(description="Distinct SAP objects looked up in the released-API list.")
    released_api_source: str
    skipped: list[str] = Field(default_factory=list, description="Files not checked, and why (symlinks, size).")
    seconds: float


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.toolchain import abaplint

    budget = time_budget()
    if params.source is not None:
        report = abaplint.check_source(params.source, params.language_version, timeout=budget)
    else:
        target = resolve_path(params.path, ctx, what="abapGit folder or ABAP file")
        report = abaplint.check_path(target, params.language_version, timeout=budget)
    memo: dict = {}
    items = []
    for f in report.findings:
        known = known_error_for(ctx.knowledge, "", f.message, memo=memo) if f.source == "abaplint" else None
        items.append(
            AbapFindingOut(
                source=f.source,
                rule=f.rule,
                severity=f.severity,
                message=f.message,
                file=f.file,
                line=f.line,
                column=f.column,
                object_name=f.object_name,
                object_type=f.object_type,
                state=f.state,
                successors=list(f.successors),
                docs=f.docs,
                known_error=KnownErrorRef.of(known) if known else None,
            )
        )
    errors = sum(1 for f in report.findings if f.severity == "error")
    notes = []
    if not items:
        notes.append(f"No findings for ABAP {'Cloud' if params.language_version == 'cloud' else 'Standard'}.")
    elif len(items) > params.limit:
        notes.append(f"Showing {params.limit} of {len(items)} findings; fix the errors first or check fewer files.")
    if report.snippet:
        notes.append("The source was checked as the body of a method of a generated class.")
    if any(f.source == "released-api" and f.successors for f in report.findings):
        notes.append(
            "Replace objects that are not released with the successors named (check_released_api has details)."
        )
    built = Envelope.build(items, limit=params.limit, entity="findings", hint=" ".join(notes) or None)
    return Output(
        count=built.count,
        total=built.total,
        results=built.results,
        hint=built.hint,
        language_version=params.language_version,
        abaplint_version=report.abaplint_version,
        errors=errors,
        objects=report.objects,
        sap_objects_checked=report.references,
        released_api_source=report.released_api_source,
        skipped=report.skipped[:50],
        seconds=round(report.seconds, 2),
    )


TOOL = Tool(
    name="check_abap_code",
    title="Check ABAP code offline (abaplint + released APIs)",
    description=(
        "Check ABAP code without an ABAP system: abaplint's syntax check for ABAP Cloud or Standard ABAP (syntax "
        "errors, statements and object types not allowed in ABAP Cloud such as WRITE), and every SAP object the "
        "code uses (tables, CDS views, classes, function modules) against SAP's released-API list, with successors "
        "(SELECT FROM mara in cloud code: use I_PRODUCT). Takes source text or an abapGit folder/file. Needs "
        "`sap-devs toolchain install abap`."
    ),
    category="project",
    project_kinds=frozenset({"abap"}),  # listed where the server starts in such a project
    action="execute",
    risk="low",  # runs abaplint from the toolchain over text; nothing is executed or written
    input=Input,
    output=Output,
    handler=handle,
    instruction="Before giving the user ABAP code, check it with check_abap_code (language_version cloud for ABAP Cloud) and fix what it reports.",
    example={"source": "SELECT * FROM mara INTO TABLE @DATA(lt_mara) UP TO 10 ROWS.", "language_version": "cloud"},
)
