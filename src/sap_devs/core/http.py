"""The one way sap-devs talks HTTP: allowed hosts only, bounded time and size, honest errors.

Every request names sap-devs in its User-Agent, gives up after connect/read timeouts and after an
overall deadline (a read timeout restarts with every byte, so a server trickling one byte at a
time would otherwise hold a request open forever), refuses bodies over a size cap, follows
redirects only to allowed hosts, and during ``sync`` retries 429 and 5xx answers with backoff
(honouring Retry-After). Errors never contain credentials: query values such as API keys are masked.

Redirects never carry credentials to another origin (scheme, host or port): a hop to another
origin keeps only harmless headers (no Authorization, Cookie, CSRF token or API key header), a
redirect from https to http is refused, 301/302/303 continue as a GET without the body, and a
307/308 that would re-send a body to another origin is refused: the body itself may hold secrets
(an OAuth client secret, a CSRF-protected payload), and sent without its credentials the request
would fail at the other end anyway, with a misleading error.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import httpx

from sap_devs import package_version
from sap_devs.core.errors import SapDevsError
from sap_devs.core.log import quiet_http_loggers

log = logging.getLogger(__name__)
quiet_http_loggers()  # httpx/httpcore debug output carries headers: held back wherever requests are made

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
_SECRET_PARAMS = frozenset({"key", "api_key", "apikey", "token", "access_token", "client_secret", "password", "sig"})
_MAX_REDIRECTS = 5
# Headers that may follow a redirect to another origin; everything else may identify or authorise.
_CROSS_ORIGIN_SAFE = frozenset({"accept", "accept-language", "user-agent"})
_MAX_RETRY_AFTER = 30.0


class FetchError(SapDevsError):
    """A request that did not produce a usable answer; ``retryable`` says whether trying later may help."""

    def __init__(self, message: str, *, retryable: bool = True, status: int | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status = status


def redact(url: str) -> str:
    parts = urlsplit(url)
    query = [
        (k, "***" if k.lower() in _SECRET_PARAMS else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query, safe="*/:'(),"), ""))


def _unresolved(exc: BaseException) -> bool:
    """Whether a transport error is a host name that did not resolve (socket.gaierror somewhere in its chain)."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@dataclass(frozen=True)
class Policy:
    allowed_hosts: frozenset[str]
    connect_timeout: float = 5.0
    read_timeout: float = 10.0
    max_bytes: int = 5 * 1024 * 1024
    retries: int = 0
    backoff: float = 1.0
    headers: dict[str, str] = field(default_factory=dict)
    deadline: float | None = None
    """Seconds for one attempt from connecting to the last body byte, redirects included;
    by default the connect timeout plus three read timeouts."""

    @property
    def overall(self) -> float:
        return self.deadline if self.deadline is not None else self.connect_timeout + 3 * self.read_timeout

    def check(self, url: str) -> None:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        if parts.scheme not in ("https", "http") or not host:
            raise FetchError(f"refusing {redact(url)}: only http(s) URLs can be fetched", retryable=False)
        if parts.scheme == "http" and host not in LOOPBACK:
            raise FetchError(f"refusing {redact(url)}: only https is allowed", retryable=False)
        if parts.username or parts.password:
            raise FetchError(f"refusing {redact(url)}: credentials in URLs are not allowed", retryable=False)
        if host not in self.allowed_hosts:
            raise FetchError(f"refusing {redact(url)}: host '{host}' is not an allowed source", retryable=False)


@dataclass(frozen=True)
class Response:
    url: str
    status: int
    headers: httpx.Headers
    content: bytes

    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        try:
            return json.loads(self.content)
        except ValueError as exc:
            raise FetchError(
                f"{redact(self.url)} returned invalid or truncated JSON ({exc})", retryable=True, status=self.status
            ) from None


def user_agent() -> str:
    return f"sap-devs/{package_version()} (+https://pypi.org/project/sap-devs/)"


class Http:
    """An async HTTP session bound to one Policy; use ``async with Http(policy) as http``."""

    def __init__(self, policy: Policy, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.policy = policy
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(policy.read_timeout, connect=policy.connect_timeout),
            follow_redirects=False,
            headers={"User-Agent": user_agent()},  # policy.headers go per hop: they must not cross origins
            transport=transport,
            trust_env=True,
        )

    async def __aenter__(self) -> Http:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._client.aclose()

    async def request(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        content: bytes | str | None = None,
        ok: tuple[int, ...] = (200,),
    ) -> Response:
        attempt = 0
        while True:
            try:
                response = await self._attempt(method, url, headers=headers, content=content)
            except FetchError as exc:
                if not exc.retryable or attempt >= self.policy.retries or exc.status is not None:
                    raise
                delay = self.policy.backoff * 2**attempt
            else:
                if response.status in ok:
                    return response
                retryable = response.status == 429 or response.status >= 500
                error = FetchError(
                    f"{method} {redact(url)} answered HTTP {response.status}",
                    retryable=retryable,
                    status=response.status,
                )
                if not retryable or attempt >= self.policy.retries:
                    raise error
                delay = self._retry_after(response) or self.policy.backoff * 2**attempt
            attempt += 1
            log.info("retrying %s %s in %.1fs (attempt %d)", method, redact(url), delay, attempt + 1)
            await asyncio.sleep(delay)

    async def get(self, url: str, *, headers: dict[str, str] | None = None, ok: tuple[int, ...] = (200,)) -> Response:
        return await self.request("GET", url, headers=headers, ok=ok)

    @staticmethod
    def _retry_after(response: Response) -> float | None:
        value = response.headers.get("retry-after")
        if value is None:
            return None
        try:
            return min(max(float(value), 0.0), _MAX_RETRY_AFTER)
        except ValueError:
            return None

    async def _attempt(
        self, method: str, url: str, *, headers: dict[str, str] | None, content: bytes | str | None
    ) -> Response:
        deadline = self.policy.overall
        try:
            async with asyncio.timeout(deadline):
                return await self._once(method, url, headers=headers, content=content)
        except TimeoutError:
            raise FetchError(f"{method} {redact(url)} did not complete within {deadline:g}s", retryable=True) from None

    async def _once(
        self, method: str, url: str, *, headers: dict[str, str] | None, content: bytes | str | None
    ) -> Response:
        sent = {**self.policy.headers, **(headers or {})}
        for _ in range(_MAX_REDIRECTS + 1):
            self.policy.check(url)
            try:
                async with self._client.stream(method, url, headers=sent, content=content) as raw:
                    if raw.is_redirect and "location" in raw.headers:
                        target = urljoin(url, raw.headers["location"])
                        method, content, sent = _redirected(raw.status_code, url, target, method, content, sent)
                        url = target
                        continue
                    body = await self._read_capped(raw, url)
                    return Response(url=url, status=raw.status_code, headers=raw.headers, content=body)
            except httpx.TimeoutException:
                raise FetchError(f"{method} {redact(url)} timed out", retryable=True) from None
            except httpx.TransportError as exc:
                # a name that does not resolve (no network, no DNS) will not resolve a second later
                raise FetchError(
                    f"{method} {redact(url)} failed: {type(exc).__name__}: {exc}", retryable=not _unresolved(exc)
                ) from None
        raise FetchError(f"{method} {redact(url)}: too many redirects", retryable=False)

    async def _read_capped(self, raw: httpx.Response, url: str) -> bytes:
        declared = raw.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > self.policy.max_bytes:
            raise FetchError(
                f"{redact(url)} is {int(declared)} bytes, over the {self.policy.max_bytes} byte limit", retryable=False
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in raw.aiter_bytes():
            size += len(chunk)
            if size > self.policy.max_bytes:
                raise FetchError(
                    f"{redact(url)} is larger than the {self.policy.max_bytes} byte limit", retryable=False
                )
            chunks.append(chunk)
        return b"".join(chunks)


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), parts.port or default


def _redirected(
    status: int, url: str, target: str, method: str, content: bytes | str | None, headers: dict[str, str]
) -> tuple[str, bytes | str | None, dict[str, str]]:
    """The method, body and headers for following a redirect from ``url`` to ``target`` (see the
    module docstring for the rules); FetchError when it must not be followed."""
    here, there = _origin(url), _origin(target)
    if here[0] == "https" and there[0] == "http":
        raise FetchError(
            f"refusing the redirect from {redact(url)} to {redact(target)}: https to http", retryable=False
        )
    if status in (301, 302, 303) and method != "HEAD":
        method, content = "GET", None
        headers = {k: v for k, v in headers.items() if k.lower() not in ("content-type", "content-length")}
    if here != there:
        if content:
            raise FetchError(
                f"refusing the HTTP {status} redirect from {redact(url)} to {redact(target)}: "
                "it would re-send the request body to another host",
                retryable=False,
            )
        headers = {k: v for k, v in headers.items() if k.lower() in _CROSS_ORIGIN_SAFE}
    return method, content, headers
