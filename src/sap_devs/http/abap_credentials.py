"""Each caller's SAP credentials for the ABAP tools of a team HTTP server, for one request only.

The header is taken out of the request before anything else reads it (the SDK keeps the request
and its headers beside every tool call), and the connection opened with it is closed when the
request ends, so neither the credentials nor the SAP session outlive the call.
"""

from __future__ import annotations

import json
import re

from starlette.types import ASGIApp, Receive, Scope, Send

from sap_devs.adt.client import request_credentials
from sap_devs.adt.config import CREDENTIALS_HEADER, AdtConfigError, RequestCredentials
from sap_devs.core.log import request_secrets

_HEADER = CREDENTIALS_HEADER.lower().encode("latin-1")
_VISIBLE_ASCII = re.compile(rb"[\x20-\x7e]+")


class AbapCredentials:
    """Removes ``X-SAP-Authorization`` from every request; when the server serves ABAP tools, its
    value becomes the logon of this request's ABAP calls (a malformed value is a 400 naming the format)."""

    def __init__(self, app: ASGIApp, enabled: bool) -> None:
        self.app, self.enabled = app, enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        values = [v for k, v in scope["headers"] if k == _HEADER]
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k != _HEADER]}
        credentials = None
        if self.enabled and values:
            try:
                if len(values) > 1:
                    raise AdtConfigError(f"Send {CREDENTIALS_HEADER} once, not {len(values)} times.")
                if not _VISIBLE_ASCII.fullmatch(values[0]):
                    # Basic values are base64 and tokens are ASCII; other bytes could not be sent on
                    raise AdtConfigError(
                        f"{CREDENTIALS_HEADER} must be printable ASCII: 'Basic <base64 of user:password>' "
                        "or 'Bearer <token>'."
                    )
                credentials = RequestCredentials.from_header(values[0].decode("ascii"))
            except AdtConfigError as exc:
                body = json.dumps({"error": str(exc)}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 400,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        with request_secrets():  # this caller's password is masked in this request's log lines only
            async with request_credentials(credentials):
                await self.app(scope, receive, send)
