"""One check of a project folder: detection, then each technology's checks, findings once each, errors first."""

from __future__ import annotations

import threading
from pathlib import Path

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project import abap, approuter, cap, cap_java, mta, schemas, secrets, ui5, workspaces, xsuaa
from sap_devs.doctor.project.detect import detect
from sap_devs.doctor.project.model import Limits, ProjectReport
from sap_devs.doctor.project.reader import Reader


def check_project(
    root: Path,
    *,
    cds_current: str | None = None,
    baseline: Baseline | None = None,
    limits: Limits | None = None,
    cancel: threading.Event | None = None,
) -> ProjectReport:
    """Detect the project kind and collect findings, within ``limits``.

    ``baseline`` holds the versions from the packs (``cds_current`` alone is the older way to pass
    the current @sap/cds). Raises Cancelled soon after ``cancel`` is set (checked before every
    folder and file).
    """
    baseline = baseline or Baseline(cds=cds_current)
    cds_current = baseline.cds
    reader = Reader(root, limits, cancel)
    det, pkg = detect(root, reader)
    cap_node = det.cap_runtime == "nodejs"
    findings = [
        *cap.cap_findings(root, reader, det, pkg, cds_current),
        *(cap.production_findings(root, reader, det, pkg) if cap_node else []),
        *(cap.dependency_findings(root, reader, pkg, baseline) if cap_node else []),
        *secrets.secret_findings(root, reader),
        *(secrets.cds_credential_findings(root, reader, pkg) if cap_node else []),
        *secrets.service_key_findings(root, reader),
        *(cap_java.cap_java_findings(root, reader) if det.cap_runtime == "java" else []),
        *(cap_java.cap_java_toolchain_findings(root, reader, baseline) if det.cap_runtime == "java" else []),
        *(cap.xssec_findings(root, reader, pkg, baseline) if cap_node else []),
    ]
    if workspaces.cap_subprojects(root, reader, pkg):
        findings += workspaces.subproject_findings(root, reader, det, pkg or {}, baseline)
        if det.cap_runtime is None:  # a monorepo of CAP projects
            det.types.insert(0, "CAP (Node.js)")
            det.cap_runtime = "nodejs"
    findings += [
        *(mta.all_mta_findings(root, reader, pkg) if "MTA" in det.types else []),
        *(xsuaa.xsuaa_findings(root, reader, det) if reader.is_file(root / "xs-security.json") else []),
        *(approuter.approuter_findings(root, reader, det) if "App router" in det.types else []),
        *ui5.app_findings(root, reader, det, baseline),
        *ui5.source_findings(root, reader, det),
        *ui5.routing_findings(root, reader, det),
        *ui5.framework_findings(root, reader, det, baseline),
        *abap.abapgit_findings(root, reader, det),
        *abap.abaplint_findings(root, reader, det),
        *(approuter.welcome_file_findings(root, reader) if "App router" in det.types else []),
        *(approuter.approuter_version_findings(root, reader, baseline) if "App router" in det.types else []),
        *ui5.namespace_findings(root, reader, det),
        *schemas.schema_findings(root, reader, det),
    ]
    findings = list({(f.file, f.message): f for f in reader.findings + findings}.values())  # once each
    order = {"error": 0, "warning": 1, "info": 2}
    findings.sort(key=lambda f: order[f.severity])
    most = reader.limits.max_findings
    if len(findings) > most:
        reader.note(f"kept the first {most} findings (errors first)")
        findings = findings[:most]
    return ProjectReport(path=root, detection=det, findings=findings, notes=reader.notes)
