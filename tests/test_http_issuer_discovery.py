"""MCP clients that run the OAuth flow themselves find XSUAA from the server's resource metadata.

The fake XSUAA answers like a Cloud Foundry UAA (which XSUAA is): its OpenID configuration names
``<url>/oauth/token`` as issuer and is served at ``<url>/.well-known/openid-configuration`` and at
``<url>/oauth/token/.well-known/openid-configuration``; any other path is 404. The client side is
the official SDK's own discovery code (URL order, response handling, issuer check).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp.client.auth.exceptions import OAuthFlowError
from mcp.client.auth.utils import (
    build_oauth_authorization_server_metadata_discovery_urls,
    handle_auth_metadata_response,
    validate_metadata_issuer,
)
from mcp.shared.auth import OAuthMetadata

from sap_devs.cli.serve import http_parser, http_settings
from sap_devs.http.issuer_discovery import discovery_problem, metadata_urls
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http
from tests.loopback import Loopback
from tests.test_cf_binding import vcap, xsuaa
from tests.test_http_oidc import Issuer


class UaaLike(Issuer):
    """Tokens, keys and OpenID configuration as a Cloud Foundry UAA serves them."""

    def __init__(self, idp: Loopback) -> None:
        super().__init__(idp)
        idp.routes.pop("/.well-known/openid-configuration")  # the parent's, replaced by UAA's document
        for path in ("/.well-known/openid-configuration", "/oauth/token/.well-known/openid-configuration"):
            idp.add(path, body=lambda: json.dumps(self.configuration).encode())
        idp.add("/token_keys", body=lambda: json.dumps(self.jwks).encode())

    @property
    def issuer(self) -> str:
        return self.idp.base + "/oauth/token"

    @property
    def configuration(self) -> dict[str, object]:
        base = self.idp.base
        return {
            "issuer": self.issuer,
            "authorization_endpoint": base + "/oauth/authorize",
            "token_endpoint": base + "/oauth/token",
            "jwks_uri": base + "/token_keys",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        }


@pytest.fixture
def uaa() -> Iterator[UaaLike]:
    with Loopback().running() as idp:
        yield UaaLike(idp)


@pytest.fixture
def bound_server(uaa: UaaLike, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """sap-devs on 127.0.0.1 configured from nothing but an XSUAA binding in VCAP_SERVICES."""
    for name in ("SAP_DEVS_OIDC_ISSUER", "SAP_DEVS_OIDC_AUDIENCE", "SAP_DEVS_OIDC_JWKS_URL", "SAP_DEVS_PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in vcap(xsuaa(uaa.idp.base)).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("VCAP_APPLICATION", json.dumps({"application_uris": ["sap-devs.cfapps.example.com"]}))
    settings = http_settings(http_parser().parse_args(["--transport", "http", "--no-api-keys"]))
    settings.allowed_hosts = ["127.0.0.1:*"]  # type: ignore[attr-defined]
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()])
    with sap_devs_http(build_server(Registry.default(), ctx), settings, ctx) as base:  # type: ignore[arg-type]
        yield base


async def sdk_discovery(authorization_server: str, server_url: str) -> OAuthMetadata | None:
    """What the SDK's OAuth client does with an ``authorization_servers`` entry (its step 2)."""
    async with httpx.AsyncClient() as http:
        for url in build_oauth_authorization_server_metadata_discovery_urls(authorization_server, server_url):
            ok, metadata = await handle_auth_metadata_response(await http.get(url))
            if not ok:
                return None
            if metadata is not None:
                validate_metadata_issuer(metadata, authorization_server)
                return metadata
    return None


def test_sdk_client_finds_xsuaa_from_the_resource_metadata(bound_server: str, uaa: UaaLike) -> None:
    resource_metadata = httpx.get(bound_server + "/.well-known/oauth-protected-resource/mcp").json()
    [authorization_server] = resource_metadata["authorization_servers"]
    assert authorization_server == uaa.issuer  # the issuer as XSUAA writes it, not its host

    found = anyio.run(sdk_discovery, authorization_server, resource_metadata["resource"])
    assert found is not None
    assert str(found.authorization_endpoint) == uaa.idp.base + "/oauth/authorize"
    assert str(found.token_endpoint) == uaa.idp.base + "/oauth/token"
    assert anyio.run(discovery_problem, authorization_server) is None


def test_naming_xsuaas_host_would_make_clients_refuse_its_metadata(uaa: UaaLike) -> None:
    """Why the metadata does not name <url>: the root document a client finds names <url>/oauth/token."""
    with pytest.raises(OAuthFlowError, match="issuer mismatch"):
        anyio.run(sdk_discovery, uaa.idp.base, "https://sap-devs.cfapps.example.com/mcp")
    problem = anyio.run(discovery_problem, uaa.idp.base)
    assert problem is not None
    assert f"names the issuer '{uaa.issuer}'" in problem and "refuse" in problem


def test_discovery_urls_follow_the_spec_order() -> None:
    assert metadata_urls("https://x.authentication.eu10.hana.ondemand.com/oauth/token") == [
        "https://x.authentication.eu10.hana.ondemand.com/.well-known/oauth-authorization-server/oauth/token",
        "https://x.authentication.eu10.hana.ondemand.com/.well-known/openid-configuration/oauth/token",
        "https://x.authentication.eu10.hana.ondemand.com/oauth/token/.well-known/openid-configuration",
    ]
    assert metadata_urls("https://tenant.accounts.ondemand.com/") == [
        "https://tenant.accounts.ondemand.com/.well-known/oauth-authorization-server",
        "https://tenant.accounts.ondemand.com/.well-known/openid-configuration",
    ]


def test_cli_warns_at_start_when_clients_cannot_discover_the_issuer(tmp_path: Path) -> None:
    """Tokens from an issuer without discoverable metadata still verify; the operator is told at start."""
    with Loopback().running() as idp:
        provider = Issuer(idp)  # JWKS at /jwks; its discovery document is at the root, named for the root
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {**os.environ, "SAP_DEVS_CONFIG_DIR": str(tmp_path / "cfg")}
        for name in ("SAP_DEVS_API_KEYS_FILE", "VCAP_SERVICES", "VCAP_APPLICATION", "SAP_DEVS_PUBLIC_URL"):
            env.pop(name, None)
        issuer = provider.issuer + "/tenant"  # an issuer path nothing is served under
        provider.idp.add("/tenant/jwks", body=lambda: json.dumps(provider.jwks).encode())
        args = ["--oidc-issuer", issuer, "--oidc-audience", "aud", "--oidc-jwks-url", idp.url("/tenant/jwks")]
        entry = "import sys; from sap_devs.cli.entry import main; sys.argv[0] = 'sap-devs'; main()"
        proc = subprocess.Popen(
            [sys.executable, "-c", entry, "mcp", "serve", "--transport", "http", "--port", str(port), *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err
    warning = next(line for line in err.splitlines() if line.startswith("sap-devs: warning:"))
    assert f"No authorization server metadata for {issuer}" in warning
    assert "/.well-known/oauth-authorization-server/tenant" in warning
