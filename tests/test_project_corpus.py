"""check_project on real public SAP projects (tests/fixtures/projects, see its README): no errors, and
exactly the warnings the README justifies. The check time per project is measured by
benchmarks/project_checks.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.doctor.baseline import Baseline, baseline_from
from sap_devs.doctor.project import ProjectReport, check_project
from sap_devs.knowledge.base import KnowledgeBase
from tests.conftest import bundled_layer

CORPUS = Path(__file__).parent / "fixtures" / "projects"
FIXTURES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())

# fixture -> the start of each warning expected, with the README's reason
EXPECTED_WARNINGS: dict[str, list[str]] = {
    "btp-cap-multitenant-saas-kyma": [
        "@sap/cds 8.9.4 is out of maintenance",
        "package.json depends on the database driver 'sqlite3' directly, the legacy database service",
        "package.json, router/package.json: @sap/approuter '^20.5.0' is out of maintenance",
    ],
    # the same project from the repository root: the CAP project in code/, its MTA in deploy/cf/
    "btp-cap-multitenant-saas-cf": [
        "@sap/cds 8.9.4 is out of maintenance",
        "code/package.json depends on the database driver 'sqlite3' directly, the legacy database service",
        "code/package.json, code/router/package.json: @sap/approuter '^20.5.0' is out of maintenance",
    ],
    "fiori-tools-cap-hybrid": [
        "@sap/cds 6 is out of maintenance",
        "localrouter/package.json: @sap/approuter '^14.0.0' is out of maintenance",
    ],
    "hana-opensap-cloud-2020": [
        "@sap/cds 5.8.2 is out of maintenance",
        "app/package.json: @sap/approuter '^10.12.0' is out of maintenance",
    ],
}

# what each fixture is, as detected
EXPECTED_TYPES: dict[str, list[str]] = {
    "abap-cheat-sheets": ["ABAP (abapGit)"],
    "cap-sflight": ["CAP (Node.js)", "MTA", "App router", "SAPUI5 / Fiori"],
    "cloud-cap-samples-java": ["CAP (Java)", "App router", "SAPUI5 / Fiori"],
    "cloud-cap-samples": ["CAP (Node.js)", "MTA", "SAPUI5 / Fiori"],  # CAP projects in npm workspaces
    "fiori-tools-v4-travel": ["SAPUI5 / Fiori"],
    "btp-cap-multitenant-saas-kyma": ["CAP (Node.js)", "App router", "Kyma / Helm", "SAPUI5 / Fiori"],
    "btp-cap-multitenant-saas-cf": ["CAP (Node.js)", "MTA", "App router", "SAPUI5 / Fiori"],  # mta.yaml in deploy/cf
}


@pytest.fixture(scope="module")
def baseline() -> Baseline:
    return baseline_from(KnowledgeBase.load(layers=[bundled_layer()]))


def run(name: str, baseline: Baseline) -> ProjectReport:
    return check_project(CORPUS / name, baseline=baseline)


def test_the_corpus_has_at_least_twelve_projects() -> None:
    assert len(FIXTURES) >= 12
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in FIXTURES), "every fixture is described in the README"


def test_the_baseline_comes_from_the_packs(baseline: Baseline) -> None:
    assert baseline.cds and baseline.node and baseline.cds_major and baseline.cds_major >= 9


@pytest.mark.parametrize("name", FIXTURES)
def test_real_projects_have_no_errors_and_only_justified_warnings(name: str, baseline: Baseline) -> None:
    report = run(name, baseline)
    errors = [f"{f.file}: {f.message}" for f in report.findings if f.severity == "error"]
    assert errors == [], f"false alarms on {name}"
    warnings = sorted(f.message for f in report.findings if f.severity == "warning")
    expected = sorted(EXPECTED_WARNINGS.get(name, []))
    assert len(warnings) == len(expected), warnings
    assert all(w.startswith(e) for w, e in zip(warnings, expected, strict=True)), warnings
    assert report.notes == [], "no budget is hit by a real project"
    if name in EXPECTED_TYPES:
        assert report.detection.types == EXPECTED_TYPES[name]
    for finding in report.findings:
        assert finding.fix, f"every finding says how to fix it: {finding.message}"
