"""OIDC bearer tokens on the HTTP server, verified against a local JWKS (keys made here, no internet)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from sap_devs.core.errors import SapDevsError
from sap_devs.http import oidc
from sap_devs.http.app import HttpSettings
from sap_devs.http.keys import create_key
from sap_devs.http.oidc import OidcSettings, OidcVerifier, token_scopes
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http
from tests.loopback import Loopback, Route

AUDIENCE = "sap-devs-mcp"
SCOPE = "sap-devs.read"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


class Issuer:
    """A test identity provider: an RSA signing key, its JWKS and OpenID discovery on a loopback server."""

    def __init__(self, idp: Loopback) -> None:
        self.idp = idp
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "k1"
        self.publish()
        idp.add(
            "/.well-known/openid-configuration",
            body=lambda: json.dumps({"issuer": self.issuer, "jwks_uri": idp.url("/jwks")}).encode(),
        )
        idp.add("/jwks", body=lambda: json.dumps(self.jwks).encode())

    @property
    def issuer(self) -> str:
        return self.idp.base

    def publish(self) -> None:
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        self.jwks = {"keys": [{**jwk, "kid": self.kid, "use": "sig", "alg": "RS256"}]}

    def token(
        self, key: Any = None, alg: str = "RS256", kid: str | None = None, typ: str | None = "JWT", **overrides: Any
    ) -> str:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": AUDIENCE,
            "sub": "alice@example.com",
            "azp": "claude-code",
            "iat": now,
            "exp": now + 300,
            "scope": f"openid {SCOPE}",
        }
        claims.update(overrides)
        claims = {k: v for k, v in claims.items() if v is not None}
        # typ None: no typ at all (PyJWT would add "JWT")
        return jwt.encode(claims, key or self.key, algorithm=alg, headers={"kid": kid or self.kid, "typ": typ})


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    with Loopback().running() as idp:
        yield Issuer(idp)


@pytest.fixture(scope="module")
def server_url(issuer: Issuer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    ctx = ToolContext(cwd=tmp_path_factory.mktemp("cwd"), layers=[bundled_layer()])
    server = build_server(Registry.default(), ctx)
    keys = tmp_path_factory.mktemp("keys") / "api-keys.json"
    settings = HttpSettings(
        api_keys=keys,
        oidc=OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE], required_scopes=[SCOPE]),
        public_url="http://127.0.0.1:9",  # the resource clients are told about; what they connect to is another port
        allowed_hosts=["127.0.0.1:*"],
    )
    with sap_devs_http(server, settings, ctx) as base:
        yield base


def _post(url: str, token: str | None) -> httpx.Response:
    headers = {**MCP_HEADERS, **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx.post(url + "/mcp", json=INIT, headers=headers)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_valid_token_serves_both_eras(server_url: str, issuer: Issuer, mode: str) -> None:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {issuer.token()}"}, timeout=30)
    async with Client(streamable_http_client(server_url + "/mcp", http_client=http), mode=mode) as client:
        result = await client.call_tool("get_known_errors", {"query": "SQL error 258"})
        assert not result.is_error


def test_unauthenticated_gets_challenge_with_resource_metadata(server_url: str) -> None:
    answer = _post(server_url, None)
    assert answer.status_code == 401
    challenge = answer.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert 'resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"' in challenge
    assert f'scope="{SCOPE}"' in challenge
    assert answer.json()["error"] == "invalid_token"


@pytest.mark.parametrize("path", ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"])
def test_protected_resource_metadata(server_url: str, issuer: Issuer, path: str) -> None:
    meta = httpx.get(server_url + path).json()
    assert meta["resource"] == "http://127.0.0.1:9/mcp"
    assert meta["authorization_servers"] == [issuer.issuer]
    assert meta["scopes_supported"] == [SCOPE]
    assert meta["bearer_methods_supported"] == ["header"]


def test_refused_tokens(server_url: str, issuer: Issuer) -> None:
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    now = int(time.time())
    refused = {
        "expired": issuer.token(exp=now - 120, iat=now - 600),
        "not yet valid": issuer.token(nbf=now + 600),
        "wrong audience": issuer.token(aud="someone-else"),
        "wrong issuer": issuer.token(iss="https://evil.example"),
        "no expiry": issuer.token(exp=None),
        "other signer": issuer.token(key=stranger),
        "unknown key id": issuer.token(key=stranger, kid="k-unknown"),
        "hmac with the public key": jwt.encode(
            {"iss": issuer.issuer, "aud": AUDIENCE, "exp": now + 60}, "s" * 32, algorithm="HS256", headers={"kid": "k1"}
        ),
        "alg none": jwt.encode({"iss": issuer.issuer, "aud": AUDIENCE, "exp": now + 60}, None, algorithm="none"),
        "garbage": "abc.def.ghi",
    }
    for reason, token in refused.items():
        answer = _post(server_url, token)
        assert answer.status_code == 401, reason
        assert token[-12:] not in answer.text and token[-12:] not in answer.headers["www-authenticate"], reason


def test_missing_scope_is_403_insufficient_scope(server_url: str, issuer: Issuer) -> None:
    answer = _post(server_url, issuer.token(scope="openid"))
    assert answer.status_code == 403
    assert 'error="insufficient_scope"' in answer.headers["www-authenticate"]
    # XSUAA sends scopes as a list
    assert _post(server_url, issuer.token(scope=[SCOPE])).status_code == 200


def test_api_keys_work_beside_oidc(server_url: str, issuer: Issuer, tmp_path: Path) -> None:
    assert _post(server_url, issuer.token()).status_code == 200
    assert _post(server_url, "sdk_00000000_" + "A" * 43).status_code == 401


@pytest.mark.anyio
async def test_key_rotation_is_picked_up(issuer: Issuer) -> None:
    verifier = OidcVerifier(OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE]))
    await verifier.start()
    assert await verifier.verify_token(issuer.token()) is not None
    old_key, old_kid = issuer.key, issuer.kid
    try:
        issuer.key, issuer.kid = ec.generate_private_key(ec.SECP256R1()), "k2"
        jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(issuer.key.public_key()))
        issuer.jwks = {"keys": [{**jwk, "kid": "k2", "use": "sig", "alg": "ES256"}]}
        verifier._attempted -= 3600  # the minimum interval between refetches has passed
        token = issuer.token(alg="ES256")
        access = await verifier.verify_token(token)
        assert access is not None and access.subject == "alice@example.com" and access.client_id == "claude-code"
    finally:
        issuer.key, issuer.kid = old_key, old_kid
        issuer.publish()


def test_settings_refuse_plain_http_issuers_and_missing_audience() -> None:
    with pytest.raises(SapDevsError, match="https"):
        OidcSettings(issuer="http://idp.example.com", audience=["a"])
    with pytest.raises(SapDevsError, match="audience"):
        OidcSettings(issuer="https://idp.example.com", audience=[])
    assert token_scopes({"scope": "a b", "scp": ["c"]}) == ["a", "b", "c"]


@pytest.mark.anyio
async def test_unreachable_issuer_fails_at_start_up() -> None:
    with Loopback().running() as idp:
        verifier = OidcVerifier(OidcSettings(issuer=idp.base, audience=[AUDIENCE]))
        with pytest.raises(SapDevsError, match="Cannot load the OIDC signing keys"):
            await verifier.start()


def test_tokens_and_keys_do_not_reach_the_logs(server_url: str, issuer: Issuer, tmp_path: Path, caplog) -> None:
    token = issuer.token()
    key, _ = create_key(tmp_path / "other-keys.json", "tmp")  # a well-formed key this server does not know
    with caplog.at_level("DEBUG"):
        _post(server_url, token)
        _post(server_url, issuer.token(aud="x"))
        _post(server_url, key)
    assert token[-20:] not in caplog.text and key[-20:] not in caplog.text


@pytest.mark.anyio
async def test_id_tokens_are_refused_access_tokens_accepted(issuer: Issuer) -> None:
    verifier = OidcVerifier(OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE]))  # no scope required
    await verifier.start()
    for accepted in (issuer.token(), issuer.token(typ="at+jwt"), issuer.token(typ="application/at+jwt")):
        assert await verifier.verify_token(accepted) is not None
    assert jwt.get_unverified_header(issuer.token(typ=None)).get("typ") is None
    assert await verifier.verify_token(issuer.token(typ=None)) is not None
    id_tokens = {
        "nonce": issuer.token(nonce="n-0S6_WzA2Mj"),
        "at_hash": issuer.token(at_hash="77QmUPtjPfzWtF2AnpK9RQ"),
        "c_hash": issuer.token(c_hash="LDktKdoQak3Pk0cnXxCltA"),
        "typ id_token+jwt": issuer.token(typ="id_token+jwt"),
        "typ logout+jwt": issuer.token(typ="logout+jwt"),
    }
    keycloak_id = jwt.encode(
        {"iss": issuer.issuer, "aud": AUDIENCE, "sub": "a", "exp": int(time.time()) + 60, "typ": "ID"},
        issuer.key,
        algorithm="RS256",
        headers={"kid": issuer.kid},
    )
    id_tokens["Keycloak typ ID"] = keycloak_id
    for reason, token in id_tokens.items():
        assert await verifier.verify_token(token) is None, reason
    strict = OidcVerifier(OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE], token_types=["at+jwt"]))
    await strict.start()
    assert await strict.verify_token(issuer.token(typ="at+jwt")) is not None
    assert await strict.verify_token(issuer.token()) is None


@pytest.mark.anyio
async def test_a_deeply_nested_jwks_is_a_clean_error_never_a_crash(
    issuer: Issuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = b'{"keys": [' + b"[" * 50_000 + b"]" * 50_000 + b"]}"
    with Loopback().running() as idp:
        idp.add("/jwks", body=deep)
        verifier = OidcVerifier(OidcSettings(issuer=idp.base, audience=[AUDIENCE], jwks_url=idp.url("/jwks")))
        with pytest.raises(SapDevsError, match="nested deeper"):
            await verifier.start()
    # a server already running: a later JWKS that deep is a refused token, not an error
    running = OidcVerifier(OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE]))
    await running.start()
    jwks = issuer.idp.routes["/jwks"]
    try:
        issuer.idp.routes["/jwks"] = [Route(body=deep)]
        monkeypatch.setattr(oidc, "REFRESH_MIN_INTERVAL", 1.0)
        await anyio.sleep(1.1)  # past the interval between fetches; the keys are still fresh
        assert await running.verify_token(issuer.token(kid="k-rotated")) is None
        assert await running.verify_token(issuer.token()) is not None  # the keys it had still serve
    finally:
        issuer.idp.routes["/jwks"] = jwks
        await _close(running)


async def _close(verifier: OidcVerifier) -> None:
    """Stop a background refresh still waiting for the provider."""
    close = getattr(verifier, "aclose", None)  # (a verifier that never refreshes in the background has none)
    if close is not None:
        await close()


def _jwks_requests(idp: Loopback) -> int:
    return sum(r.path == "/jwks" for r in idp.requests)


@pytest.mark.anyio
async def test_stale_keys_keep_serving_while_the_provider_hangs(
    issuer: Issuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    verifier = OidcVerifier(OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE]))
    await verifier.start()
    token = issuer.token()
    monkeypatch.setattr(oidc, "KEYS_TTL", 0.0)  # every key is stale from now on
    monkeypatch.setattr(oidc, "REFRESH_MIN_INTERVAL", 0.0)
    jwks = issuer.idp.routes["/jwks"]
    before = _jwks_requests(issuer.idp)
    try:
        issuer.idp.routes["/jwks"] = [Route(body=lambda: json.dumps(issuer.jwks).encode(), delay=6.0)]  # hangs

        async def timed() -> float:
            started = time.perf_counter()
            assert await verifier.verify_token(token) is not None
            return time.perf_counter() - started

        took: list[float] = []

        async def one() -> None:
            took.append(await timed())

        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(one)
        assert max(took) < 1.0, f"valid callers waited for the provider: {took}"
        await anyio.sleep(0.3)
        assert _jwks_requests(issuer.idp) - before == 1, "one background refresh, not one per request"
    finally:
        issuer.idp.routes["/jwks"] = jwks
        await _close(verifier)


@pytest.mark.anyio
async def test_unknown_key_ids_fetch_at_most_once_per_interval(issuer: Issuer, monkeypatch: pytest.MonkeyPatch) -> None:
    verifier = OidcVerifier(OidcSettings(issuer=issuer.issuer, audience=[AUDIENCE]))
    await verifier.start()
    jwks = issuer.idp.routes["/jwks"]
    before = _jwks_requests(issuer.idp)
    try:
        issuer.idp.routes["/jwks"] = [Route(status=503, body=b"down")]
        monkeypatch.setattr(oidc, "REFRESH_MIN_INTERVAL", 1.0)
        await anyio.sleep(1.1)  # past the interval between fetches; the keys are still fresh
        for n in range(30):
            assert await verifier.verify_token(issuer.token(kid=f"made-up-{n}")) is None
        assert _jwks_requests(issuer.idp) - before <= 1, "made-up key ids made the server fetch again and again"
        assert await verifier.verify_token(issuer.token()) is not None
    finally:
        issuer.idp.routes["/jwks"] = jwks
        await _close(verifier)
