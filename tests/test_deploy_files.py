"""The deployment files in deploy/: valid against the Kubernetes schemas, and consistent with the server."""

from __future__ import annotations

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


def test_cloud_foundry_manifest(monkeypatch) -> None:
    (app,) = yaml.safe_load((DEPLOY / "cloudfoundry" / "manifest.yml").read_text())["applications"]
    assert app["health-check-http-endpoint"] == "/healthz"
    assert app["readiness-health-check-http-endpoint"] == "/readyz"
    monkeypatch.setenv("PORT", "61001")  # what Cloud Foundry sets
    monkeypatch.delenv("SAP_DEVS_HTTP_PORT", raising=False)
    for name, value in app["env"].items():
        monkeypatch.setenv(name, str(value))
    args = http_parser().parse_args(["--transport", "http", "--no-api-keys"])
    settings = http_settings(args)
    assert settings.port == 61001 and settings.oidc is not None  # type: ignore[attr-defined]
    assert settings.public_url.endswith(app["routes"][0]["route"])  # type: ignore[attr-defined]


def test_dockerfile_runs_the_http_server_as_non_root() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert "USER 10001" in text and "HEALTHCHECK" in text
    assert 'ENTRYPOINT ["sap-devs", "mcp", "serve", "--transport", "http"]' in text
    assert "/healthz" in text
