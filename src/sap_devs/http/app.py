"""The ASGI application: the SDK's stateless Streamable HTTP transport at /mcp, behind the guards.

Outermost first: Host/Origin validation (DNS rebinding), bearer authentication (API keys and OIDC
tokens through the SDK's ``BearerAuthBackend``), the SDK's ``RequireAuthMiddleware`` (401 with
``WWW-Authenticate``), a per-identity concurrency limit (429), then the SDK's session manager in
stateless mode, which bounds the request body (413) and serves both protocol eras.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcp.server.auth.handlers.metadata import ProtectedResourceMetadataHandler
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import (
    AuthenticatedUser,
    BearerAuthBackend,
    RequireAuthMiddleware,
)
from mcp.server.auth.provider import AccessToken, principal_components
from mcp.server.auth.routes import build_resource_metadata_url, cors_middleware
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.shared.auth import ProtectedResourceMetadata
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sap_devs.core.errors import SapDevsError
from sap_devs.http.keys import KeyStore, looks_like_key
from sap_devs.http.oidc import OidcSettings, OidcVerifier

log = logging.getLogger(__name__)

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
DEFAULT_MAX_BODY = 1024 * 1024
DEFAULT_MAX_CONCURRENT = 8
OPEN_PATHS = ("/healthz", "/readyz")


def is_loopback(host: str) -> bool:
    return host.strip("[]") in LOOPBACK_HOSTS


@dataclass
class HttpSettings:
    host: str = "127.0.0.1"
    port: int = 8080
    path: str = "/mcp"
    api_keys: Path | None = None
    oidc: OidcSettings | None = None
    public_url: str | None = None
    """Where clients reach the server (``https://mcp.example.com``): the resource in the metadata."""
    allowed_hosts: list[str] = field(default_factory=list)
    allowed_origins: list[str] = field(default_factory=list)
    max_body: int = DEFAULT_MAX_BODY
    max_concurrent: int = DEFAULT_MAX_CONCURRENT
    json_response: bool = True
    max_connections: int | None = None
    """Open connections at most (None: as many as the open-file limit leaves room for)."""
    max_connections_per_address: int | None = None
    """From one client address at most (None: half of ``max_connections``)."""
    header_timeout: float = 10.0
    """Seconds for a request's headers to arrive; then the connection is closed."""
    body_timeout: float = 30.0
    """Seconds for a request's body to arrive once its headers have."""

    def connection_limits(self) -> Any:
        from sap_devs.http.connections import ConnectionLimits

        return ConnectionLimits.for_process(
            self.max_connections,
            self.max_connections_per_address,
            header_timeout=self.header_timeout,
            body_timeout=self.body_timeout,
        )

    @property
    def authenticated(self) -> bool:
        return self.api_keys is not None or self.oidc is not None

    def check(self) -> None:
        if not self.authenticated and not is_loopback(self.host):
            raise SapDevsError(
                f"Refusing to serve on {self.host} without authentication.",
                hint="Create an API key (`sap-devs keys create NAME`) or configure OIDC (--oidc-issuer, "
                "--oidc-audience), or bind to 127.0.0.1.",
            )
        if self.max_body <= 0 or self.max_concurrent <= 0:
            raise SapDevsError("--max-body and --max-concurrent must be positive.")
        if any(n is not None and n <= 0 for n in (self.max_connections, self.max_connections_per_address)):
            raise SapDevsError("--max-connections and --max-connections-per-address must be positive.")
        if self.public_url is not None:
            parts = urlsplit(self.public_url)
            if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
                raise SapDevsError(
                    f"--public-url must be an http(s) URL such as https://mcp.example.com (got {self.public_url[:200]!r})."
                )

    def resource_url(self) -> str:
        base = self.public_url or f"http://{_netloc(self.host, self.port)}"
        return base.rstrip("/") + self.path

    def host_patterns(self) -> list[str]:
        """The Host headers accepted at /mcp. Never empty: without --public-url or --allowed-hosts a
        server on another address accepts loopback names and this machine's own addresses only, so
        a DNS name rebound to it is still refused."""
        hosts = list(self.allowed_hosts)
        if self.public_url:
            hosts.append(urlsplit(self.public_url).netloc)
        if is_loopback(self.host) or not hosts:
            hosts += _with_any_port(["127.0.0.1", "localhost", "[::1]"])
        if not is_loopback(self.host) and not (self.allowed_hosts or self.public_url):
            hosts += _with_any_port(own_addresses(self.host))
        return hosts

    def host_check_note(self) -> str | None:
        """What a server on another address without --public-url or --allowed-hosts accepts (for the banner)."""
        if is_loopback(self.host) or self.allowed_hosts or self.public_url:
            return None
        names = ", ".join(own_addresses(self.host)[:6])
        return (
            f"without --public-url or --allowed-hosts only requests addressed to this machine ({names}, or "
            "loopback) are answered; name the host clients use with --public-url or --allowed-hosts."
        )

    def origin_patterns(self) -> list[str]:
        origins = list(self.allowed_origins)
        if is_loopback(self.host):
            origins += ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
        if self.public_url:
            parts = urlsplit(self.public_url)
            origins.append(f"{parts.scheme}://{parts.netloc}")
        return origins


def own_addresses(bind: str) -> list[str]:
    """Host header values that name this machine when serving on ``bind``: the address itself, or
    for a wildcard the host name and the addresses it resolves to (from the hosts file as a rule)."""
    import socket

    if bind.strip("[]") not in ("0.0.0.0", "::", ""):
        found = [bind]
    else:
        name = socket.gethostname()
        found = [name]
        with contextlib.suppress(OSError):  # a host name that does not resolve: the name itself still matches
            found += [str(info[4][0]) for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)]
    names = []
    for value in found:
        value = value.split("%", 1)[0]  # no IPv6 zone ids in Host headers
        names.append(f"[{value}]" if ":" in value and not value.startswith("[") else value)
    return list(dict.fromkeys(n.lower() for n in names if n))


def _with_any_port(hosts: list[str]) -> list[str]:
    return [pattern for host in hosts for pattern in (host, f"{host}:*")]


def _netloc(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


_PORT = re.compile(r"[0-9]{1,5}")  # ASCII only: str.isdigit also takes "²" and other digits


def _matches(value: str, patterns: list[str]) -> bool:
    value = value.lower()
    for pattern in patterns:
        pattern = pattern.lower()
        if value == pattern or (
            pattern.endswith(":*") and value.startswith(pattern[:-1]) and _PORT.fullmatch(value[len(pattern) - 1 :])
        ):
            return True
    return False


def _plain(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class HostOriginGuard:
    """Refuses requests whose Host (421) or Origin (403) is not this server's: a web page that
    rebinds its own DNS name to 127.0.0.1, or any other site a browser visits, cannot reach /mcp.
    Requests without an Origin (command-line agents) pass; health endpoints are not checked."""

    def __init__(self, app: ASGIApp, hosts: list[str], origins: list[str]) -> None:
        self.app, self.hosts, self.origins = app, hosts, origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] not in OPEN_PATHS:
            headers = {k: v for k, v in scope["headers"] if k in (b"host", b"origin")}
            host = headers.get(b"host", b"").decode("latin-1")
            if not _matches(host, self.hosts):
                log.warning("refused a request for host %r", host[:100])
                await _plain(421, "Invalid Host header")(scope, receive, send)
                return
            origin = headers.get(b"origin")
            if origin is not None and not _matches(origin.decode("latin-1"), self.origins):
                log.warning("refused a request from origin %r", origin.decode("latin-1")[:100])
                await _plain(403, "Invalid Origin header")(scope, receive, send)
                return
        await self.app(scope, receive, send)


class CompositeVerifier:
    """The SDK's TokenVerifier over both credentials: ``sdk_...`` API keys, otherwise OIDC JWTs."""

    def __init__(self, keys: KeyStore | None, oidc: OidcVerifier | None, key_scopes: list[str]) -> None:
        self.keys, self.oidc, self.key_scopes = keys, oidc, key_scopes

    async def verify_token(self, token: str) -> AccessToken | None:
        if looks_like_key(token):
            entry = self.keys.verify(token) if self.keys is not None else None
            if entry is None:
                return None
            return AccessToken(
                token="",  # the key itself is not kept on the request
                client_id=f"key:{entry.id}",
                scopes=list(self.key_scopes),
                subject=entry.name,
                claims={"iss": "sap-devs-api-key", "auth": "api_key"},
            )
        if self.oidc is not None:
            return await self.oidc.verify_token(token)
        return None


class ChallengingRequireAuth(RequireAuthMiddleware):
    """The SDK's RequireAuthMiddleware; its 401 also names the scopes to ask for (MCP authorization)."""

    def __init__(self, app: Any, required_scopes: list[str], resource_metadata_url: AnyHttpUrl | None) -> None:
        super().__init__(app, required_scopes, resource_metadata_url)

    async def _send_auth_error(self, send: Send, status_code: int, error: str, description: str) -> None:
        parts = [f'error="{error}"', f'error_description="{description}"']
        if self.resource_metadata_url:
            parts.append(f'resource_metadata="{self.resource_metadata_url}"')
        if self.required_scopes:
            parts.append(f'scope="{" ".join(self.required_scopes)}"')
        body = json.dumps({"error": error, "error_description": description}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status_code,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", ("Bearer " + ", ".join(parts)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def identity(scope: Scope) -> str:
    """Who is asking: the credential's principal, or the client address without authentication."""
    user = scope.get("user")
    if isinstance(user, AuthenticatedUser):
        client_id, issuer, subject = principal_components(user.access_token)
        return f"{issuer or ''}|{client_id}|{subject or ''}"
    client = scope.get("client")
    return f"addr|{client[0] if client else '?'}"


class ConcurrencyLimit:
    """At most ``limit`` requests in flight per identity; more get 429 with Retry-After.

    A request takes its slot once its body is in: one still arriving is not being handled, and
    clients that send headers and then nothing (closed by the connection limits after a while)
    must not hold a team's slots meanwhile. The body read here is at most ``max_body`` plus one
    chunk; a longer one is handed on as it comes, for the transport to refuse (413)."""

    def __init__(self, app: ASGIApp, limit: int, max_body: int = DEFAULT_MAX_BODY) -> None:
        self.app, self.limit, self.max_body = app, limit, max_body
        self.active: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        early: list[Message] = []
        size = 0
        while True:
            message = await receive()
            early.append(message)
            if message["type"] != "http.request":
                return  # the client went away while sending: nothing to answer
            size += len(message.get("body", b""))
            if not message.get("more_body", False) or size > self.max_body:
                break

        async def replay() -> Message:
            return early.pop(0) if early else await receive()

        who = identity(scope)
        if self.active.get(who, 0) >= self.limit:
            await _plain(429, f"Too many concurrent requests (limit {self.limit}).", {"Retry-After": "1"})(
                scope, receive, send
            )
            return
        self.active[who] = self.active.get(who, 0) + 1
        try:
            await self.app(scope, replay, send)
        finally:
            left = self.active[who] - 1
            if left:
                self.active[who] = left
            else:
                del self.active[who]


class NoStandaloneStream:
    """GET /mcp is 405, as the transport allows for a server without server-initiated messages.

    Stateless, every request is answered on its own response, so a standalone GET stream would
    never carry anything; the SDK would still hold it open, and each one held a slot of the
    caller's concurrency limit until every request of a team sharing one key got 429 (the MCP
    conformance suite found it). DELETE ends a session, and there are none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "DELETE"):
            message = "This server is stateless: POST JSON-RPC requests; there is no stream or session to open or end."
            await _plain(405, message, {"Allow": "POST"})(scope, receive, send)
            return
        await self.app(scope, receive, send)


_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
access_log = logging.getLogger("sap_devs.http.access")


def _who(scope: Scope) -> dict[str, str]:
    user = scope.get("user")
    if not isinstance(user, AuthenticatedUser):
        return {}
    token = user.access_token
    method = str((token.claims or {}).get("auth", "bearer"))
    return {"auth": method[:32], "client": token.client_id[:200], "subject": (token.subject or "")[:200]}


class AccessLog:
    """One JSON line per request: request id (the client's X-Request-Id when sane, else new; echoed
    back), method, path, status, duration, identity and, for MCP calls, the JSON-RPC method and tool
    name. Never a header value, a token or an argument."""

    def __init__(self, app: ASGIApp, max_body: int, metrics: Any = None) -> None:
        self.app, self.max_body, self.metrics = app, max_body, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        given = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"x-request-id"), "")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        started = time.perf_counter()
        status = 0
        body = bytearray()

        async def recording_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request" and len(body) <= self.max_body:
                body.extend(message.get("body", b""))
            return message

        async def tagging_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, recording_receive, tagging_send)
        finally:
            logged = access_log.isEnabledFor(logging.INFO)
            if logged or self.metrics is not None:
                entry: dict[str, Any] = {
                    "request_id": request_id,
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                    **_who(scope),
                    **_rpc(bytes(body)),
                }
                if self.metrics is not None and scope["path"] != "/metrics":
                    self.metrics.observe(entry)
                if logged:
                    access_log.info(json.dumps(entry, ensure_ascii=False))


def _rpc(body: bytes) -> dict[str, str]:
    """The JSON-RPC method and tool name of a request body (nothing else from it)."""
    try:
        message = json.loads(body) if body else None
    except (ValueError, RecursionError):  # not JSON, or nested too deep to read: the line still goes out
        return {}
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return {}
    found = {"rpc": message["method"][:64]}
    params = message.get("params")
    if message["method"] == "tools/call" and isinstance(params, dict) and isinstance(params.get("name"), str):
        found["tool"] = params["name"][:64]
    return found


def setup_access_log() -> None:
    """JSON lines on stderr for ``sap_devs.http.access`` (SAP_DEVS_ACCESS_LOG=0 turns them off)."""
    import os
    import sys

    if os.environ.get("SAP_DEVS_ACCESS_LOG", "1").strip().lower() in ("0", "false", "no", "off"):
        return
    if access_log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    # No text replacement here: each line is built from fields none of which holds a credential
    # (see AccessLog), and replacing registered secrets in the text would let a caller whose
    # password is, say, "tools/call" rewrite every other caller's line.
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False


class MetricsEndpoint:
    """GET /metrics in the Prometheus text format."""

    def __init__(self, metrics: Any) -> None:
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body, content_type = self.metrics.exposition()
        await Response(body, headers={"content-type": content_type})(scope, receive, send)


def build_app(server: Any, settings: HttpSettings, *, ctx: Any = None) -> Starlette:
    """The Starlette app serving ``server`` (from ``build_server``) as configured by ``settings``."""
    settings.check()
    manager = StreamableHTTPSessionManager(
        app=server,
        stateless=True,
        json_response=settings.json_response,
        security_settings=None,  # Host and Origin are checked by HostOriginGuard, for every route
        max_request_body_size=settings.max_body,
    )
    from sap_devs.http.abap_credentials import AbapCredentials

    adt_config = getattr(ctx, "adt_config", None)
    per_request = adt_config is not None and adt_config.credentials_per_request
    mcp_app: ASGIApp = NoStandaloneStream(
        ConcurrencyLimit(
            AbapCredentials(StreamableHTTPASGIApp(manager), enabled=per_request),
            settings.max_concurrent,
            settings.max_body,
        )
    )
    keys = KeyStore(settings.api_keys) if settings.api_keys is not None else None
    oidc = OidcVerifier(settings.oidc) if settings.oidc is not None else None
    required = list(settings.oidc.required_scopes) if settings.oidc is not None else []
    routes: list[BaseRoute] = []
    middleware = [Middleware(HostOriginGuard, hosts=settings.host_patterns(), origins=settings.origin_patterns())]
    if settings.authenticated:
        resource = AnyHttpUrl(settings.resource_url())
        metadata_url = build_resource_metadata_url(resource) if oidc is not None else None
        mcp_app = ChallengingRequireAuth(mcp_app, required, metadata_url)
        middleware += [
            Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(CompositeVerifier(keys, oidc, required))),
            Middleware(AuthContextMiddleware),
        ]
        if settings.oidc is not None:
            # RFC 9728: at the path-inserted well-known URL named in WWW-Authenticate, and at the root
            metadata = ProtectedResourceMetadata.model_validate(
                {
                    "resource": settings.resource_url(),
                    "authorization_servers": [
                        settings.oidc.issuer
                    ],  # exactly as configured: issuers compare as strings
                    "scopes_supported": required or None,
                    "resource_name": "sap-devs: SAP developer knowledge",
                }
            )
            endpoint = cors_middleware(ProtectedResourceMetadataHandler(metadata).handle, ["GET", "OPTIONS"])
            well_known = urlsplit(str(metadata_url)).path
            for path in dict.fromkeys([well_known, "/.well-known/oauth-protected-resource"]):
                routes.append(Route(path, endpoint=endpoint, methods=["GET", "OPTIONS"]))
    from sap_devs.http.metrics import Metrics

    metrics = Metrics(t.name for t in ctx.registry) if ctx is not None and ctx.registry is not None else Metrics(())
    middleware.append(Middleware(AccessLog, max_body=settings.max_body, metrics=metrics))

    metrics_app: ASGIApp = MetricsEndpoint(metrics)
    if settings.authenticated:  # the same credentials as /mcp: scrape with an API key
        metrics_app = ChallengingRequireAuth(metrics_app, required, None)
    state = {"ready": False}

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(_request: Request) -> Response:
        return JSONResponse({"ready": state["ready"]}, status_code=200 if state["ready"] else 503)

    routes += [
        Route(settings.path, endpoint=mcp_app),
        Route("/healthz", endpoint=healthz, methods=["GET"]),
        Route("/readyz", endpoint=readyz, methods=["GET"]),
        Route("/metrics", endpoint=metrics_app, methods=["GET"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        import asyncio

        from sap_devs.http.connections import quiet_per_connection_warnings, quiet_resource_errors

        quiet_resource_errors(asyncio.get_running_loop())
        quiet_per_connection_warnings()
        if oidc is not None:
            await oidc.start()
        async with manager.run():
            # Packs and indexes load beside the server, so /healthz answers while they do.
            threading.Thread(target=_warm, name="sap-devs-warm-up", daemon=True).start()
            yield
            state["ready"] = False
        if oidc is not None:
            await oidc.aclose()

    def _warm() -> None:
        if ctx is not None:
            from sap_devs.mcp.server import warm_up

            warm_up(ctx)
        state["ready"] = True

    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
