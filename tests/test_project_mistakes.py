"""Seeded mistakes: take a healthy real project from tests/fixtures/projects, introduce one mistake
that breaks SAP projects in practice, and check that check_project reports it with the severity
docs/CHECKS.md gives it (and that the healthy project did not have the finding before)."""

from __future__ import annotations

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


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(CORPUS / name, tmp_path / name, symlinks=True))


def edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def findings(root: Path, baseline: Baseline) -> list[Finding]:
    return check_project(root, baseline=baseline).findings


def only(root: Path, baseline: Baseline, needle: str) -> Finding:
    """The one finding whose message holds ``needle``."""
    matches = [f for f in findings(root, baseline) if needle in f.message]
    assert len(matches) == 1, [f.message for f in findings(root, baseline)]
    return matches[0]


def seeded(name: str, tmp_path: Path, baseline: Baseline, needle: str, mutate: Callable[[Path], None]) -> Finding:
    root = copy(name, tmp_path)
    assert not [f for f in findings(root, baseline) if needle in f.message], "the healthy project is clean"
    mutate(root)
    return only(root, baseline, needle)


# --- CAP ------------------------------------------------------------------------------------------


def test_mocked_auth_in_the_production_profile_is_an_error(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "package.json", lambda p: p["cds"]["requires"].update({"[production]": {"auth": "mocked"}}))

    finding = seeded("cap-sflight", tmp_path, baseline, "'mocked' authentication", mutate)
    assert finding.severity == "error" and finding.file == "package.json" and finding.line
    assert "the [production] profile" in finding.message and "xsuaa" in (finding.fix or "")


def test_dummy_auth_for_every_profile_is_an_error(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / ".cdsrc.json", lambda c: c.setdefault("requires", {}).update({"auth": {"kind": "dummy"}}))

    finding = seeded("fiori-elements-feature-showcase", tmp_path, baseline, "'dummy' authentication", mutate)
    assert finding.severity == "error" and finding.file == ".cdsrc.json"
    assert "cds.requires.auth for every profile" in finding.message


def test_mocked_auth_only_in_development_is_fine(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cap-sflight", tmp_path)
    edit_json(root / "package.json", lambda p: p["cds"]["requires"].update({"auth": {"[development]": "mocked"}}))
    assert not [f for f in findings(root, baseline) if "authentication" in f.message]


def test_sqlite_in_the_production_profile_is_a_warning(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(
            root / "package.json",
            lambda p: p.setdefault("cds", {}).update({"[production]": {"requires": {"db": {"kind": "sqlite"}}}}),
        )

    finding = seeded("fiori-elements-feature-showcase", tmp_path, baseline, "uses SQLite", mutate)
    assert finding.severity == "warning" and "@cap-js/hana" in (finding.fix or "")


def test_cds_and_cds_dk_majors_apart(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "package.json", lambda p: p["devDependencies"].update({"@sap/cds-dk": "^8"}))

    finding = seeded("cap-sflight", tmp_path, baseline, "@sap/cds-dk 8 are different majors", mutate)
    assert (
        finding.severity == "warning" and finding.fix == "npm add -D @sap/cds-dk@9 (or upgrade both to the same major)."
    )


def test_node_engine_below_what_the_current_cds_major_needs(tmp_path: Path, baseline: Baseline) -> None:
    major = baseline.cds_major
    node_major = int(baseline.node.lstrip(">= ").split(".")[0])  # type: ignore[union-attr]

    def mutate(root: Path) -> None:
        def change(p: dict[str, Any]) -> None:
            p["dependencies"]["@sap/cds"] = f"^{major}"
            p["devDependencies"]["@sap/cds-dk"] = f"^{major}"
            p["engines"] = {"node": f"^{node_major - 2}"}

        edit_json(root / "package.json", change)

    finding = seeded("cap-sflight", tmp_path, baseline, "engines.node", mutate)
    assert finding.severity == "error" and f"@sap/cds {major} needs Node.js {node_major}" in finding.message
    root = tmp_path / "cap-sflight"
    for fine in (f">={node_major - 2}", f"^{node_major}", f"{node_major - 2} || {node_major}", "*"):
        edit_json(root / "package.json", lambda p, fine=fine: p.update({"engines": {"node": fine}}))
        assert not [f for f in findings(root, baseline) if "engines.node" in f.message], fine


def test_legacy_database_driver(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "package.json", lambda p: p["dependencies"].update({"hdb": "^0.19"}))

    finding = seeded("cloud-cap-hana-swapi", tmp_path, baseline, "database driver 'hdb'", mutate)
    assert finding.severity == "info", "@cap-js/hana is there: the driver is only unused"
    root = tmp_path / "cloud-cap-hana-swapi"
    edit_json(root / "package.json", lambda p: p["dependencies"].pop("@cap-js/hana"))
    assert only(root, baseline, "database driver 'hdb'").severity == "warning"


def test_cds_two_majors_behind_is_a_warning_and_the_previous_major_info(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cap-sflight", tmp_path)
    major = baseline.cds_major or 0
    edit_json(root / "package.json", lambda p: p["dependencies"].update({"@sap/cds": f"^{major - 2}"}))
    assert only(root, baseline, "is out of maintenance").severity == "warning"
    edit_json(root / "package.json", lambda p: p["dependencies"].update({"@sap/cds": f"^{major - 1}"}))
    assert only(root, baseline, "is on the previous major").severity == "info"
    assert not [f for f in findings(root, baseline) if f.severity == "error"]


def test_hana_deployer_without_hdi_deploy(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "db" / "package.json", lambda p: p["dependencies"].pop("@sap/hdi-deploy"))

    finding = seeded("hana-opensap-cloud-2020", tmp_path, baseline, "does not depend on @sap/hdi-deploy", mutate)
    assert finding.severity == "error" and finding.file == "db/package.json"


# --- secrets ----------------------------------------------------------------------------------------

VCAP = {"VCAP_SERVICES": {"xsuaa": [{"credentials": {"clientid": "sb-app", "clientsecret": "fQ9x2mK7pL"}}]}}


def test_default_env_json_with_credentials_not_ignored(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        (root / "default-env.json").write_text(json.dumps(VCAP), encoding="utf-8")
        edit_text(root / ".gitignore", "default-*.json", "")

    finding = seeded("cloud-cap-hana-swapi", tmp_path, baseline, "default-env.json holds credentials", mutate)
    assert finding.severity == "error" and "not listed in .gitignore" in finding.message


def test_env_with_a_real_password_and_cdsrc_private(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-hana-swapi", tmp_path)
    assert not [f for f in findings(root, baseline) if ".env" in f.message], "placeholders only"
    edit_text(root / ".env", "<postgres-password>", "Tr0ub4dor&3")
    assert only(root, baseline, ".env holds credentials").severity == "error"
    (root / ".cdsrc-private.json").write_text(
        json.dumps({"requires": {"[hybrid]": {"db": {"binding": {"type": "cf"}, "credentials": {"password": "x"}}}}}),
        encoding="utf-8",
    )
    assert not [f for f in findings(root, baseline) if ".cdsrc-private.json" in f.message], "ignored: fine"
    edit_text(root / ".gitignore", ".cdsrc-private.json\n", "")
    assert only(root, baseline, ".cdsrc-private.json holds credentials").severity == "error"


def test_a_tracked_secret_file_is_an_error_even_when_ignored(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cap-sflight", tmp_path)
    (root / "default-env.json").write_text(json.dumps(VCAP), encoding="utf-8")
    assert not [f for f in findings(root, baseline) if "default-env.json holds" in f.message], "ignored, untracked"
    (root / ".git").mkdir()
    # a git index (version 2) with one entry: 60 bytes of stat data and object id, 2 flag bytes holding
    # the path length, the path, NUL padding
    entry = b"\0" * 60 + len(b"default-env.json").to_bytes(2, "big") + b"default-env.json\0\0"
    (root / ".git" / "index").write_bytes(b"DIRC" + (2).to_bytes(4, "big") + (1).to_bytes(4, "big") + entry)
    finding = only(root, baseline, "default-env.json holds credentials")
    assert finding.severity == "error" and "is tracked by git" in finding.message
    assert (finding.fix or "").startswith("git rm --cached default-env.json")
    tracked_elsewhere = entry.replace(b"\0\x10default-env.json", b"\0\x14app/default-env.json")
    (root / ".git" / "index").write_bytes(b"DIRC" + (2).to_bytes(4, "big") + (1).to_bytes(4, "big") + tracked_elsewhere)
    assert not [f for f in findings(root, baseline) if "default-env.json holds" in f.message], "another file"


# --- approuter -----------------------------------------------------------------------------------


def test_route_without_login_to_a_backend(tmp_path: Path, baseline: Baseline) -> None:
    route = {"source": "^/sap/(.*)$", "target": "/sap/$1", "destination": "ES5", "authenticationType": "none"}

    def mutate(root: Path) -> None:
        edit_json(root / "xs-app.json", lambda x: x["routes"].insert(0, route))

    finding = seeded("fiori-tools-v2-salesorder", tmp_path, baseline, "without login", mutate)
    assert finding.severity == "warning" and finding.file == "xs-app.json" and finding.line
    assert "destination 'ES5'" in finding.message


# --- MTA ------------------------------------------------------------------------------------------


def test_db_module_without_its_hdi_container(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "mta.yaml", "    requires:\n      - name: feature-showcase-db\n", "")

    finding = seeded("fiori-elements-feature-showcase", tmp_path, baseline, "requires no HDI container", mutate)
    assert finding.severity == "error" and "'feature-showcase-db-deployer'" in finding.message


def test_xsuaa_resource_without_service_plan(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "mta.yaml", "service: xsuaa\n      service-plan: application\n", "service: xsuaa\n")

    finding = seeded("fiori-elements-feature-showcase", tmp_path, baseline, "has no 'service-plan'", mutate)
    assert finding.severity == "error" and finding.line


def test_module_path_that_no_build_step_creates(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cap-sflight", tmp_path)
    assert not [f for f in findings(root, baseline) if "points to" in f.message], "gen/ is made by cds build"
    edit_text(root / "mta.yaml", "path: app/travel_processor", "path: app/travel-processor")
    finding = only(root, baseline, "points to 'app/travel-processor'")
    assert finding.severity == "error" and finding.line
    edit_text(root / "mta.yaml", "path: app/travel-processor", "path: app/travel_processor")
    edit_text(root / "mta.yaml", "cds build --profile production,node", "echo no build")
    assert only(root, baseline, "points to 'gen/srv'").severity == "error", "nothing makes gen/ any more"


def test_missing_schema_version(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "mta.yaml", '_schema-version: "3.2"\n', "")

    assert seeded("cap-sflight", tmp_path, baseline, "no '_schema-version'", mutate).severity == "error"


def test_xsappname_nowhere(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("fiori-elements-feature-showcase", tmp_path)
    assert not [f for f in findings(root, baseline) if "xsappname" in f.message], "set in mta.yaml"
    edit_text(root / "mta.yaml", "xsappname: feature-showcase-${org}-${space}", "tenant-mode: shared")
    assert only(root, baseline, "has no 'xsappname'").severity == "error"


# --- UI5 ------------------------------------------------------------------------------------------


def test_min_ui5_version_out_of_maintenance(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "webapp" / "manifest.json", '"minUI5Version": "1.147.2"', '"minUI5Version": "1.52.0"')

    assert seeded("fiori-tools-v2-salesorder", tmp_path, baseline, "minUI5Version 1.52.0", mutate).severity == "warning"


@pytest.mark.parametrize("lib", ["sap.ui.commons", "sap.ca.scfld.md"])
def test_deprecated_library(tmp_path: Path, baseline: Baseline, lib: str) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "webapp" / "manifest.json", lambda m: m["sap.ui5"]["dependencies"]["libs"].update({lib: {}}))

    finding = seeded("fiori-tools-v2-salesorder", tmp_path, baseline, "deprecated library", mutate)
    assert finding.severity == "warning" and f"'{lib}'" in finding.message and finding.line


def test_typescript_app_without_ui5_types(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "package.json", lambda p: p["devDependencies"].pop("@types/openui5"))

    finding = seeded("ui5-typescript-helloworld", tmp_path, baseline, "without UI5 type definitions", mutate)
    assert finding.severity == "warning" and "@sapui5/types" in (finding.fix or "")


def test_typescript_that_imports_no_ui5_module_needs_no_ui5_types(tmp_path: Path, baseline: Baseline) -> None:
    """Step 2 of SAP's TypeScript walkthrough: its only source, index.ts, calls alert()."""
    root = copy("ui5-typescript-helloworld", tmp_path)
    edit_json(root / "package.json", lambda p: p["devDependencies"].pop("@types/openui5"))
    (root / "webapp" / "Component.ts").unlink()
    (root / "webapp" / "index.ts").write_text('alert("UI5 is ready");\n', encoding="utf-8")
    assert not [f for f in findings(root, baseline) if "without UI5 type definitions" in f.message]
    (root / "webapp" / "controller").mkdir(exist_ok=True)
    (root / "webapp" / "controller" / "App.controller.ts").write_text(
        'import Controller from "sap/ui/core/mvc/Controller";\n', encoding="utf-8"
    )
    assert only(root, baseline, "without UI5 type definitions").file == "package.json"


def test_outdated_spec_version(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        text = (root / "ui5.yaml").read_text(encoding="utf-8")
        spec = next(line for line in text.splitlines() if line.startswith("specVersion"))
        edit_text(root / "ui5.yaml", spec, "specVersion: '1.0'")

    finding = seeded("fiori-tools-v4-travel", tmp_path, baseline, "declares specVersion '1.0'", mutate)
    assert finding.severity == "info"


# --- ABAP (abapGit) ---------------------------------------------------------------------------------


def test_abapgit_starting_folder_that_does_not_exist(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(
            root / ".abapgit.xml",
            "<STARTING_FOLDER>/src/</STARTING_FOLDER>",
            "<STARTING_FOLDER>/abap/</STARTING_FOLDER>",
        )

    finding = seeded("abap-cheat-sheets", tmp_path, baseline, "starting folder '/abap/' does not exist", mutate)
    assert finding.severity == "error" and finding.line == 6


def test_abapgit_objects_outside_the_starting_folder(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        (root / "zcl_demo_stray.clas.abap").write_text("CLASS zcl_demo_stray DEFINITION.\n", encoding="utf-8")
        (root / "zcl_demo_stray.clas.xml").write_text("<asx:abap/>\n", encoding="utf-8")

    finding = seeded("abap-cheat-sheets", tmp_path, baseline, "outside the starting folder", mutate)
    assert finding.severity == "warning" and finding.message.startswith("2 serialized ABAP object file(s)")


# --- monorepos ----------------------------------------------------------------------------------


def test_a_mistake_in_one_workspace_of_a_monorepo(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples", tmp_path)
    report = check_project(root, baseline=baseline)
    assert report.detection.types[0] == "CAP (Node.js)", "the npm workspaces hold CAP projects"
    assert not [f for f in report.findings if "@sap/cds" in f.message and "maintenance" in f.message], (
        "'>=5' installs the current release"
    )
    edit_json(
        root / "orders" / "package.json", lambda p: p["cds"]["requires"].update({"[production]": {"auth": "mocked"}})
    )
    finding = only(root, baseline, "'mocked' authentication")
    assert finding.severity == "error" and finding.file == "orders/package.json"
    assert finding.message.startswith("orders/package.json: the [production] profile")


def test_the_same_finding_in_several_workspaces_is_one_finding(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("cloud-cap-samples", tmp_path)
    for name in ("orders", "reviews"):
        edit_json(root / name / "package.json", lambda p: p["dependencies"].update({"@sap/cds": "^7"}))
    finding = only(root, baseline, "is out of maintenance")
    assert finding.severity == "warning" and finding.message.startswith("In 2 workspaces (orders, reviews): ")


def test_a_service_key_saved_as_json(tmp_path: Path, baseline: Baseline) -> None:
    key = {"clientid": "sb-demo!t1", "clientsecret": "d2f6a9c1-53bb-4c1e-9a3f-7b1f0e2a9c44$Xq", "url": "https://x"}

    def mutate(root: Path) -> None:
        (root / "srv").mkdir(exist_ok=True)
        (root / "srv" / "uaa-key.json").write_text(json.dumps({"credentials": key}), encoding="utf-8")

    finding = seeded("cap-sflight", tmp_path, baseline, "holds a service key", mutate)
    assert finding.severity == "error" and finding.file == "srv/uaa-key.json" and finding.line == 1
    root = tmp_path / "cap-sflight"
    (root / "srv" / "uaa-key.json").write_text(json.dumps({"clientsecret": "<secret>"}), encoding="utf-8")
    assert not [f for f in findings(root, baseline) if "service key" in f.message], "a placeholder is no key"


def test_cap_java_plugin_and_runtime_versions_apart(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(
            root / "pom.xml",
            "<artifactId>cds-maven-plugin</artifactId>\n          <version>${cds.services.version}</version>",
            "<artifactId>cds-maven-plugin</artifactId>\n          <version>4.9.1</version>",
        )

    finding = seeded("cloud-cap-samples-java", tmp_path, baseline, "cds-maven-plugin 4.9.1", mutate)
    assert finding.severity == "warning" and "(cds-services) 5.0.2 differ" in finding.message and finding.line


def test_standalone_approuter_without_welcome_file(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        def change(config: dict[str, Any]) -> None:
            config.pop("welcomeFile")
            config["routes"] = [r for r in config["routes"] if r["source"] != "^/(.*)$"]  # no catch-all either

        edit_json(root / "localrouter" / "xs-app.json", change)

    finding = seeded("fiori-tools-cap-hybrid", tmp_path, baseline, "has no 'welcomeFile'", mutate)
    assert finding.severity == "warning" and finding.file == "localrouter/xs-app.json"
    root = tmp_path / "fiori-tools-cap-hybrid"
    # an app's own xs-app.json (served through the managed app router) needs no welcome file
    edit_json(root / "app" / "feproject-ui" / "xs-app.json", lambda x: x.pop("welcomeFile"))
    assert len([f for f in findings(root, baseline) if "welcomeFile" in f.message]) == 1


def test_abaplint_for_classic_abap_on_abap_cloud_objects(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        (root / "abaplint.json").write_text(json.dumps({"syntax": {"version": "v757"}}, indent=2), encoding="utf-8")

    finding = seeded("abap-cheat-sheets", tmp_path, baseline, "ABAP for Cloud Development", mutate)
    assert finding.severity == "warning" and finding.file == "abaplint.json" and finding.line == 3
    root = tmp_path / "abap-cheat-sheets"
    (root / "abaplint.json").write_text(json.dumps({"syntax": {"version": "Cloud"}}), encoding="utf-8")
    assert not [f for f in findings(root, baseline) if f.file == "abaplint.json"]


def test_a_cap_project_in_a_subfolder_of_the_repository(tmp_path: Path, baseline: Baseline) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(CORPUS / "cap-sflight", repo / "cap", symlinks=True)
    (repo / "README.md").write_text("# not a project\n", encoding="utf-8")
    assert check_project(repo, baseline=baseline).detection.types[0] == "CAP (Node.js)"
    edit_json(
        repo / "cap" / "package.json", lambda p: p["cds"]["requires"]["[production]"].update({"auth": "dummy-auth"})
    )
    finding = only(repo, baseline, "'dummy-auth' authentication")
    assert finding.severity == "error" and finding.file == "cap/package.json"


# --- hostile inputs to the new rules ---------------------------------------------------------------


def test_hostile_values_in_the_new_rules_stay_cheap(tmp_path: Path, baseline: Baseline) -> None:
    root = copy("fiori-tools-cap-hybrid", tmp_path)
    routes = [{"source": "(a+)+$" * 80, "destination": "x", "authenticationType": "none"}] * 3000
    routes += [{"source": "([", "destination": "y"}, {"source": ["not", "text"]}, 7]
    (root / "localrouter" / "xs-app.json").write_text(json.dumps({"routes": routes}), encoding="utf-8")
    (root / "pom.xml").write_text("<artifactId>cds-maven-plugin</artifactId>" * 20_000, encoding="utf-8")
    (root / "key.json").write_text('{"clientsecret": "' + "x" * 500_000 + '"}', encoding="utf-8")
    edit_json(root / "package.json", lambda p: p.update({"engines": {"node": "||" * 5_000 + "^" * 5_000}}))
    report = check_project(root, baseline=baseline)
    messages = [f.message for f in report.findings]
    assert any("has no 'welcomeFile'" in m for m in messages), "a broken source pattern routes nothing"
    assert len([m for m in messages if "without login" in m]) == 1, "the same route is one finding"


def test_a_route_to_a_target_that_does_not_exist_is_an_error(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(
            root / "webapp" / "manifest.json",
            lambda m: m["sap.ui5"]["routing"]["routes"][1].update(target="TravelObjectPg"),
        )

    found = seeded("fiori-tools-v4-travel", tmp_path, baseline, "which is not defined under", mutate)
    assert found.severity == "error" and found.file == "webapp/manifest.json" and found.line
    assert "'TravelObjectPg'" in found.message and "TravelObjectPage" in (found.fix or "")


def test_a_sapui5_only_library_in_an_openui5_app_is_an_error(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(
            root / "webapp" / "manifest.json",
            lambda m: m["sap.ui5"]["dependencies"]["libs"].update({"sap.fe.templates": {}}),
        )

    found = seeded("ui5-typescript-helloworld", tmp_path, baseline, "which only SAPUI5 has", mutate)
    assert found.severity == "error" and found.file == "ui5.yaml" and found.line == 6
    assert "'sap.fe.templates'" in found.message and "SAPUI5" in (found.fix or "")


def test_credentials_in_cds_requires_are_an_error_but_mocked_users_are_not(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        def change(pkg: dict[str, Any]) -> None:
            requires = pkg["cds"]["requires"]
            requires["API_BUSINESS_PARTNER"] = {"kind": "odata-v2", "credentials": {"password": "Welcome1!"}}
            requires["auth"] = {"kind": "mocked", "users": {"alice": {"password": "alice"}}}

        edit_json(root / "package.json", change)

    found = seeded("cap-sflight", tmp_path, baseline, "holds a literal credential", mutate)
    assert found.severity == "error" and found.file == "package.json" and found.line
    assert "cds.requires.API_BUSINESS_PARTNER.credentials.password" in found.message
    assert "cds bind" in (found.fix or "")


def test_ui5_yaml_that_ui5_cli_would_refuse_is_an_error_at_its_line(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "ui5.yaml", "type: application", "type: aplication")

    found = seeded("ui5-typescript-helloworld", tmp_path, baseline, "UI5 CLI's ui5.yaml schema", mutate)
    assert found.severity == "error" and found.file == "ui5.yaml" and found.line == 4


def test_an_mta_module_without_a_type_is_a_schema_error(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "mta.yaml", "    type: nodejs\n    path: gen/srv\n", "    path: gen/srv\n")

    found = seeded("cap-sflight", tmp_path, baseline, "the MTA descriptor schema", mutate)
    assert found.severity == "error" and found.file == "mta.yaml" and "'type' is a required property" in found.message
    assert found.line == 20  # the module's first line


def test_a_wrong_value_in_xs_app_json_is_found_at_its_line(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_text(root / "localrouter" / "xs-app.json", '"csrfProtection": true', '"csrfProtection": "yes"')

    found = seeded("fiori-tools-cap-hybrid", tmp_path, baseline, "the xs-app.json schema", mutate)
    assert found.severity == "warning" and found.file == "localrouter/xs-app.json"
    assert "routes/2/csrfProtection" in found.message and "'yes' is not of type 'boolean'" in found.message
    text = (tmp_path / "fiori-tools-cap-hybrid" / "localrouter" / "xs-app.json").read_text()
    assert found.line == next(n for n, line in enumerate(text.splitlines(), 1) if "csrfProtection" in line)


def test_a_manifest_value_of_the_wrong_kind_is_a_schema_warning(tmp_path: Path, baseline: Baseline) -> None:
    def mutate(root: Path) -> None:
        edit_json(root / "webapp" / "manifest.json", lambda m: m["sap.app"].update(type="aplication"))

    found = seeded("fiori-tools-v4-travel", tmp_path, baseline, "the UI5 manifest schema", mutate)
    assert found.severity == "warning" and found.file == "webapp/manifest.json" and found.line
    assert "sap.app/type" in found.message
