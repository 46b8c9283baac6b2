"""OAuth 2.0 / OIDC bearer tokens verified locally against the issuer's JWKS.

Issuer, audience, expiry (and not-before) and the required scopes are checked on every request
with PyJWT; the signing keys come from the issuer's JWKS (its ``jwks_uri`` from the OpenID
discovery document unless configured), are cached, and are fetched again when a token names a
key id we do not know (at most once a minute), so key rotation needs no restart. Works with SAP
Cloud Identity Services (IAS), XSUAA, Entra ID and Keycloak: scopes come from ``scope`` (a string
or, as XSUAA sends it, a list) or ``scp``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import anyio
import jwt
from mcp.server.auth.provider import AccessToken

from sap_devs.core.errors import SapDevsError

log = logging.getLogger(__name__)

ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]
"""Asymmetric algorithms only: ``none`` and HMAC (a shared secret the client could know) are refused."""
REFRESH_MIN_INTERVAL = 60.0
KEYS_TTL = 3600.0
LEEWAY = 30
MAX_TOKEN_LENGTH = 16 * 1024


@dataclass
class OidcSettings:
    issuer: str
    audience: list[str]
    jwks_url: str | None = None
    required_scopes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, url in (("issuer", self.issuer), ("JWKS URL", self.jwks_url)):
            if url is None:
                continue
            parts = urlsplit(url)
            loopback = parts.hostname in ("127.0.0.1", "localhost", "::1")
            if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
                raise SapDevsError(f"The OIDC {name} must be an https URL (got {url[:200]!r}).")
        if not self.audience:
            raise SapDevsError(
                "OIDC needs an audience (--oidc-audience): the client id or resource URL tokens are issued for."
            )


def token_scopes(claims: dict[str, Any]) -> list[str]:
    found: list[str] = []
    for name in ("scope", "scp"):
        value = claims.get(name)
        if isinstance(value, str):
            found.extend(value.split())
        elif isinstance(value, list):
            found.extend(str(v) for v in value)
    return found


class OidcVerifier:
    """A TokenVerifier (the SDK's protocol) for JWT access tokens from one issuer."""

    def __init__(self, settings: OidcSettings) -> None:
        self.settings = settings
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched = 0.0
        self._jwks_url = settings.jwks_url
        self._lock = anyio.Lock()

    async def _http_get_json(self, url: str) -> Any:
        from sap_devs.core.http import Http, Policy

        host = (urlsplit(url).hostname or "").lower()
        policy = Policy(allowed_hosts=frozenset({host}), max_bytes=512 * 1024, read_timeout=5.0)
        async with Http(policy) as http:
            return (await http.get(url, headers={"Accept": "application/json"})).json()

    async def _refresh(self, *, force: bool) -> None:
        async with self._lock:
            age = time.monotonic() - self._fetched
            if self._keys and (age < REFRESH_MIN_INTERVAL or (not force and age < KEYS_TTL)):
                return
            if self._jwks_url is None:
                discovery = self.settings.issuer.rstrip("/") + "/.well-known/openid-configuration"
                doc = await self._http_get_json(discovery)
                uri = doc.get("jwks_uri") if isinstance(doc, dict) else None
                if not isinstance(uri, str):
                    raise SapDevsError(f"{discovery} names no jwks_uri.")
                self._jwks_url = uri
            jwks = await self._http_get_json(self._jwks_url)
            keys: dict[str, jwt.PyJWK] = {}
            for raw in jwks.get("keys", []) if isinstance(jwks, dict) else []:
                if not isinstance(raw, dict) or raw.get("use", "sig") != "sig":
                    continue
                try:
                    keys[str(raw.get("kid", ""))] = jwt.PyJWK(raw)
                except jwt.PyJWTError:  # an algorithm or key type we cannot use: skip that key only
                    continue
            self._fetched = time.monotonic()
            self._keys = keys

    async def start(self) -> None:
        """Fetch the keys once at start-up, so a wrong issuer or JWKS URL fails loudly and early."""
        try:
            await self._refresh(force=True)
        except SapDevsError as exc:
            raise SapDevsError(f"Cannot load the OIDC signing keys: {exc}") from None
        if not self._keys:
            raise SapDevsError(f"The OIDC JWKS at {self._jwks_url} holds no usable signing keys.")

    async def _key_for(self, kid: str) -> jwt.PyJWK | None:
        key = self._keys.get(kid)
        if key is None or time.monotonic() - self._fetched > KEYS_TTL:
            try:
                await self._refresh(force=key is None)
            except SapDevsError as exc:  # keep serving with the keys we have
                log.warning("OIDC key refresh failed: %s", exc)
            key = self._keys.get(kid)
        return key

    async def verify_token(self, token: str) -> AccessToken | None:
        if len(token) > MAX_TOKEN_LENGTH or token.count(".") != 2:
            return None
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            return None
        alg = header.get("alg")
        if alg not in ALGORITHMS:
            log.info("bearer token refused: algorithm %r not allowed", str(alg)[:20])
            return None
        key = await self._key_for(str(header.get("kid", "")))
        if key is None:
            log.info("bearer token refused: unknown signing key")
            return None
        try:
            claims = jwt.decode(
                token,
                key=key,
                algorithms=[alg],
                audience=self.settings.audience,
                issuer=self.settings.issuer,
                leeway=LEEWAY,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.PyJWTError as exc:  # the reason only: never the token or its claims
            log.info("bearer token refused: %s", type(exc).__name__)
            return None
        scopes = token_scopes(claims)
        aud = claims.get("aud")
        auds = aud if isinstance(aud, list) else [aud]
        resource = next((a for a in auds if a in self.settings.audience), None)
        subject = claims.get("sub")
        client = claims.get("azp") or claims.get("client_id") or claims.get("cid") or subject or "oidc"
        return AccessToken(
            token=token,
            client_id=str(client),
            scopes=scopes,
            expires_at=int(claims["exp"]),
            resource=str(resource) if resource is not None else None,
            subject=str(subject) if subject is not None else None,
            claims={"iss": claims.get("iss"), "auth": "oidc"},
        )
