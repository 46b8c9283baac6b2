"""OIDC settings and the public URL from Cloud Foundry's environment (VCAP_SERVICES, VCAP_APPLICATION).

An app bound to an XSUAA or SAP Cloud Identity Services (IAS, service label ``identity``) instance
finds the issuer, audience and signing keys in the binding, so the manifest and mta.yaml name no
tenant. Only public facts are taken from the credentials (URLs, client id, xsappname): the client
secret is never read.
"""

from __future__ import annotations

import json
from typing import Any

from sap_devs.core.errors import SapDevsError
from sap_devs.http.oidc import OidcSettings

LABELS = ("xsuaa", "identity")
XSAPPNAME = "$XSAPPNAME"
"""In SAP_DEVS_OIDC_SCOPES, stands for the bound XSUAA instance's xsappname (scopes are ``<xsappname>.<name>``)."""


def _json(env: dict[str, str], name: str) -> Any:
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise SapDevsError(f"{name} is not valid JSON; Cloud Foundry sets it, so do not set it by hand.") from None


def _bindings(env: dict[str, str]) -> list[dict[str, Any]]:
    services = _json(env, "VCAP_SERVICES")
    if not isinstance(services, dict):
        return []
    found = []
    for label, instances in services.items():
        if label in LABELS and isinstance(instances, list):
            found += [{**i, "label": label} for i in instances if isinstance(i, dict)]
    return found


def oidc_from_binding(env: dict[str, str], scopes: list[str]) -> OidcSettings | None:
    """OIDC settings from the bound XSUAA or IAS instance; None without one. With several bound,
    SAP_DEVS_OIDC_SERVICE names the instance to use."""
    bindings = _bindings(env)
    wanted = (env.get("SAP_DEVS_OIDC_SERVICE") or "").strip()
    if wanted:
        bindings = [b for b in bindings if b.get("name") == wanted or b.get("instance_name") == wanted]
        if not bindings:
            raise SapDevsError(
                f"SAP_DEVS_OIDC_SERVICE names {wanted!r}, but no XSUAA or IAS instance of that name is bound."
            )
    if not bindings:
        return None
    if len(bindings) > 1:
        names = ", ".join(str(b.get("name")) for b in bindings)
        raise SapDevsError(
            f"Several XSUAA/IAS instances are bound ({names}).",
            hint="Set SAP_DEVS_OIDC_SERVICE to the name of the one whose tokens the server accepts.",
        )
    binding = bindings[0]
    credentials = binding.get("credentials") if isinstance(binding.get("credentials"), dict) else {}
    url = str(credentials.get("url") or "").rstrip("/")
    client_id = str(credentials.get("clientid") or "")
    if not url or not client_id:
        raise SapDevsError(f"The bound {binding['label']} instance {binding.get('name')!r} has no url or clientid.")
    if binding["label"] == "xsuaa":
        # XSUAA signs with keys at /token_keys and names <url>/oauth/token as issuer, in its tokens and
        # in its OpenID configuration (served at <url>/oauth/token/.well-known/openid-configuration, where
        # MCP clients look for that issuer). Tokens carry the client id, or the xsappname when another
        # app was granted our scopes.
        xsappname = str(credentials.get("xsappname") or "")
        audience = [a for a in (client_id, xsappname) if a]
        expanded = [s.replace(XSAPPNAME, xsappname) for s in scopes] if xsappname else scopes
        return OidcSettings(
            issuer=f"{url}/oauth/token", audience=audience, jwks_url=f"{url}/token_keys", required_scopes=expanded
        )
    if any(XSAPPNAME in s for s in scopes):
        raise SapDevsError(
            f"SAP_DEVS_OIDC_SCOPES uses {XSAPPNAME}, which only an XSUAA instance has; "
            f"{binding.get('name')!r} is SAP Cloud Identity Services.",
            hint="Leave SAP_DEVS_OIDC_SCOPES out, or name scopes your IAS tokens carry.",
        )
    return OidcSettings(issuer=url, audience=[client_id], required_scopes=scopes)


def public_url_from_application(env: dict[str, str]) -> str | None:
    """https://<first route> of this app (VCAP_APPLICATION), for the resource metadata and Host checks."""
    application = _json(env, "VCAP_APPLICATION")
    uris = application.get("application_uris") if isinstance(application, dict) else None
    if isinstance(uris, list) and uris and isinstance(uris[0], str) and uris[0]:
        return f"https://{uris[0]}"
    return None
