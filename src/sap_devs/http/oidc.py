"""OAuth 2.0 / OIDC bearer tokens verified locally against the issuer's JWKS.

Issuer, audience, expiry (and not-before) and the required scopes are checked on every request
with PyJWT; the signing keys come from the issuer's JWKS (its ``jwks_uri`` from the OpenID
discovery document unless configured), are cached, and are fetched again when a token names a
key id we do not know (at most once a minute), so key rotation needs no restart. Works with SAP
Cloud Identity Services (IAS), XSUAA, Entra ID and Keycloak: scopes come from ``scope`` (a string
or, as XSUAA sends it, a list) or ``scp``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
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
REFRESH_TIMEOUT = 10.0
UNKNOWN_KID_WAIT = 5.0
KEYS_TTL = 3600.0
MAX_DOCUMENT_BYTES = 512 * 1024
MAX_DOCUMENT_DEPTH = 32
"""A JWKS is three levels deep (document, key list, key); discovery documents hardly more."""
LEEWAY = 30
MAX_TOKEN_LENGTH = 16 * 1024
DEFAULT_TOKEN_TYPES = ("at+jwt", "jwt", "")


@dataclass
class OidcSettings:
    issuer: str
    audience: list[str]
    jwks_url: str | None = None
    required_scopes: list[str] = field(default_factory=list)
    token_types: list[str] = field(default_factory=lambda: list(DEFAULT_TOKEN_TYPES))
    """Accepted values of the token header's ``typ``, lower case, "application/" left off; "" stands
    for a token without one. RFC 9068 access tokens say ``at+jwt``; SAP Cloud Identity Services,
    XSUAA, Entra ID and Keycloak still send ``JWT``, as ID tokens do (see ``id_token_reason``)."""

    def __post_init__(self) -> None:
        self.token_types = [_token_type(t) if t.strip() not in ("", "none") else "" for t in self.token_types]
        if not self.token_types:
            raise SapDevsError("--oidc-token-types needs at least one type, e.g. at+jwt.")
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


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def parse_document(text: str, url: str) -> Any:
    """A JSON document from the provider, refused (SapDevsError) when it is not JSON or nested
    deeper than any JWKS or discovery document is, before the parser could recurse into it."""
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):  # brackets outside strings
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DOCUMENT_DEPTH:
            raise SapDevsError(
                f"{url} is nested deeper than {MAX_DOCUMENT_DEPTH} levels: not a JWKS or discovery document."
            )
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise SapDevsError(f"{url} did not answer with JSON.") from None


def _token_type(value: Any) -> str:
    text = str(value).strip().lower() if value is not None else ""
    return text.removeprefix("application/")  # RFC 7515 4.1.9: the prefix may be left off


def id_token_reason(header_type: str, claims: dict[str, Any]) -> str | None:
    """Why a token whose ``typ`` does not say ``at+jwt`` is an ID token (None when it is not one).

    An ID token proves who logged in to the client that asked for it; it is not a grant to call
    this server, and it is often for the very same audience. Only ID tokens carry ``nonce``,
    ``at_hash`` or ``c_hash`` (OpenID Connect Core 2), and Keycloak marks them ``typ: ID``."""
    if header_type == "at+jwt":
        return None
    for claim in ("nonce", "at_hash", "c_hash"):
        if claim in claims:
            return f"an ID token ({claim} claim), not an access token"
    if str(claims.get("typ", "")).lower() == "id":
        return "an ID token (typ ID), not an access token"
    return None


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
    """A TokenVerifier (the SDK's protocol) for JWT access tokens from one issuer.

    The signing keys are fetched at start. Past ``KEYS_TTL`` they are stale, not gone: requests go
    on being verified with them while one background refresh runs (stale-while-revalidate), so a
    provider that hangs costs callers nothing. A token naming an unknown key id waits for one
    refresh (at most ``UNKNOWN_KID_WAIT``), and refreshes start at most once per
    ``REFRESH_MIN_INTERVAL`` whatever the tokens say, so made-up key ids cannot make the server
    hammer the provider. Each refresh is bounded by ``REFRESH_TIMEOUT``."""

    def __init__(self, settings: OidcSettings) -> None:
        self.settings = settings
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched = 0.0
        self._attempted = float("-inf")
        self._jwks_url = settings.jwks_url
        self._refresh_task: asyncio.Task[None] | None = None
        self.fetches = 0
        """How many times the JWKS was requested (for tests and benchmarks)."""

    async def _http_get_json(self, url: str) -> Any:
        from sap_devs.core.http import Http, Policy

        host = (urlsplit(url).hostname or "").lower()
        policy = Policy(allowed_hosts=frozenset({host}), max_bytes=MAX_DOCUMENT_BYTES, read_timeout=5.0)
        async with Http(policy) as http:
            text = (await http.get(url, headers={"Accept": "application/json"})).text()
        return parse_document(text, url)

    async def _download(self) -> None:
        """One fetch of the keys (and, the first time, of the discovery document naming them)."""
        self.fetches += 1
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
            except (jwt.PyJWTError, ValueError, TypeError):  # a key we cannot use: skip that key only
                continue
        if not keys and self._keys:
            raise SapDevsError(f"the JWKS at {self._jwks_url} holds no usable signing keys now; keeping the last ones")
        self._fetched = time.monotonic()
        self._keys = keys

    async def _refresh_bounded(self) -> None:
        try:
            with anyio.fail_after(REFRESH_TIMEOUT):
                await self._download()
        except TimeoutError:
            log.warning("OIDC key refresh gave no answer within %g s; serving with the keys we have", REFRESH_TIMEOUT)
        except SapDevsError as exc:  # FetchError included: keep serving with the keys we have
            log.warning("OIDC key refresh failed: %s", exc)

    def _refreshing(self) -> asyncio.Task[None] | None:
        """The refresh running now, or a new one when the last began at least REFRESH_MIN_INTERVAL ago."""
        task = self._refresh_task
        if task is not None and not task.done():
            return task
        now = time.monotonic()
        if now - self._attempted < REFRESH_MIN_INTERVAL:
            return None
        self._attempted = now
        self._refresh_task = asyncio.get_running_loop().create_task(self._refresh_bounded())
        return self._refresh_task

    async def start(self) -> None:
        """Fetch the keys once at start-up, so a wrong issuer or JWKS URL fails loudly and early."""
        self._attempted = time.monotonic()
        try:
            with anyio.fail_after(REFRESH_TIMEOUT):
                await self._download()
        except TimeoutError:
            raise SapDevsError(
                f"Cannot load the OIDC signing keys: no answer within {REFRESH_TIMEOUT:g} s from "
                f"{self._jwks_url or self.settings.issuer}."
            ) from None
        except SapDevsError as exc:
            raise SapDevsError(f"Cannot load the OIDC signing keys: {exc}") from None
        if not self._keys:
            raise SapDevsError(f"The OIDC JWKS at {self._jwks_url} holds no usable signing keys.")

    async def aclose(self) -> None:
        """Stop a refresh still running (the server is shutting down)."""
        task, self._refresh_task = self._refresh_task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _key_for(self, kid: str) -> jwt.PyJWK | None:
        key = self._keys.get(kid)
        if key is not None:
            if time.monotonic() - self._fetched > KEYS_TTL:
                self._refreshing()  # in the background: this request goes on with the stale key
            return key
        task = self._refreshing()
        if task is not None:  # a key id we do not know: perhaps the provider rotated its keys
            with anyio.move_on_after(UNKNOWN_KID_WAIT):
                await asyncio.shield(task)
        return self._keys.get(kid)

    async def verify_token(self, token: str) -> AccessToken | None:
        if len(token) > MAX_TOKEN_LENGTH or token.count(".") != 2:
            return None
        try:
            header = jwt.get_unverified_header(token)
        except (jwt.PyJWTError, ValueError, RecursionError):  # RecursionError: a header nested very deep
            return None
        alg = header.get("alg")
        if alg not in ALGORITHMS:
            log.info("bearer token refused: algorithm %r not allowed", str(alg)[:20])
            return None
        header_type = _token_type(header.get("typ"))
        if header_type not in self.settings.token_types:
            log.info("bearer token refused: typ %r is not an accepted access token type", header_type[:20])
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
        except (jwt.PyJWTError, ValueError, RecursionError) as exc:  # the reason only: never the token or its claims
            log.info("bearer token refused: %s", type(exc).__name__)
            return None
        reason = id_token_reason(header_type, claims)
        if reason is not None:
            log.info("bearer token refused: %s", reason)
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
