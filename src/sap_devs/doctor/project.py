"""What kind of SAP project a folder holds, and what in it needs attention.

Only reads files: no project code, build tool or package manager is run.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sap_devs.doctor.versions import parse_version

Severity = Literal["error", "warning", "info"]
_MAX_FILE = 2 * 1024 * 1024  # manifests larger than this are not a real project file


@dataclass(frozen=True)
class Finding:
    category: str
    severity: Severity
    message: str
    fix: str | None = None
    file: str | None = None


@dataclass
class Detection:
    types: list[str] = field(default_factory=list)
    cap_runtime: str | None = None
    cap_version: str | None = None
    database: str | None = None
    deployment: list[str] = field(default_factory=list)
    auth: str | None = None
    ui5_apps: list[str] = field(default_factory=list)
    abap_packages: list[str] = field(default_factory=list)


@dataclass
class ProjectReport:
    path: Path
    detection: Detection
    findings: list[Finding]


class _Reader:
    """Reads project files once, turning unreadable or malformed ones into findings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.findings: list[Finding] = []
        self._texts: dict[Path, str | None] = {}

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def text(self, path: Path) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: Path) -> str | None:
        if not path.is_file():
            return None
        try:
            if path.stat().st_size > _MAX_FILE:
                self.findings.append(Finding("file", "warning", f"{self.rel(path)} is too large to inspect."))
                return None
            return path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            self.findings.append(Finding("file", "warning", f"{self.rel(path)} cannot be read: {exc}"))
            return None

    def json(self, path: Path) -> dict[str, Any] | None:
        raw = self.text(path)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            self.findings.append(
                Finding(
                    "syntax",
                    "error",
                    f"{self.rel(path)} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).",
                    fix=f"Fix the JSON syntax in {self.rel(path)}; tools reading it will fail until then.",
                    file=self.rel(path),
                )
            )
            return None
        if not isinstance(data, dict):
            self.findings.append(Finding("syntax", "error", f"{self.rel(path)} should hold a JSON object."))
            return None
        return data

    def yaml(self, path: Path) -> Any:
        raw = self.text(path)
        if raw is None:
            return None
        import yaml

        try:
            return yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark else ""
            self.findings.append(
                Finding(
                    "syntax",
                    "error",
                    f"{self.rel(path)} is not valid YAML{where}.",
                    fix=f"Fix the YAML syntax in {self.rel(path)}.",
                    file=self.rel(path),
                )
            )
            return None


def _ignored_by_git(root: Path, reader: _Reader, name: str) -> bool:
    raw = reader.text(root / ".gitignore") or ""
    for line in raw.splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        pattern = pattern.lstrip("/").rstrip("/")
        if fnmatch.fnmatch(name, pattern) or pattern in ("*", "**"):
            return True
    return False


def _deps(pkg: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    deps = pkg.get("dependencies") or {}
    dev = pkg.get("devDependencies") or {}
    return (deps if isinstance(deps, dict) else {}), (dev if isinstance(dev, dict) else {})


def _clean_range(spec: str) -> str:
    return spec.strip().lstrip("^~>=<! ")


def _find(root: Path, name: str, *, depth: int = 3) -> list[Path]:
    """Files called ``name`` up to ``depth`` folders down, skipping dependency and build folders."""
    skip = {"node_modules", ".git", "gen", "dist", "target", "mta_archives", ".venv"}
    found: list[Path] = []

    def walk(folder: Path, level: int) -> None:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            return
        for entry in entries:
            if entry.is_dir() and level < depth and entry.name not in skip and not entry.name.startswith("."):
                walk(entry, level + 1)
            elif entry.name == name and entry.is_file():
                found.append(entry)

    walk(root, 0)
    return found


def _detect_cap(root: Path, reader: _Reader, det: Detection, pkg: dict[str, Any] | None) -> None:
    if pkg is not None:
        deps, dev = _deps(pkg)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            det.types.append("CAP (Node.js)")
            det.cap_runtime = "nodejs"
            if "@sap/cds" in deps:
                det.cap_version = _clean_range(str(deps["@sap/cds"]))
            requires = ((pkg.get("cds") or {}).get("requires") or {}) if isinstance(pkg.get("cds"), dict) else {}
            names = [*deps, *dev, *(requires.keys() if isinstance(requires, dict) else [])]
            if any("hana" in n for n in names):
                det.database = "hana"
            elif "@cap-js/postgres" in names:
                det.database = "postgres"
            elif "@cap-js/sqlite" in names or "sqlite3" in names:
                det.database = "sqlite"
            return
    pom = reader.text(root / "pom.xml")
    if pom and "com.sap.cds" in pom:
        det.types.append("CAP (Java)")
        det.cap_runtime = "java"
        return
    if (root / ".cdsrc.json").is_file():
        det.types.append("CAP (Node.js)")
        det.cap_runtime = "nodejs"


def detect(root: Path, reader: _Reader | None = None) -> tuple[Detection, dict[str, Any] | None]:
    reader = reader or _Reader(root)
    det = Detection()
    pkg = reader.json(root / "package.json")
    _detect_cap(root, reader, det, pkg)
    if (root / "mta.yaml").is_file() or (root / ".mta.yaml").is_file():
        det.types.append("MTA")
        det.deployment.append("mta-cf")
    if (root / "xs-security.json").is_file():
        det.auth = "xsuaa"
    deps, _dev = _deps(pkg) if pkg else ({}, {})
    if (root / "xs-app.json").is_file() or "@sap/approuter" in deps or _find(root, "xs-app.json", depth=2):
        det.types.append("App router")
    for chart_dir in ("chart", "helm", "charts"):
        if (root / chart_dir).is_dir() and _find(root / chart_dir, "Chart.yaml", depth=2):
            det.types.append("Kyma / Helm")
            det.deployment.append("helm-kyma")
            break
    manifests = _find(root, "manifest.json", depth=4)
    ui5_roots = sorted({m.parent.parent for m in manifests if m.parent.name == "webapp"})
    if (root / "ui5.yaml").is_file() and root not in ui5_roots:
        ui5_roots.insert(0, root)
    if ui5_roots:
        det.types.append("SAPUI5 / Fiori")
        det.ui5_apps = [reader.rel(r) if r != root else "." for r in ui5_roots]
    abapgit = _find(root, ".abapgit.xml", depth=1)
    if abapgit:
        det.types.append("ABAP (abapGit)")
        det.abap_packages = [reader.rel(p.parent) if p.parent != root else "." for p in abapgit]
    if not det.types and pkg is not None:
        det.types.append("Node.js")
    return det, pkg


def _cap_findings(
    root: Path, reader: _Reader, det: Detection, pkg: dict[str, Any] | None, cds_current: str | None
) -> list[Finding]:
    out: list[Finding] = []
    if det.cap_runtime != "nodejs" or pkg is None:
        return out
    deps, dev = _deps(pkg)
    if "@sap/cds-dk" not in deps and "@sap/cds-dk" not in dev:
        out.append(
            Finding(
                "dependency",
                "warning",
                "@sap/cds-dk is not a project dependency, so builds depend on a globally installed cds CLI.",
                fix="npm add -D @sap/cds-dk",
                file="package.json",
            )
        )
    if det.cap_version and cds_current:
        have, want = parse_version(det.cap_version), parse_version(cds_current)
        if have and want and have < want:
            severity: Severity = "error" if have[0] < want[0] else ("warning" if want[1] - have[1] >= 2 else "info")
            out.append(
                Finding(
                    "version",
                    severity,
                    f"@sap/cds {det.cap_version} is behind the current release {cds_current}.",
                    fix="npm update @sap/cds @sap/cds-dk (read the CAP release notes before a major upgrade)",
                    file="package.json",
                )
            )
    if not (root / "default-env.json").is_file() and not _ignored_by_git(root, reader, "default-env.json"):
        out.append(
            Finding(
                "security",
                "warning",
                ".gitignore does not list default-env.json, the usual place for local service credentials.",
                fix="Add 'default-env.json' to .gitignore before anyone creates one.",
                file=".gitignore",
            )
        )
    scripts = pkg.get("scripts") if isinstance(pkg.get("scripts"), dict) else {}
    if not scripts.get("lint"):
        out.append(
            Finding(
                "practice",
                "info",
                "No 'lint' script: CDS models and handlers are not linted.",
                fix='npm add -D @sap/eslint-plugin-cds eslint, then add "lint": "eslint ." to scripts',
                file="package.json",
            )
        )
    if "@sap/cds" in dev and "@sap/cds" not in deps:
        out.append(
            Finding(
                "dependency",
                "error",
                "@sap/cds is only a devDependency; the deployed app will not find it at runtime.",
                fix="npm add @sap/cds (move it to dependencies)",
                file="package.json",
            )
        )
    return out


def _secret_findings(root: Path, reader: _Reader) -> list[Finding]:
    out = []
    for name in ("default-env.json", ".cdsrc-private.json", ".env"):
        if (root / name).is_file() and not _ignored_by_git(root, reader, name):
            out.append(
                Finding(
                    "security",
                    "error",
                    f"{name} holds credentials and is not listed in .gitignore.",
                    fix=f"Add '{name}' to .gitignore now; if it was ever committed, rotate the credentials.",
                    file=name,
                )
            )
    return out


def _mta_findings(root: Path, reader: _Reader) -> list[Finding]:
    path = root / "mta.yaml" if (root / "mta.yaml").is_file() else root / ".mta.yaml"
    data = reader.yaml(path)
    if not isinstance(data, dict):
        return []
    out = []
    name = path.name
    for key in ("_schema-version", "ID", "version"):
        if not data.get(key):
            out.append(
                Finding("mta", "error", f"{name} has no '{key}'.", fix=f"Add a '{key}' entry at the top.", file=name)
            )
    modules = data.get("modules") or []
    if isinstance(modules, list):
        for module in modules:
            if not isinstance(module, dict):
                continue
            mod_path = module.get("path")
            if mod_path and not (root / str(mod_path)).exists():
                out.append(
                    Finding(
                        "mta",
                        "error",
                        f"{name}: module '{module.get('name')}' points to '{mod_path}', which does not exist.",
                        fix="Correct the module path, or run 'cds build --production' first if it is a gen/ folder.",
                        file=name,
                    )
                )
    return out


def _xsuaa_findings(root: Path, reader: _Reader) -> list[Finding]:
    data = reader.json(root / "xs-security.json")
    if data is None:
        return []
    out = []
    if not data.get("xsappname"):
        out.append(
            Finding(
                "security",
                "error",
                "xs-security.json has no 'xsappname'.",
                fix='Add a unique "xsappname"; it must be unique within the subaccount.',
                file="xs-security.json",
            )
        )
    scopes = {s.get("name") for s in data.get("scopes") or [] if isinstance(s, dict)}
    xsappname = data.get("xsappname", "")
    for template in data.get("role-templates") or []:
        if not isinstance(template, dict):
            continue
        for ref in template.get("scope-references") or []:
            if ref not in scopes and not str(ref).startswith("uaa."):
                out.append(
                    Finding(
                        "security",
                        "error",
                        f"Role template '{template.get('name')}' references scope '{ref}', which is not defined.",
                        fix=f"Define the scope under 'scopes' (usually '$XSAPPNAME.{str(ref).split('.')[-1]}').",
                        file="xs-security.json",
                    )
                )
    if scopes and xsappname and not any(str(s).startswith("$XSAPPNAME") for s in scopes):
        out.append(
            Finding(
                "security",
                "warning",
                "Scopes are not prefixed with $XSAPPNAME, so they will not be unique to this application.",
                fix="Name scopes '$XSAPPNAME.<Scope>'.",
                file="xs-security.json",
            )
        )
    return out


def _ui5_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
    out = []
    for app in det.ui5_apps:
        app_root = root / app
        manifest_path = app_root / "webapp" / "manifest.json"
        ui5_yaml = app_root / "ui5.yaml"
        label = reader.rel(manifest_path) if manifest_path.is_file() else None
        if manifest_path.is_file():
            manifest = reader.json(manifest_path)
            if manifest is not None:
                sap_app = manifest.get("sap.app") if isinstance(manifest.get("sap.app"), dict) else None
                if sap_app is None or not sap_app.get("id"):
                    out.append(
                        Finding(
                            "ui5",
                            "error",
                            f"{label} has no 'sap.app'/'id'; the app cannot be loaded or deployed.",
                            fix='Add "sap.app": {"id": "<namespace>.<app>", ...} matching the component namespace.',
                            file=label,
                        )
                    )
                sap_ui5 = manifest.get("sap.ui5") if isinstance(manifest.get("sap.ui5"), dict) else {}
                deps = sap_ui5.get("dependencies") if isinstance(sap_ui5.get("dependencies"), dict) else {}
                min_version = parse_version(str(deps.get("minUI5Version", ""))) if deps.get("minUI5Version") else None
                if min_version and min_version < (1, 71, 0):
                    out.append(
                        Finding(
                            "ui5",
                            "warning",
                            f"{label} targets minUI5Version {deps['minUI5Version']}, older than any maintained "
                            "SAPUI5 long-term release.",
                            fix="Raise sap.ui5/dependencies/minUI5Version to a maintained version (1.120 or later).",
                            file=label,
                        )
                    )
        if not ui5_yaml.is_file():
            out.append(
                Finding(
                    "ui5",
                    "warning",
                    f"UI5 app '{app}' has no ui5.yaml, so UI5 Tooling (ui5 serve / ui5 build) cannot run it.",
                    fix="Run 'npx @ui5/cli init' in the app folder, or generate the app with SAP Fiori tools.",
                    file=f"{app}/ui5.yaml" if app != "." else "ui5.yaml",
                )
            )
        else:
            data = reader.yaml(ui5_yaml)
            if isinstance(data, dict) and not data.get("specVersion"):
                out.append(
                    Finding(
                        "ui5",
                        "error",
                        f"{reader.rel(ui5_yaml)} has no 'specVersion'.",
                        fix='Add specVersion: "3.0" (or newer) at the top of ui5.yaml.',
                        file=reader.rel(ui5_yaml),
                    )
                )
    return out


def check_project(root: Path, *, cds_current: str | None = None) -> ProjectReport:
    reader = _Reader(root)
    det, pkg = detect(root, reader)
    findings = [
        *_cap_findings(root, reader, det, pkg, cds_current),
        *_secret_findings(root, reader),
        *(_mta_findings(root, reader) if "MTA" in det.types else []),
        *(_xsuaa_findings(root, reader) if det.auth == "xsuaa" else []),
        *_ui5_findings(root, reader, det),
    ]
    findings = reader.findings + findings
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: order[f.severity])
    return ProjectReport(path=root, detection=det, findings=findings)
