"""The HTTP conversation with one ABAP system over ADT.

sap-client and sap-language travel as query parameters (ICF ignores the header form); cookies keep
the session; a CSRF token is fetched before the first change and fetched again once when the
system says it expired. ``stateful()`` marks requests as belonging to the stateful ADT session, and
is used only around lock -> write -> unlock inside one tool call: any stateless request in between
would retire the lock. Versioned media types are negotiated once on 406/415.
"""

from __future__ import annotations

import contextvars
import re
import ssl
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx

from sap_devs.adt.config import CREDENTIALS_HEADER, AdtConfig, AdtConfigError, RequestCredentials
from sap_devs.adt.errors import AdtError, exception_details
from sap_devs.core.http import user_agent
from sap_devs.core.log import forget_secret, register_secret

# a media type a 406/415 answer offers, with its parameters (dataname= tells asx:abap documents apart)
_MEDIA = re.compile(
    r"(?:application/vnd\.sap\.[A-Za-z0-9.+-]+|application/xml|text/plain)(?:\s*;\s*[A-Za-z-]+=[A-Za-z0-9._-]+)*"
)
# sapcli's order: the newer discovery first, the older path on systems that lack it (404)
_DISCOVERY = ("/sap/bc/adt/core/discovery", "/sap/bc/adt/discovery")
_CHANGING = ("POST", "PUT", "DELETE", "PATCH")
# SAP_TIMEOUT bounds the wait for each byte, which a trickling connection resets forever; a whole
# request gets this many times SAP_TIMEOUT (two minutes by default), enough for a slow activation.
DEADLINE_FACTOR = 4


_tls: ssl.SSLContext | None = None
_tls_lock = threading.Lock()


def _shared_tls() -> ssl.SSLContext:
    """One TLS context (CA bundle, SSL_CERT_FILE/SSL_CERT_DIR as httpx reads them) for every
    per-request connection: building it loads the CA bundle, about 50 ms, which a team server
    would otherwise pay on each ABAP call. It holds no credentials or session."""
    global _tls
    with _tls_lock:
        if _tls is None:
            _tls = httpx.create_ssl_context()
        return _tls


@dataclass(frozen=True)
class AdtResponse:
    status: int
    headers: httpx.Headers
    content: bytes

    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


def _csrf_rejected(response: AdtResponse) -> bool:
    """A 403 for an expired or missing token: the header says ``Required`` (what ICF sends), or the
    body names CSRF (what some systems write instead)."""
    return response.headers.get("x-csrf-token", "").lower() == "required" or b"csrf" in response.content.lower()


class AdtClient:
    def __init__(self, config: AdtConfig, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        if config.problem is not None:  # the server started anyway; every ABAP tool says what to fix
            raise AdtConfigError(
                f"The SAP system configuration cannot be used: {config.problem.message}",
                hint=config.problem.hint or "Fix the setting, then restart the MCP server.",
            )
        self.config = config
        self._masked: set[str] = set()
        for secret in config.secrets():
            self._mask(secret)
        token_auth = bool(config.bearer_token or config.service_key)
        auth = None if token_auth else httpx.BasicAuth(config.user or "", config.password or "")
        headers = {"User-Agent": user_agent()}
        if config.bearer_token:
            headers["Authorization"] = f"Bearer {config.bearer_token}"
        self._http = httpx.AsyncClient(
            base_url=config.url,
            auth=auth,
            headers=headers,
            timeout=httpx.Timeout(config.timeout, connect=10.0),
            follow_redirects=False,
            transport=transport,
            verify=_shared_tls() if config.credentials_per_request else True,
        )
        self._csrf: str | None = None
        self._stateful = False
        self._token_checked = bool(config.bearer_token) or not config.service_key

    async def _ensure_token(self, *, renew: bool = False) -> None:
        """For a BTP service key: an access token from the stored refresh token (never logged)."""
        if self._token_checked and not renew:
            return
        from sap_devs.adt.btp import access_token, load_service_key

        key = load_service_key(self.config.service_key or "")
        token = await access_token(key)
        self._mask(token)
        self._http.headers["Authorization"] = f"Bearer {token}"
        self._token_checked = True

    def _mask(self, value: str | None) -> None:
        if value and value not in self._masked:
            self._masked.add(value)
            register_secret(value)

    async def aclose(self) -> None:
        await self._http.aclose()
        if self.config.credentials_per_request:  # the caller's request is over: nothing of it stays
            for value in self._masked:
                forget_secret(value)
            self._masked.clear()

    # -- session --------------------------------------------------------------------------------

    @asynccontextmanager
    async def stateful(self) -> AsyncIterator[AdtClient]:
        """Requests inside belong to the stateful session that holds a lock; never leave it open."""
        await self._ensure_csrf()
        self._stateful = True
        try:
            yield self
        finally:
            self._stateful = False

    async def _ensure_csrf(self) -> None:
        if self._csrf is None:
            fetch = {"x-csrf-token": "fetch", "Accept": "application/atomsvc+xml"}
            for path in _DISCOVERY:
                response = await self._send("GET", path, fetch)
                if response.status == 401 and self.config.service_key:
                    await self._ensure_token(renew=True)
                    response = await self._send("GET", path, fetch)
                if response.status != 404:
                    break
            self._raise_for(response, path)
            self._csrf = response.headers.get("x-csrf-token")
            self._mask(self._csrf)
            if not self._csrf:
                raise AdtError("The system did not issue a CSRF token; changes are not possible on this connection.")

    # -- requests -------------------------------------------------------------------------------

    def _params(self, extra: dict[str, str] | None) -> dict[str, str]:
        params: dict[str, str] = {}
        if self.config.client:
            params["sap-client"] = self.config.client
        if self.config.language:
            params["sap-language"] = self.config.language
        params.update(extra or {})
        return params

    async def _send(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        *,
        params: dict[str, str] | None = None,
        content: bytes | None = None,
    ) -> AdtResponse:
        if urlsplit(path).netloc:
            raise AdtError(f"refusing to follow {path!r}: ADT paths are relative to the configured system")
        await self._ensure_token()
        sent = dict(headers)
        sent["X-sap-adt-sessiontype"] = "stateful" if self._stateful else "stateless"
        if method in _CHANGING and self._csrf:
            sent["x-csrf-token"] = self._csrf
        deadline = self.config.timeout * DEADLINE_FACTOR
        try:
            with anyio.fail_after(deadline):
                raw = await self._http.request(method, path, headers=sent, params=self._params(params), content=content)
        except TimeoutError:
            raise AdtError(
                f"{method} {path} did not complete within {deadline:g}s.",
                hint="The system answers very slowly; try again, or raise SAP_TIMEOUT.",
            ) from None
        except httpx.TimeoutException:
            raise AdtError(
                f"{method} {path} timed out after {self.config.timeout:g}s.",
                hint="The system may be busy; try again, or raise SAP_TIMEOUT.",
            ) from None
        except httpx.TransportError as exc:
            raise AdtError(
                f"Cannot reach {self.config.url}: {type(exc).__name__}.",
                hint="Check SAP_URL, the network or VPN, and that the ICF service /sap/bc/adt is active.",
            ) from None
        for cookie in self._http.cookies.jar:  # session cookies identify a logged-on user
            self._mask(cookie.value)
        return AdtResponse(raw.status_code, raw.headers, raw.content)

    async def request(
        self,
        method: str,
        path: str,
        *,
        accept: str = "application/xml",
        content_type: str | None = None,
        body: bytes | str | None = None,
        params: dict[str, str] | None = None,
        ok: tuple[int, ...] = (200, 201, 204),
    ) -> AdtResponse:
        if method in _CHANGING:
            await self._ensure_csrf()
        headers = {"Accept": accept}
        if content_type:
            headers["Content-Type"] = content_type
        content = body.encode("utf-8") if isinstance(body, str) else body
        response = await self._send(method, path, headers, params=params, content=content)
        if response.status == 401 and self.config.service_key:
            await self._ensure_token(renew=True)  # the access token expired: refresh once
            response = await self._send(method, path, headers, params=params, content=content)
        if response.status == 403 and method in _CHANGING and _csrf_rejected(response):
            self._csrf = None  # expired: fetch a new token and try once more
            await self._ensure_csrf()
            response = await self._send(method, path, headers, params=params, content=content)
        if response.status in (406, 415):
            offered = list(dict.fromkeys(_MEDIA.findall(response.text())))
            key = "Accept" if response.status == 406 else "Content-Type"
            retry = dict(headers)
            retry[key] = ", ".join(offered) if (offered and key == "Accept") else (offered[0] if offered else "*/*")
            response = await self._send(method, path, retry, params=params, content=content)
        if response.status not in ok:
            self._raise_for(response, path)
        return response

    async def get_text(self, path: str, *, params: dict[str, str] | None = None) -> str:
        return (await self.request("GET", path, accept="text/plain", params=params)).text()

    def _raise_for(self, response: AdtResponse, path: str) -> None:
        if response.status < 400:
            return
        if response.status == 401:
            hint = "Check SAP_USER / SAP_PASSWORD (or SAP_BEARER_TOKEN) and SAP_CLIENT."
            if self.config.credentials_per_request:
                hint = f"Check the SAP user and password (or token) your client sends in {CREDENTIALS_HEADER}."
            raise AdtError(f"The system rejected the logon (HTTP 401) for {path}.", status=401, hint=hint)
        type_id, message = exception_details(response.content)
        if response.status == 404 and type_id in (None, "ExceptionResourceNotFound"):
            raise AdtError(
                message or f"{path} does not exist on this system.",
                type_id=type_id,
                status=404,
                hint="Check the object name and type; search_objects finds objects by name pattern.",
            )
        detail = f"{type_id}: {message}" if type_id and message else (message or f"HTTP {response.status}")
        raise AdtError(f"ADT request {path} failed: {detail}", type_id=type_id, status=response.status)

    async def __aenter__(self) -> AdtClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()


@dataclass
class _RequestSlot:
    credentials: RequestCredentials | None
    client: AdtClient | None = None


# Set around one HTTP request by the server; the tool handlers run in copies of the request's
# context, so they see the same slot, and the connection they open in it is closed with the request.
_request: contextvars.ContextVar[_RequestSlot | None] = contextvars.ContextVar("sap_devs_adt_request", default=None)


@asynccontextmanager
async def request_credentials(credentials: RequestCredentials | None) -> AsyncIterator[None]:
    """Within this block, ABAP tools of a per-request system log on with ``credentials``; the
    connection (session cookies, CSRF token) lives and dies with the block and is shared with no one."""
    slot = _RequestSlot(credentials)
    token = _request.set(slot)
    masked = credentials.secrets() if credentials is not None else []
    for value in masked:  # masked from the moment the request arrives, before any client exists
        register_secret(value)
    try:
        yield
    finally:
        _request.reset(token)
        try:
            if slot.client is not None:
                await slot.client.aclose()
        finally:
            for value in masked:
                forget_secret(value)


def request_client(config: AdtConfig) -> AdtClient:
    """The current request's connection to ``config`` (a per-request system), opened on first use."""
    slot = _request.get()
    if slot is None or slot.credentials is None:
        raise AdtConfigError(
            "This server's ABAP tools log on as you: your SAP credentials must come with each request.",
            hint=f"Configure your MCP client to send the header {CREDENTIALS_HEADER}: Basic <base64 of "
            "user:password>, or Bearer <access token of the ABAP system>.",
        )
    if slot.client is None:
        slot.client = AdtClient(config.with_credentials(slot.credentials))
    return slot.client
