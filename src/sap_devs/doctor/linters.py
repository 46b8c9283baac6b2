"""SAP's own compilers and linters over a checked project, as findings: what ``sap-devs check`` adds
when the toolchain is installed.

For each kind of project the detection found it runs the toolchain adapter the MCP tools run:
the CDS compiler (``toolchain.cds``, as check_cds) for a CAP project, the UI5 linter
(``toolchain.ui5lint``, as run_ui5_linter) for each UI5 app, abaplint (``toolchain.abaplint``, as
check_abap_code) for each abapGit folder. Each run is bounded by the time it is given; what is not
installed becomes one info finding naming the install command, never a failure. Nothing of the
project runs: the adapters read it as text.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sap_devs.doctor.project.model import Detection, Finding, Severity

MAX_FINDINGS_PER_RUN = 200
MAX_RUNS_PER_KIND = 10
MIN_RUN_SECONDS = 5.0
# the package that stands for each toolchain component, and what the check could not do without it
_NEEDS = {
    "cds": ("@sap/cds-compiler", "compile the CDS model"),
    "ui5": ("@ui5/linter", "run the UI5 linter"),
    "abap": ("@abaplint/core", "run abaplint"),
}
_CDS_SEVERITY: dict[str, Severity] = {"Error": "error", "Warning": "warning", "Info": "info"}


@dataclass
class LinterRun:
    tool: str
    """cds-compiler, ui5lint or abaplint."""
    target: str
    """The folder it ran over, relative to the project root ('.' for the root)."""
    version: str
    seconds: float
    findings: int
    errors: int


@dataclass
class LinterReport:
    findings: list[Finding] = field(default_factory=list)
    runs: list[LinterRun] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Toolchain components this project would use that are not installed (cds, ui5, abap)."""
    notes: list[str] = field(default_factory=list)
    """Runs that failed, timed out or were skipped: the check is incomplete."""


Progress = Callable[[str], None]


class _Budget:
    def __init__(self, total: float, per_run: float) -> None:
        self.ends = time.monotonic() + total
        self.per_run = per_run

    def next(self) -> float | None:
        """Seconds the next run may take, or None when too little time is left to start one."""
        left = self.ends - time.monotonic()
        return None if left < MIN_RUN_SECONDS else min(self.per_run, left)


def _shown(root: Path, folder: Path) -> str:
    return "." if folder == root else folder.relative_to(root).as_posix()


def _under(target: str, file: str | None) -> str | None:
    if not file or target == "." or file.startswith("@"):
        return file
    return f"{target}/{file}"


def _known(kb: Any, rule: str, message: str, memo: dict, fix: str | None = None) -> dict[str, str | None]:
    """The known error's id for the finding, and its fix where the tool gives none."""
    entry = None
    if kb is not None:
        from sap_devs.toolchain.known_errors import known_error_for

        entry = known_error_for(kb, rule, message, memo=memo)
    if entry is None:
        return {"known_error": None, "fix": fix}
    return {"known_error": entry.id, "fix": fix or entry.fix}


def _cap(findings: list[Finding], tool: str, target: str, report: LinterReport) -> list[Finding]:
    if len(findings) > MAX_FINDINGS_PER_RUN:
        report.notes.append(
            f"{tool} over {target}: kept the first {MAX_FINDINGS_PER_RUN} of {len(findings)} findings (errors first)"
        )
        order = {"error": 0, "warning": 1, "info": 2}
        findings = sorted(findings, key=lambda f: order[f.severity])[:MAX_FINDINGS_PER_RUN]
    return findings


def _cds(root: Path, folder: Path, timeout: float, kb: Any, memo: dict, report: LinterReport) -> None:
    import dataclasses

    from sap_devs.toolchain.cds import LIMITS, compile_project

    target = _shown(root, folder)
    result = compile_project(folder, limits=dataclasses.replace(LIMITS, timeout=min(LIMITS.timeout, timeout)))
    if not result.roots:
        report.notes.append(
            f"cds-compiler over {target}: no CDS model files in db/, srv/, app/ or cds.requires; nothing was compiled"
        )
        return
    findings = []
    for m in result.messages:
        severity = _CDS_SEVERITY.get(m.severity)
        if severity is None:  # Debug
            continue
        known = _known(kb, m.message_id or "", m.message, memo) if severity != "info" else {}
        findings.append(
            Finding("cds", severity, m.message, file=_under(target, m.file), line=m.line, rule=m.message_id, **known)
        )
    report.findings += _cap(findings, "cds-compiler", target, report)
    report.notes += [f"cds-compiler over {target}: {note}" for note in result.notes]
    report.runs.append(
        LinterRun("cds-compiler", target, result.compiler_version, result.seconds, len(findings), len(result.errors))
    )


def _cap_folders(root: Path) -> list[Path]:
    """The CAP projects to compile: the root when it has a model, and the CAP projects of a monorepo
    (its npm workspaces, as the project checks find them)."""
    from sap_devs.doctor.project.reader import Reader
    from sap_devs.doctor.project.workspaces import cap_subprojects
    from sap_devs.toolchain.cds_roots import model_roots

    reader = Reader(root)
    pkg = reader.json(root / "package.json") if reader.is_file(root / "package.json") else None
    subs = [folder for folder, _pkg in cap_subprojects(root, reader, pkg)]
    has_model = bool(model_roots(root, cds_home=None).files)
    return [root, *subs] if has_model or not subs else subs


def _ui5(root: Path, app: Path, timeout: float, kb: Any, memo: dict, report: LinterReport) -> None:
    from sap_devs.toolchain import ui5lint

    target = _shown(root, app)
    lint = ui5lint.lint(app, timeout=timeout)
    findings = [
        Finding(
            "ui5lint",
            "error" if f.severity == "error" else "warning",
            f.message,
            file=_under(target, f.file),
            line=f.line,
            rule=f.rule_id,
            **_known(kb, f.rule_id, f.message, memo, f.fix or f.docs),
        )
        for f in lint.findings
    ]
    report.findings += _cap(findings, "ui5lint", target, report)
    report.notes += [f"ui5lint over {target}: {note}" for note in lint.config_notes]
    errors = sum(1 for f in findings if f.severity == "error")
    report.runs.append(LinterRun("ui5lint", target, lint.linter_version, lint.seconds, len(findings), errors))


def _abap(root: Path, folder: Path, timeout: float, kb: Any, memo: dict, report: LinterReport) -> None:
    from sap_devs.doctor.project.abap import language_version
    from sap_devs.doctor.project.reader import Reader
    from sap_devs.toolchain import abaplint

    target = _shown(root, folder)
    language = language_version(folder, Reader(root))
    checked = abaplint.check_path(folder, language, timeout=timeout)  # type: ignore[arg-type]
    findings = []
    for f in checked.findings:
        severity: Severity = f.severity if f.severity in ("error", "warning", "info") else "warning"  # type: ignore[assignment]
        fix = None
        if f.successors:
            fix = f"Use {', '.join(f.successors)} instead (SAP's released-API list)."
        elif f.docs:
            fix = f.docs
        known = _known(kb, "", f.message, memo, fix) if f.source == "abaplint" else {"fix": fix}
        findings.append(
            Finding("abaplint", severity, f.message, file=_under(target, f.file), line=f.line, rule=f.rule, **known)
        )
    report.findings += _cap(findings, f"abaplint (ABAP {language})", target, report)
    if checked.skipped:
        report.notes.append(f"abaplint over {target}: {len(checked.skipped)} file(s) not checked (links, size)")
    errors = sum(1 for f in findings if f.severity == "error")
    report.runs.append(
        LinterRun(f"abaplint ({language})", target, checked.abaplint_version, checked.seconds, len(findings), errors)
    )


def _plan(root: Path, det: Detection) -> list[tuple[str, Path]]:
    """The runs this project gets: (component, folder)."""
    plan: list[tuple[str, Path]] = []
    if det.cap_runtime is not None:
        plan += [("cds", folder) for folder in _cap_folders(root)]
    for kind, folders in (("ui5", det.ui5_apps), ("abap", det.abap_packages)):
        plan += [(kind, root / f if f != "." else root) for f in folders]
    return plan


def _installed(component: str) -> bool:
    from sap_devs.toolchain.errors import ToolchainMissing
    from sap_devs.toolchain.locate import package_dir

    try:
        package_dir(_NEEDS[component][0])
    except ToolchainMissing:
        return False
    return True


def missing_finding(missing: list[str]) -> Finding:
    """One line for every component the project would use and that is not installed."""
    from sap_devs.toolchain.components import COMPONENTS

    titles = [COMPONENTS[c].title for c in missing]
    what = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
    could = " or ".join(_NEEDS[c][1] for c in missing)
    verb = "is" if len(titles) == 1 else "are"
    return Finding(
        "toolchain",
        "info",
        f"The {what} {verb} not installed, so sap-devs check did not {could}: "
        f"run `sap-devs toolchain install {' '.join(missing)}`.",
        fix=f"sap-devs toolchain install {' '.join(missing)}",
    )


def run_linters(
    root: Path,
    det: Detection,
    *,
    per_run: float,
    total: float,
    kb: Any = None,
    progress: Progress | None = None,
) -> LinterReport:
    """Run the toolchain's compilers and linters that fit ``det`` over ``root``.

    Each run may take ``per_run`` seconds, all of them ``total``; ``kb`` (the knowledge base) attaches
    known errors; ``progress`` hears what runs next.
    """
    from sap_devs.core.errors import SapDevsError
    from sap_devs.toolchain.errors import ToolchainMissing

    report = LinterReport()
    plan: list[tuple[str, Path]] = []
    wanted = _plan(root, det)
    for kind in _NEEDS:
        runs = [(k, folder) for k, folder in wanted if k == kind]
        if len(runs) > MAX_RUNS_PER_KIND:
            report.notes.append(f"{kind}: checked the first {MAX_RUNS_PER_KIND} of {len(runs)} folders")
        plan += runs[:MAX_RUNS_PER_KIND]
    installed = {c: _installed(c) for c in dict.fromkeys(kind for kind, _ in plan)}
    report.missing = [c for c, ok in installed.items() if not ok]
    budget = _Budget(total, per_run)
    memo: dict = {}
    node_missing: set[str] = set()
    titles = {"cds": "Compiling the CDS model (cds-compiler)", "ui5": "Running the UI5 linter", "abap": "abaplint"}
    for kind, folder in plan:
        if not installed[kind]:
            continue
        target = _shown(root, folder)
        timeout = budget.next()
        if timeout is None:
            report.notes.append(f"{titles[kind]} over {target} was not run: the {total:.0f} s for linters were used up")
            continue
        if progress is not None:
            progress(f"{titles[kind]} over {target}")
        try:
            if kind == "cds":
                _cds(root, folder, timeout, kb, memo, report)
            elif kind == "ui5":
                _ui5(root, folder, timeout, kb, memo, report)
            else:
                _abap(root, folder, timeout, kb, memo, report)
        except ToolchainMissing as exc:  # the package is there, Node is not (or too old)
            node_missing.add(str(exc))
        except SapDevsError as exc:  # timed out, crashed, not a project of that kind: the check is incomplete
            report.notes.append(f"{titles[kind]} over {target}: {exc}")
    if report.missing:
        report.findings.append(missing_finding(report.missing))
    report.findings += [Finding("toolchain", "info", line) for line in sorted(node_missing)]
    return report
