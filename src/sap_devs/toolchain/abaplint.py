"""abaplint over ABAP code, offline: syntax and ABAP Cloud language-version errors, plus SAP's
released-API list for every SAP object the code refers to, with successors.

@abaplint/core runs from the toolchain through js/abaplint.cjs, which gets the files on stdin
and reads nothing else (no abaplint.json from the project, no folder scan). Why core and not the
CLI: the CLI would need a config file and a folder to glob, and reports only issues; core's API
also gives the references to objects outside the files (tables, classes, types, function modules),
which is what the released-API check needs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from sap_devs.toolchain.abap_files import SNIPPET_CLASS, AbapInput, from_path, from_source
from sap_devs.toolchain.errors import ToolchainFailed
from sap_devs.toolchain.locate import installed_version, package_dir, toolchain_dir
from sap_devs.toolchain.runner import run_node

if TYPE_CHECKING:
    from sap_devs.live.released_apis.lists import Verdict

PACKAGE = "@abaplint/core"
TIMEOUT = 180.0
MEMORY_MB = 3072
Language = Literal["cloud", "standard"]
RULES_DOC = "https://rules.abaplint.org/"

# The rules that find errors (what would not compile or not be allowed), not style: abaplint's
# defaults also enable about 200 style rules, which an agent would chase instead of the errors.
RULES: dict[str, object] = {
    "parser_error": True,
    "check_syntax": True,
    "cloud_types": True,
    "unknown_types": True,
    "implement_methods": True,
    "parser_missing_space": True,
    "check_include": True,
    "obsolete_statement": True,
    "sql_escape_host_variables": True,
}
SNIPPET_NOISE = {"cloud_types"}  # the generated wrapper's object type, not the user's code

# Which types in SAP's lists a reference can mean, most likely first
_KIND_TYPES = {
    "table": ("TABL", "CDS_STOB", "DDLS", "VIEW"),
    "type": ("TABL", "DTEL", "TTYP", "CDS_STOB", "DDLS", "CLAS", "INTF", "TYPE", "DOMA"),
    "object": ("CLAS", "INTF"),
    "function": ("FUNC", "FUGR"),
}
_NOT_RELEASED = {"notToBeReleased", "notToBeReleasedStable", "classicAPI", "internalAPI", "noAPI"}


@dataclass(frozen=True)
class AbapFinding:
    source: str  # abaplint, released-api
    rule: str  # abaplint rule key, or released-api
    severity: str  # error, warning, info
    message: str
    file: str
    line: int
    column: int
    docs: str | None = None
    object_name: str | None = None
    object_type: str | None = None
    state: str | None = None
    successors: tuple[str, ...] = ()


@dataclass
class AbapReport:
    language: Language
    abaplint_version: str
    findings: list[AbapFinding] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)  # the objects the files define, e.g. CLAS ZCL_X
    references: int = 0  # distinct SAP objects looked up
    released_api_source: str = ""
    files: int = 0
    skipped: list[str] = field(default_factory=list)
    snippet: bool = False
    seconds: float = 0.0


def _severity(value: str) -> str:
    return {"Error": "error", "Warning": "warning", "Info": "info"}.get(value, "warning")


def _run(files: AbapInput, language: Language, *, timeout: float) -> dict:
    core = package_dir(PACKAGE)
    payload = {
        "files": [{"name": f.name, "text": f.text} for f in files.files],
        "language": "Cloud" if language == "cloud" else "Standard",
        "rules": RULES,
        # a snippet or one file: other customer objects it names are not here, so not errors
        "errorNamespace": "^(LCL_|LIF_|TY_)" if files.snippet or len(files.files) == 1 else None,
    }
    result = run_node(
        "abaplint.cjs",
        [str(core)],
        cwd=toolchain_dir(),
        timeout=timeout,
        stdin=json.dumps(payload).encode("utf-8"),
        minimum_node=(22, 0),
        max_memory_mb=MEMORY_MB,
        allow_read=[toolchain_dir() / "node_modules", core],
    )
    if result.timed_out:
        raise ToolchainFailed(f"abaplint did not finish within {timeout:.0f} s; check fewer files at a time.")
    if result.truncated:
        raise ToolchainFailed("abaplint printed more than the output limit; check fewer files at a time.")
    try:
        data = json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = result.stderr.strip().splitlines()[-1:] if result.stderr.strip() else ["no output"]
        raise ToolchainFailed(f"abaplint gave no readable result (exit {result.returncode}): {tail[0][:300]}") from None
    if not isinstance(data, dict) or not data.get("ok"):
        reason = str(data.get("error") if isinstance(data, dict) else data).splitlines()[0][:300]
        raise ToolchainFailed(f"abaplint failed: {reason}")
    data["seconds"] = result.seconds
    data["core_version"] = installed_version(core) or "unknown"
    return data


def _position(files: AbapInput, name: str, row: int) -> tuple[str, int] | None:
    """The user's file and line of abaplint's (file, row); None inside the generated wrapper."""
    for f in files.files:
        if f.name == name:
            line = row - f.line_offset
            if f.line_offset and (line < 1 or line > f.text.count("\n") - f.line_offset - 2):
                return None
            return f.shown_as, line
    return name.lstrip("/"), row


def _issues(files: AbapInput, data: dict) -> list[AbapFinding]:
    out = []
    for issue in data.get("issues") or []:
        rule = str(issue.get("rule") or "")
        if files.snippet and rule in SNIPPET_NOISE:
            continue
        where = _position(files, str(issue.get("file") or ""), int(issue.get("row") or 0))
        if where is None:
            continue
        message = str(issue.get("message") or "").replace(SNIPPET_CLASS.upper(), "the snippet")
        out.append(
            AbapFinding(
                source="abaplint",
                rule=rule,
                severity=_severity(str(issue.get("severity"))),
                message=message,
                file=where[0],
                line=where[1],
                column=int(issue.get("col") or 0),
                docs=f"{RULES_DOC}{rule}/",
            )
        )
    return out


def _customer(name: str) -> bool:
    return name[:1] in ("Z", "Y") or name.startswith(("LCL_", "LIF_", "TY_"))


def _released(files: AbapInput, data: dict, language: Language) -> tuple[list[AbapFinding], int, str]:
    from sap_devs.live.released_apis import lists as released_apis

    own = {str(o.get("name") or "").upper() for o in data.get("objects") or []}
    first: dict[tuple[str, str], dict] = {}
    for ref in data.get("references") or []:
        name = str(ref.get("name") or "").upper()
        kind = str(ref.get("kind") or "")
        if not name or kind not in _KIND_TYPES or name in own or _customer(name):
            continue
        first.setdefault((name, kind), ref)
    dataset = released_apis.load()
    target = "cloud" if language == "cloud" else "private"
    findings: list[AbapFinding] = []
    names = sorted({name for name, _ in first})
    verdicts: dict[str, list] = {}
    for verdict in released_apis.check(dataset, names, target):
        verdicts.setdefault(verdict.asked, []).append(verdict)
    reported: set[str] = set()
    for (name, kind), ref in sorted(first.items(), key=lambda item: (item[1].get("file", ""), item[1].get("row", 0))):
        if name in reported:
            continue
        where = _position(files, str(ref.get("file") or ""), int(ref.get("row") or 0))
        if where is None:
            continue
        candidates = [v for v in verdicts.get(name, []) if v.found]
        preferred = _KIND_TYPES[kind]
        candidates.sort(
            key=lambda v: min(
                (
                    preferred.index(t)
                    for t in ((v.entry or v.classification).object_type, (v.entry or v.classification).tadir_object)
                    if t in preferred
                ),
                default=len(preferred),
            )
        )
        verdict = candidates[0] if candidates else (verdicts.get(name) or [None])[0]
        finding = _verdict_finding(verdict, name, kind, where, int(ref.get("col") or 0), language)
        if finding is not None:
            reported.add(name)
            findings.append(finding)
    return findings, len(names), dataset.describe()


def _verdict_finding(
    verdict: Verdict | None, name: str, kind: str, where: tuple[str, int], column: int, language: Language
) -> AbapFinding | None:
    state = verdict.state if verdict is not None else None
    source = (verdict.entry or verdict.classification) if verdict is not None and verdict.found else None
    successors = tuple(s.name for s in verdict.successors) if verdict is not None else ()
    if language == "cloud":
        if state == "released":
            return None
        if state == "deprecated":
            severity = "warning"
        elif verdict is None or not verdict.found:
            # not in SAP's list: an SAP object that is not released, or a customer object in another namespace
            severity = "warning" if kind == "type" else "error"
        else:
            severity = "error"
        message = verdict.sentence() if verdict is not None else f"{name} is not in SAP's released-API list."
    else:
        if state not in ("deprecated", "noAPI") and not (state in _NOT_RELEASED and successors):
            return None  # classic ABAP may use what is not released for ABAP Cloud
        severity = "warning" if state in ("deprecated", "noAPI") else "info"
        message = verdict.sentence()
    return AbapFinding(
        source="released-api",
        rule="released-api",
        severity=severity,
        message=message,
        file=where[0],
        line=where[1],
        column=column,
        object_name=name,
        object_type=source.object_type if source is not None else None,
        state=state,
        successors=successors,
    )


def check(files: AbapInput, language: Language = "cloud", *, timeout: float = TIMEOUT) -> AbapReport:
    data = _run(files, language, timeout=timeout)
    findings = _issues(files, data)
    api_findings, looked_up, source = _released(files, data, language)
    findings += api_findings
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: (f.file, f.line, f.column, order.get(f.severity, 3)))
    return AbapReport(
        language=language,
        abaplint_version=str(data.get("core_version")),
        findings=findings,
        objects=[
            f"{o.get('type')} {o.get('name')}"
            for o in data.get("objects") or []
            if o.get("name") != SNIPPET_CLASS.upper()
        ],
        references=looked_up,
        released_api_source=source,
        files=len(files.files),
        skipped=files.skipped,
        snippet=files.snippet,
        seconds=float(data.get("seconds") or 0.0),
    )


def check_source(source: str, language: Language = "cloud", *, timeout: float = TIMEOUT) -> AbapReport:
    return check(from_source(source), language, timeout=timeout)


def check_path(path: Path, language: Language = "cloud", *, timeout: float = TIMEOUT) -> AbapReport:
    return check(from_path(path), language, timeout=timeout)
