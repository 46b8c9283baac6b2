"""What kind of SAP project a folder holds (CAP, MTA, app router, Kyma/Helm, UI5, abapGit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sap_devs.doctor.project.cap import production_auth
from sap_devs.doctor.project.model import Detection
from sap_devs.doctor.project.mta import mta_folders
from sap_devs.doctor.project.reader import Reader, clean_range, dependencies_of


def _detect_cap(root: Path, reader: Reader, det: Detection, pkg: dict[str, Any] | None) -> None:
    if pkg is not None:
        deps, dev = dependencies_of(pkg)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            det.types.append("CAP (Node.js)")
            det.cap_runtime = "nodejs"
            if "@sap/cds" in deps:
                version = deps["@sap/cds"]
                det.cap_version = clean_range(version)[:60] if isinstance(version, str) else None
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
    if reader.is_file(root / ".cdsrc.json"):
        det.types.append("CAP (Node.js)")
        det.cap_runtime = "nodejs"


def detect(root: Path, reader: Reader | None = None) -> tuple[Detection, dict[str, Any] | None]:
    reader = reader or Reader(root)
    det = Detection()
    pkg = reader.json(root / "package.json")
    _detect_cap(root, reader, det, pkg)
    if mta_folders(root, reader):
        det.types.append("MTA")
        det.deployment.append("mta-cf")
    det.auth = production_auth(root, reader, pkg) if det.cap_runtime == "nodejs" else None
    if det.auth is None and reader.is_file(root / "xs-security.json"):
        det.auth = "xsuaa"
    deps, _dev = dependencies_of(pkg) if pkg else ({}, {})
    if reader.is_file(root / "xs-app.json") or "@sap/approuter" in deps or reader.find("xs-app.json", root, 2):
        det.types.append("App router")
    for chart_dir in ("chart", "helm", "charts"):
        if reader.is_dir(root / chart_dir) and reader.find("Chart.yaml", root / chart_dir, 2):
            det.types.append("Kyma / Helm")
            det.deployment.append("helm-kyma")
            break
    manifests = reader.find("manifest.json", root, 4)
    ui5_roots = sorted({m.parent.parent for m in manifests if m.parent.name == "webapp"})
    if reader.is_file(root / "ui5.yaml") and root not in ui5_roots:
        ui5_roots.insert(0, root)
    if ui5_roots:
        det.types.append("SAPUI5 / Fiori")
        det.ui5_apps = [reader.rel(r) if r != root else "." for r in ui5_roots]
    abapgit = reader.find(".abapgit.xml", root, 1)
    if abapgit:
        det.types.append("ABAP (abapGit)")
        det.abap_packages = [reader.rel(p.parent) if p.parent != root else "." for p in abapgit]
    if not det.types and pkg is not None:
        det.types.append("Node.js")
    return det, pkg


def is_cap_root(folder: Path, reader: Reader) -> bool:
    pkg = reader.json(folder / "package.json") if reader.is_file(folder / "package.json") else None
    if pkg is not None:
        deps, dev = dependencies_of(pkg)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            return True
    if reader.is_file(folder / "pom.xml") and "com.sap.cds" in (reader.text(folder / "pom.xml") or ""):
        return True
    return reader.is_file(folder / ".cdsrc.json")
