"""Seeded mistakes for the checks whose versions come from the packs (@sap/xssec per CDS major,
@sap/approuter maintenance, JDK and Maven per CAP Java major, SAPUI5 long-term maintenance), the
manifest id against the Component's namespace, and MTAs in the subfolders of a repository.

Each test takes a healthy project of tests/fixtures/projects, introduces the mistake and checks the
finding, its severity (docs/CHECKS.md), file, line and fix; where a version decides, a baseline with
other pack data shows that the data, not the code, decides."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sap_devs.doctor.baseline import Baseline, baseline_from
from sap_devs.doctor.project import Finding, check_project
from sap_devs.knowledge.base import KnowledgeBase
from tests.conftest import bundled_layer

CORPUS = Path(__file__).parent / "fixtures" / "projects"


@pytest.fixture(scope="module")
def baseline() -> Baseline:
    return baseline_from(KnowledgeBase.load(layers=[bundled_layer()]))


def copy(name: str, dest: Path) -> Path:
    return Path(shutil.copytree(CORPUS / name, dest, symlinks=True))


def edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def matching(root: Path, baseline: Baseline, needle: str) -> list[Finding]:
    return [f for f in check_project(root, baseline=baseline).findings if needle in f.message]


def only(root: Path, baseline: Baseline, needle: str) -> Finding:
    found = matching(root, baseline, needle)
    assert len(found) == 1, [f.message for f in check_project(root, baseline=baseline).findings]
    return found[0]


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


# --- @sap/xssec for the CDS major -----------------------------------------------------------------


def test_the_baseline_reads_the_version_tables_from_the_packs(baseline: Baseline) -> None:
    assert baseline.cds_major is not None and "^4" in baseline.xssec_for_cds[baseline.cds_major]
    assert baseline.jdk_for_cap_java[5] == ">=21" and baseline.maven_for_cap_java[5] == ">=3.9.14"
    assert baseline.approuter and baseline.ui5_lts[0] == (1, 71) and (1, 120) in baseline.ui5_lts


def test_xssec_3_with_the_current_cds_is_an_error(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cap-sflight", tmp_path / "sflight")
    assert not matching(root, baseline, "@sap/xssec")
    edit_json(root / "package.json", lambda p: p["dependencies"].update({"@sap/xssec": "^3.6.0"}))
    finding = only(root, baseline, "@sap/xssec")
    # ">=9.5" installs the current @sap/cds, so the current major's table row decides
    assert finding.severity == "error" and f"@sap/cds {baseline.cds_major} works with @sap/xssec ^4" in finding.message
    assert finding.file == "package.json" and finding.line == line_of(root / "package.json", '"@sap/xssec"')
    assert (finding.fix or "").startswith("npm add @sap/xssec@4")
    # the pack's table decides, not the code: a table that allows xssec 3 has nothing to say
    allowing = dataclasses.replace(baseline, xssec_for_cds={baseline.cds_major: "^3 || ^4"})  # type: ignore[dict-item]
    assert not matching(root, allowing, "@sap/xssec")


def test_xssec_newer_than_the_cds_major_supports_is_a_warning(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("fiori-tools-cap-hybrid", tmp_path / "hybrid")
    assert not matching(root, baseline, "@sap/xssec")  # CDS 6 with xssec 3: no table row, no finding

    def change(p: dict[str, Any]) -> None:
        p["dependencies"].update({"@sap/cds": "^7", "@sap/xssec": "^4"})

    edit_json(root / "package.json", change)
    finding = only(root, baseline, "@sap/xssec")
    assert finding.severity == "warning" and "@sap/cds 7 supports @sap/xssec ^3, not '^4'" in finding.message


def test_xssec_in_one_workspace_of_a_monorepo(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples", tmp_path / "samples")
    assert not matching(root, baseline, "@sap/xssec")
    edit_json(root / "reviews" / "package.json", lambda p: p["dependencies"].update({"@sap/xssec": "^3"}))
    finding = only(root, baseline, "@sap/xssec")
    assert finding.severity == "error" and finding.file == "reviews/package.json"
    assert finding.message.startswith("reviews/package.json: @sap/cds")


# --- @sap/approuter maintenance -------------------------------------------------------------------


def test_approuter_two_majors_behind_is_a_warning_one_behind_info(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    assert not matching(root, baseline, "@sap/approuter")
    current = int((baseline.approuter or "").split(".")[0])
    edit_text(root / "app" / "package.json", '"@sap/approuter": "^23"', f'"@sap/approuter": "^{current - 2}"')
    finding = only(root, baseline, "@sap/approuter")
    assert finding.severity == "warning" and "out of maintenance" in finding.message
    assert finding.file == "app/package.json" and finding.line == 4
    assert f"npm add @sap/approuter@{current}" in (finding.fix or "")
    edit_text(root / "app" / "package.json", f"^{current - 2}", f"^{current - 1}")
    assert only(root, baseline, "@sap/approuter").severity == "info"
    # the current release comes from the btp pack
    assert not matching(root, dataclasses.replace(baseline, approuter=f"{current - 1}.0.0"), "@sap/approuter")


def test_an_open_approuter_range_installs_the_current_release(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    edit_text(root / "app" / "package.json", '"@sap/approuter": "^23"', '"@sap/approuter": ">=16"')
    assert not matching(root, baseline, "@sap/approuter")


# --- CAP Java: JDK and Maven ----------------------------------------------------------------------


def test_cap_java_compiled_for_an_older_java_than_its_major_needs(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    assert not matching(root, baseline, "compiles for Java")
    edit_text(root / "pom.xml", "<jdk.version>25</jdk.version>", "<jdk.version>17</jdk.version>")
    finding = only(root, baseline, "compiles for Java 17")
    assert finding.severity == "error" and "CAP Java 5 (cds-services 5.0.2) needs JDK 21" in finding.message
    assert finding.file == "pom.xml" and finding.line == line_of(root / "pom.xml", "<jdk.version>")
    # CAP Java 4 needs JDK 17 only (the cap pack's table)
    edit_text(root / "pom.xml", "<cds.services.version>5.0.2<", "<cds.services.version>4.3.1<")
    assert not matching(root, baseline, "compiles for Java")


def test_cap_java_with_a_maven_wrapper_below_what_its_major_needs(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    wrapper = root / ".mvn" / "wrapper" / "maven-wrapper.properties"
    wrapper.parent.mkdir(parents=True)
    url = "https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/{0}/apache-maven-{0}-bin.zip"
    wrapper.write_text("wrapperVersion=3.3.2\ndistributionUrl=" + url.format("3.9.14") + "\n", encoding="utf-8")
    assert not matching(root, baseline, "pins Maven")
    wrapper.write_text("wrapperVersion=3.3.2\ndistributionUrl=" + url.format("3.8.8") + "\n", encoding="utf-8")
    finding = only(root, baseline, "pins Maven 3.8.8")
    assert finding.severity == "error" and "needs Maven 3.9.14" in finding.message
    assert finding.file == ".mvn/wrapper/maven-wrapper.properties" and finding.line == 2


def test_cap_java_enforcer_that_lets_an_older_maven_through(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    assert not matching(root, baseline, "the enforcer accepts")
    edit_text(root / "pom.xml", "<version>3.9.14</version>", "<version>3.6.3</version>")
    finding = only(root, baseline, "the enforcer accepts Maven 3.6.3")
    # the line of the rule's version, not the enforcer plugin's own <version>3.6.3</version> above it
    assert finding.severity == "info" and finding.line == line_of(root / "pom.xml", "<requireMavenVersion>") + 1
    assert finding.fix == "Set requireMavenVersion to 3.9.14."


# --- SAPUI5 long-term maintenance -----------------------------------------------------------------


def test_min_ui5_version_below_every_long_term_version_comes_from_the_pack(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("fiori-tools-v4-travel", tmp_path / "travel")
    manifest = root / "webapp" / "manifest.json"
    edit_text(manifest, '"minUI5Version": "1.147.2"', '"minUI5Version": "1.96.0"')
    assert not matching(root, baseline, "minUI5Version"), "1.96 is in long-term maintenance"
    edit_text(manifest, '"minUI5Version": "1.96.0"', '"minUI5Version": "1.65.1"')
    finding = only(root, baseline, "minUI5Version 1.65.1")
    assert finding.severity == "warning" and finding.line == line_of(manifest, "minUI5Version")
    newest = "{}.{}".format(*baseline.ui5_lts[-1])
    assert f"({newest} is the newest long-term one)" in (finding.fix or "")
    # a pack whose oldest long-term version is 1.120 makes 1.96 too old
    edit_text(manifest, '"minUI5Version": "1.65.1"', '"minUI5Version": "1.96.0"')
    later = dataclasses.replace(baseline, ui5_lts=((1, 120), (1, 136)))
    assert "(1.120, 1.136)" in only(root, later, "minUI5Version 1.96.0").message


# --- sap.app.id against the Component's namespace -------------------------------------------------


def test_manifest_id_not_matching_the_typescript_namespace(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("fiori-tools-v4-travel", tmp_path / "travel")
    assert not matching(root, baseline, "sap.app.id")
    edit_text(root / "webapp" / "manifest.json", '"id": "travel"', '"id": "travelapp"')
    finding = only(root, baseline, "sap.app.id")
    assert finding.severity == "warning" and finding.file == "webapp/Component.ts"
    assert finding.line == line_of(root / "webapp" / "Component.ts", "@namespace travel")
    assert "@namespace travel" in finding.message and "'travelapp'" in finding.message
    assert "set sap.app.id to 'travel'" in (finding.fix or "")
    # an app variant names the component it varies in sap.ui5/componentName: no mismatch
    edit_json(root / "webapp" / "manifest.json", lambda m: m["sap.ui5"].update({"componentName": "travel"}))
    assert not matching(root, baseline, "sap.app.id")


def test_manifest_id_not_matching_the_javascript_component_name(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    assert not matching(root, baseline, "sap.app.id")
    edit_text(root / "app" / "orders" / "webapp" / "manifest.json", '"id": "orders"', '"id": "sap.capire.orders"')
    finding = only(root, baseline, "sap.app.id")
    assert finding.severity == "warning" and finding.file == "app/orders/webapp/Component.js"
    assert "'orders.Component'" in finding.message and finding.line


# --- MTAs in the subfolders of a repository -------------------------------------------------------


def two_project_repository(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    copy("fiori-elements-feature-showcase", root / "projects" / "showcase")
    copy("fiori-tools-v2-salesorder", root / "salesorder")
    (root / "README.md").write_text("two projects\n", encoding="utf-8")
    return root


def test_each_mta_of_a_repository_with_several_projects_is_checked(tmp_path: Path, baseline: Baseline) -> None:
    root = two_project_repository(tmp_path)
    report = check_project(root, baseline=baseline)
    assert "MTA" in report.detection.types
    assert [f for f in report.findings if f.severity == "error"] == []
    edit_text(root / "projects" / "showcase" / "mta.yaml", "    requires:\n      - name: feature-showcase-db\n", "")
    edit_text(root / "salesorder" / "mta.yaml", "_schema-version:", "schema-version:")
    errors = [f for f in check_project(root, baseline=baseline).findings if f.severity == "error"]
    by_file = {f.file: f for f in errors}
    assert set(by_file) == {"projects/showcase/mta.yaml", "salesorder/mta.yaml"}, [f.message for f in errors]
    db = by_file["projects/showcase/mta.yaml"]
    assert db.message.startswith("projects/showcase/mta.yaml: database module") and db.line
    assert by_file["salesorder/mta.yaml"].message == "salesorder/mta.yaml has no '_schema-version'."


def test_module_paths_made_by_the_npm_script_a_build_step_runs(tmp_path: Path, baseline: Baseline) -> None:
    """btp-cap-multitenant-saas keeps its MTA in deploy/cf; its before-all step runs 'npm run build', a
    script of deploy/cf/package.json that runs 'cds build' in ../../code, which creates the modules'
    ../../code/gen/... paths."""
    root = copy("btp-cap-multitenant-saas-cf", tmp_path / "saas")
    assert not matching(root, baseline, "which does not exist")
    edit_text(root / "deploy" / "cf" / "package.json", "npx -p @sap/cds-dk@8 cds build --profile production", "echo")
    errors = matching(root, baseline, "which does not exist")
    assert {f.file for f in errors} == {"deploy/cf/mta.yaml"} and len(errors) == 3
    assert all(f.severity == "error" and "'../../code/gen/" in f.message and f.line for f in errors)


def test_a_neo_descriptor_is_not_checked_for_module_paths(tmp_path: Path, baseline: Baseline) -> None:
    """SAP BTP Neo MTAs (com.sap.hcp.* modules) give role and destination modules a placeholder path."""
    root = tmp_path / "neo"
    root.mkdir()
    neo = "_schema-version: '3.1'\nID: app\nversion: 1.0.0\nmodules:\n"
    neo += "  - name: role\n    type: com.sap.hcp.html5.role\n    path: dummy\n"
    (root / "mta.yaml").write_text(neo, encoding="utf-8")
    assert check_project(root, baseline=baseline).findings == []
    (root / "mta.yaml").write_text(neo.replace("com.sap.hcp.html5.role", "html5"), encoding="utf-8")
    assert [f.message for f in check_project(root, baseline=baseline).findings] == [
        "mta.yaml: module 'role' points to 'dummy', which does not exist."
    ]


def test_mta_files_in_test_data_or_too_deep_are_not_projects(tmp_path: Path, baseline: Baseline) -> None:
    root = tmp_path / "repo"
    broken = "ID: x\nmodules:\n  - name: m\n    path: nowhere\n"
    for folder in ("test/fixtures/app", "a/b/c/d"):
        (root / folder).mkdir(parents=True)
        (root / folder / "mta.yaml").write_text(broken, encoding="utf-8")
    report = check_project(root, baseline=baseline)
    assert "MTA" not in report.detection.types and report.findings == []
    (root / "a" / "b" / "mta.yaml").write_text(broken, encoding="utf-8")
    files = {f.file for f in check_project(root, baseline=baseline).findings if f.severity == "error"}
    assert files == {"a/b/mta.yaml"}


# --- hostile values -------------------------------------------------------------------------------


def test_odd_values_in_the_version_rules_are_no_finding_and_no_crash(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples-java", tmp_path / "java")
    edit_json(root / "app" / "package.json", lambda p: p["dependencies"].update({"@sap/approuter": ["^10"]}))
    edit_json(root / "mtx" / "sidecar" / "package.json", lambda p: p["dependencies"].update({"@sap/xssec": 3}))
    edit_text(root / "pom.xml", "<release>${jdk.version}</release>", "<release>${no.such.property}</release>")
    edit_text(root / "pom.xml", "<version>3.9.14</version>", "<version>latest</version>")
    (root / ".mvn" / "wrapper").mkdir(parents=True)
    (root / ".mvn" / "wrapper" / "maven-wrapper.properties").write_bytes(b"\xff\xfe" + b"apache-maven-" * 50_000)
    component = root / "app" / "orders" / "webapp" / "Component.js"
    component.write_text('.extend("' + "a." * 150_000 + '")', encoding="utf-8")
    edit_json(root / "app" / "admin" / "webapp" / "manifest.json", lambda m: m.update({"sap.app": "admin"}))
    report = check_project(root, baseline=baseline)
    needles = ("@sap/approuter", "@sap/xssec", "compiles for Java", "Maven", "sap.app.id")
    assert [f.message for f in report.findings if any(n in f.message for n in needles)] == []
    assert any("not UTF-8" in f.message for f in report.findings), "the unreadable wrapper file is named"
