"""Logging set-up: diagnostics go to stderr only, because stdout belongs to MCP or to command output.

No credential may reach a log at any level. httpcore's DEBUG trace prints whole response header
lists (the ADT session cookie, the CSRF token) and httpx's INFO line prints URLs, so those
libraries are held at WARNING whatever SAP_DEVS_LOG_LEVEL says, from the moment sap-devs can make
a request (also inside other programs using the Python API); and our own stderr handler scrubs
header values and the secrets registered with ``register_secret`` from every record it writes.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import re
import sys
import threading
from collections.abc import Iterator

# Libraries whose DEBUG/INFO output carries headers or full URLs of our requests.
HTTP_LOGGERS = ("httpx", "httpcore", "h11", "h2", "hpack")

_HEADER = re.compile(
    r"(?i)\b(authorization|proxy-authorization|cookie|set-cookie|x-csrf-token|x-api-key|sap_sessionid\w*|mysapsso2)"
    r"(['\"]?\s*(?:[:=]|,\s*b?['\"])\s*(?:b?['\"])?)"
    r"(?!fetch\b)[^\s'\"][^'\"\r\n,;)\]]*"
)
_SCHEME = re.compile(r"(?i)\b(basic|bearer)\s+[A-Za-z0-9._~+/=-]{6,}")
# Counted, so that a secret two concurrent HTTP requests share stays masked until both are over.
_secrets: dict[str, int] = {}
_secrets_lock = threading.Lock()
# The secrets of the HTTP request being handled (see ``request_secrets``), None outside one.
_request_secrets: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar(
    "sap_devs_request_secrets", default=None
)


@contextlib.contextmanager
def request_secrets() -> Iterator[None]:
    """Within this block (one HTTP request and the tasks it starts), ``register_secret`` masks a
    value in the log lines of this request only. A caller's password is text the caller chose: were
    it masked everywhere, a password such as ``tools/call`` would rewrite other callers' lines."""
    token = _request_secrets.set(set())
    try:
        yield
    finally:
        _request_secrets.reset(token)


def register_secret(value: str | None) -> None:
    """Never print ``value`` (a password, token or session id) in a log line, whatever the logger
    (inside ``request_secrets``: in the lines of that request)."""
    if value and len(value) >= 4:  # shorter values would blank out ordinary words
        scoped = _request_secrets.get()
        if scoped is not None:
            scoped.add(value)
            return
        with _secrets_lock:
            _secrets[value] = _secrets.get(value, 0) + 1


def forget_secret(value: str | None) -> None:
    """Undo one ``register_secret``: a long-running HTTP server sees a new caller's credentials and
    session cookies with every request, and keeping them all would grow without bound."""
    if value and len(value) >= 4:
        scoped = _request_secrets.get()
        if scoped is not None and value in scoped:
            return  # the request's own secrets stay masked in its lines until it is over
        with _secrets_lock:
            left = _secrets.get(value, 0) - 1
            if left > 0:
                _secrets[value] = left
            else:
                _secrets.pop(value, None)


def redact(text: str) -> str:
    with _secrets_lock:
        known = set(_secrets)
    known |= _request_secrets.get() or set()
    secrets = sorted(known, key=len, reverse=True)
    for secret in secrets:
        text = text.replace(secret, "***")
    text = _HEADER.sub(lambda m: f"{m.group(1)}{m.group(2)}***", text)
    return _SCHEME.sub(lambda m: f"{m.group(1)} ***", text)


class RedactingFilter(logging.Filter):
    """Rewrites a record's message (and traceback) with secrets and header values masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is logging's problem to report, not ours to crash on
            return True
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def quiet_http_loggers() -> None:
    """Hold the HTTP libraries at WARNING or above (never lowers a level someone set higher)."""
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level < logging.WARNING:
            logger.setLevel(logging.WARNING)


def setup_logging() -> None:
    level = os.environ.get("SAP_DEVS_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, level, logging.WARNING), format="sap-devs %(levelname)s %(message)s"
    )
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
    quiet_http_loggers()
