"""@ui5/linter over a UI5 project: SAP's own findings (rule, severity, message, file, line, column, fix).

The linter runs from the toolchain folder through js/ui5lint.mjs, which calls its API with
``noConfig`` (a project's ui5lint.config.js is JavaScript and would run) and refuses any import
from outside the toolchain; the config's literal ``ignores``, ``files`` and ``ui5Config`` are read
as text (``ui5lint_config``) and passed as options. The project is only read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.core.errors import SapDevsError
from sap_devs.toolchain.errors import ToolchainFailed
from sap_devs.toolchain.locate import installed_version, package_dir, toolchain_dir
from sap_devs.toolchain.paths import project_root, relative_patterns
from sap_devs.toolchain.runner import run_node
from sap_devs.toolchain.ui5lint_config import read_config

PACKAGE = "@ui5/linter"
TIMEOUT = 300.0
MEMORY_MB = 3072
RULES_DOC = "https://github.com/UI5/linter/blob/main/docs/Rules.md"
_SEVERITY = {1: "warning", 2: "error"}
_PROJECT_MARKERS = ("ui5.yaml", "webapp", "src/main/webapp", "src", "WebContent")


@dataclass(frozen=True)
class Ui5Finding:
    rule_id: str
    severity: str  # error, warning
    message: str
    file: str  # relative to the project root, "/" separated
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    fix: str | None  # the linter's own guidance (its message details)
    docs: str
    fatal: bool = False


@dataclass
class Ui5LintReport:
    root: Path
    linter_version: str
    findings: list[Ui5Finding] = field(default_factory=list)
    seconds: float = 0.0
    config_file: str | None = None  # the project's ui5lint.config.*, read as text (never loaded)
    config_notes: list[str] = field(default_factory=list)  # what of it was not used, and why
    config_applied: list[str] = field(default_factory=list)  # its settings passed to the linter
    sandboxed: bool = False


def rule_docs(rule_id: str) -> str:
    return f"{RULES_DOC}#{rule_id}" if rule_id else RULES_DOC


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_output(stdout: str) -> list[Ui5Finding]:
    """The findings from js/ui5lint.mjs' JSON line; ToolchainFailed when it reports a failure."""
    try:
        data = json.loads(stdout.strip().splitlines()[-1]) if stdout.strip() else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise ToolchainFailed("The UI5 linter printed no readable result.")
    if not data.get("ok"):
        raise ToolchainFailed(f"The UI5 linter failed: {str(data.get('error') or 'no reason given')[:500]}")
    findings = []
    for entry in data.get("files") or []:
        file = str(entry.get("filePath") or "").replace("\\", "/")
        for m in entry.get("messages") or []:
            rule = str(m.get("ruleId") or "")
            details = m.get("messageDetails")
            findings.append(
                Ui5Finding(
                    rule_id=rule,
                    severity=_SEVERITY.get(m.get("severity"), "warning"),
                    message=str(m.get("message") or ""),
                    file=file,
                    line=_int(m.get("line")),
                    column=_int(m.get("column")),
                    end_line=_int(m.get("endLine")),
                    end_column=_int(m.get("endColumn")),
                    fix=" ".join(str(details).split()) if details else None,
                    docs=rule_docs(rule),
                    fatal=bool(m.get("fatal")),
                )
            )
    findings.sort(key=lambda f: (f.file, f.line or 0, f.column or 0, f.rule_id))
    return findings


def lint(path: Path, files: list[str] | None = None, *, timeout: float = TIMEOUT) -> Ui5LintReport:
    """Run the UI5 linter over the project at ``path`` (optionally only ``files``, patterns relative to it)."""
    linter = package_dir(PACKAGE)  # first: without the linter nothing else matters
    root = project_root(path)
    if not any((root / marker).exists() for marker in _PROJECT_MARKERS):
        raise SapDevsError(
            f"{root} is not a UI5 project: no ui5.yaml, webapp/ or src/ folder; give the folder that holds them."
        )
    patterns = relative_patterns(files or [])
    config = read_config(root)
    # as ui5lint: files given to the call replace the config's own
    options = {"files": patterns or config.files, "ignores": config.ignores, "ui5Config": config.ui5_config}
    result = run_node(
        "ui5lint.mjs",
        [str(linter), str(root), json.dumps(options)],
        cwd=toolchain_dir(),
        timeout=timeout,
        max_memory_mb=MEMORY_MB,
        allow_read=[toolchain_dir() / "node_modules", linter, root],
    )
    if result.timed_out:
        raise ToolchainFailed(f"The UI5 linter did not finish within {timeout:.0f} s; lint fewer files with `files`.")
    if result.truncated:
        raise ToolchainFailed("The UI5 linter printed more than the output limit; lint fewer files with `files`.")
    try:
        findings = parse_output(result.stdout)
    except ToolchainFailed as exc:
        tail = result.stderr.strip().splitlines()[-1:] if result.stderr.strip() else []
        raise ToolchainFailed(f"{exc} {tail[0][:300] if tail else ''}".strip()) from None
    return Ui5LintReport(
        root=root,
        linter_version=installed_version(linter) or "unknown",
        findings=findings,
        seconds=result.seconds,
        config_file=config.file,
        config_notes=config.notes,
        config_applied=[
            key
            for key, value in (("ignores", config.ignores), ("files", config.files), ("ui5Config", config.ui5_config))
            if value and not (key == "files" and patterns)
        ],
        sandboxed=result.sandboxed,
    )
