"""Whether MCP clients can find the authorization server this server names in its resource metadata.

A client that runs the OAuth flow itself reads ``authorization_servers`` from
``/.well-known/oauth-protected-resource``, then looks for that issuer's metadata at the URLs the MCP
authorization spec lists (RFC 8414 path insertion, then OpenID Connect Discovery by insertion and by
appending), and uses a document only when its ``issuer`` is the named issuer, character for character
(RFC 8414 section 3.3). So the name must be the issuer as the provider writes it, not its host:
XSUAA (a Cloud Foundry UAA) writes ``<url>/oauth/token`` and serves its OpenID configuration at
``<url>/oauth/token/.well-known/openid-configuration`` as well as at ``<url>/.well-known/...``; named
``<url>``, a client would find the root document and refuse it for its issuer.

This check runs once before the server listens and only warns: an operator learns at deployment,
not from a developer's failed login, that the configured issuer is not one clients can discover.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from sap_devs.core.errors import SapDevsError

OAUTH = "/.well-known/oauth-authorization-server"
OIDC = "/.well-known/openid-configuration"


def metadata_urls(issuer: str) -> list[str]:
    """Where an MCP client looks for ``issuer``'s metadata, in the spec's order."""
    parts = urlsplit(issuer)
    origin = f"{parts.scheme}://{parts.netloc}"
    path = parts.path.rstrip("/")
    if not path:
        return [origin + OAUTH, origin + OIDC]
    return [origin + OAUTH + path, origin + OIDC + path, origin + path + OIDC]


async def _document(url: str) -> object:
    from sap_devs.core.http import Http, Policy

    host = (urlsplit(url).hostname or "").lower()
    policy = Policy(allowed_hosts=frozenset({host}), max_bytes=512 * 1024, read_timeout=5.0)
    async with Http(policy) as http:
        return (await http.get(url, headers={"Accept": "application/json"})).json()


async def discovery_problem(issuer: str) -> str | None:
    """None when a client following the spec finds metadata for ``issuer``; else what goes wrong."""
    seen: list[str] = []
    for url in metadata_urls(issuer):
        try:
            document = await _document(url)
        except SapDevsError as exc:
            seen.append(str(exc))
            continue
        named = document.get("issuer") if isinstance(document, dict) else None
        if named == issuer:
            return None
        # A client stops at the first document it gets and refuses it: later URLs are not tried.
        return (
            f"{url} names the issuer {str(named)[:200]!r}, not {issuer!r}: MCP clients refuse that metadata. "
            f"Configure the issuer exactly as the provider's metadata writes it."
        )
    return f"No authorization server metadata for {issuer} at the URLs MCP clients try ({'; '.join(seen)})."
