"""On Cloud Foundry the server takes OIDC from the bound XSUAA or IAS instance and its URL from its route."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from sap_devs.cli.serve import http_parser, http_settings
from sap_devs.core.errors import SapDevsError
from sap_devs.http.cf_binding import oidc_from_binding, public_url_from_application
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http
from tests.loopback import Loopback
from tests.test_http_oidc import INIT, MCP_HEADERS, Issuer

CLIENT_ID = "sb-sap-devs!t4711"
XSAPPNAME = "sap-devs!t4711"
SECRET = "xsuaa-client-secret-never-read"


def xsuaa(url: str, name: str = "sap-devs-auth") -> dict:
    credentials = {"url": url, "clientid": CLIENT_ID, "clientsecret": SECRET, "xsappname": XSAPPNAME}
    return {"name": name, "label": "xsuaa", "plan": "application", "credentials": credentials}


def ias(url: str, name: str = "sap-devs-ias") -> dict:
    credentials = {"url": url, "clientid": "3f1c-ias-client", "clientsecret": SECRET}
    return {"name": name, "label": "identity", "plan": "application", "credentials": credentials}


def vcap(*bindings: dict) -> dict[str, str]:
    services: dict[str, list] = {}
    for b in bindings:
        services.setdefault(b["label"], []).append(b)
    return {"VCAP_SERVICES": json.dumps(services)}


def test_xsuaa_binding_gives_issuer_keys_audience_and_scopes() -> None:
    settings = oidc_from_binding(vcap(xsuaa("https://team.authentication.eu10.hana.ondemand.com")), ["$XSAPPNAME.mcp"])
    assert settings is not None
    assert settings.issuer == "https://team.authentication.eu10.hana.ondemand.com/oauth/token"
    assert settings.jwks_url == "https://team.authentication.eu10.hana.ondemand.com/token_keys"
    assert settings.audience == [CLIENT_ID, XSAPPNAME] and settings.required_scopes == [f"{XSAPPNAME}.mcp"]
    assert SECRET not in repr(settings)


def test_ias_binding_and_the_choice_between_several() -> None:
    settings = oidc_from_binding(vcap(ias("https://team.accounts.ondemand.com")), [])
    assert settings is not None and settings.issuer == "https://team.accounts.ondemand.com"
    assert settings.audience == ["3f1c-ias-client"] and settings.jwks_url is None  # discovered
    both = vcap(xsuaa("https://a.authentication.eu10.hana.ondemand.com"), ias("https://b.accounts.ondemand.com"))
    with pytest.raises(SapDevsError, match="Several XSUAA/IAS instances") as several:
        oidc_from_binding(both, [])
    assert "SAP_DEVS_OIDC_SERVICE" in (several.value.hint or "")
    chosen = oidc_from_binding({**both, "SAP_DEVS_OIDC_SERVICE": "sap-devs-ias"}, [])
    assert chosen is not None and chosen.issuer == "https://b.accounts.ondemand.com"
    with pytest.raises(SapDevsError, match="no XSUAA or IAS instance of that name"):
        oidc_from_binding({**both, "SAP_DEVS_OIDC_SERVICE": "other"}, [])
    with pytest.raises(SapDevsError, match=r"only an XSUAA instance has"):
        oidc_from_binding(vcap(ias("https://b.accounts.ondemand.com")), ["$XSAPPNAME.mcp"])
    assert oidc_from_binding({}, []) is None
    assert oidc_from_binding({"VCAP_SERVICES": json.dumps({"postgresql-db": [{"name": "db"}]})}, []) is None
    with pytest.raises(SapDevsError, match="VCAP_SERVICES is not valid JSON"):
        oidc_from_binding({"VCAP_SERVICES": "{"}, [])


def test_public_url_from_the_route() -> None:
    application = {"application_uris": ["sap-devs.cfapps.eu10.hana.ondemand.com"], "name": "sap-devs"}
    assert public_url_from_application({"VCAP_APPLICATION": json.dumps(application)}) == (
        "https://sap-devs.cfapps.eu10.hana.ondemand.com"
    )
    assert public_url_from_application({}) is None


class Xsuaa(Issuer):
    """XSUAA's shape: tokens name <url>/oauth/token as issuer, keys at <url>/token_keys (its OpenID
    configuration as UAA serves it: tests/test_http_issuer_discovery.py)."""

    def __init__(self, idp: Loopback) -> None:
        super().__init__(idp)
        idp.add("/token_keys", body=lambda: json.dumps(self.jwks).encode())

    @property
    def issuer(self) -> str:
        return self.idp.base + "/oauth/token"


@pytest.fixture
def xsuaa_server(tmp_path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Xsuaa]]:
    for name in ("SAP_DEVS_OIDC_ISSUER", "SAP_DEVS_OIDC_AUDIENCE", "SAP_DEVS_OIDC_JWKS_URL", "SAP_DEVS_PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    with Loopback().running() as idp:
        uaa = Xsuaa(idp)
        for name, value in vcap(xsuaa(idp.base)).items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("VCAP_APPLICATION", json.dumps({"application_uris": ["sap-devs.cfapps.example.com"]}))
        monkeypatch.setenv("SAP_DEVS_OIDC_SCOPES", "$XSAPPNAME.mcp")
        settings = http_settings(http_parser().parse_args(["--transport", "http", "--no-api-keys"]))
        settings.allowed_hosts = ["127.0.0.1:*"]  # type: ignore[attr-defined]
        ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()])
        with sap_devs_http(build_server(Registry.default(), ctx), settings, ctx) as base:  # type: ignore[arg-type]
            yield base, uaa


def test_xsuaa_tokens_accepted_from_the_binding_alone(xsuaa_server: tuple[str, Xsuaa]) -> None:
    base, uaa = xsuaa_server

    def post(token: str) -> httpx.Response:
        return httpx.post(base + "/mcp", json=INIT, headers={**MCP_HEADERS, "Authorization": f"Bearer {token}"})

    granted = ["openid", f"{XSAPPNAME}.mcp"]  # XSUAA lists scopes as an array
    assert post(uaa.token(aud=[CLIENT_ID], scope=granted)).status_code == 200
    assert post(uaa.token(aud=[XSAPPNAME, "other"], scope=granted)).status_code == 200  # granted to another app
    assert post(uaa.token(aud=[CLIENT_ID], scope=["openid"])).status_code == 403  # no role collection
    assert post(uaa.token(aud=["sb-another-app!t1"], scope=granted)).status_code == 401
    assert post(uaa.token(aud=[CLIENT_ID], scope=granted, iss=uaa.idp.base)).status_code == 401
    unauthenticated = httpx.post(base + "/mcp", json=INIT, headers=MCP_HEADERS)
    challenge = unauthenticated.headers["www-authenticate"]
    assert "https://sap-devs.cfapps.example.com/.well-known/oauth-protected-resource/mcp" in challenge
    metadata = httpx.get(base + "/.well-known/oauth-protected-resource").json()
    assert metadata["resource"] == "https://sap-devs.cfapps.example.com/mcp"
    assert metadata["authorization_servers"] == [uaa.issuer]
