"""Which SAP system to talk to, from the environment. Secrets are kept out of every repr and message."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sap_devs.core.errors import SapDevsError

SYSTEM_TYPES = ("onprem", "cloud", "legacy")


class AdtConfigError(SapDevsError):
    pass


@dataclass(frozen=True)
class AdtConfig:
    url: str
    client: str | None = None
    language: str | None = None
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    bearer_token: str | None = field(default=None, repr=False)
    system_type: str = "onprem"
    timeout: float = 30.0

    @property
    def host(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    def secrets(self) -> list[str]:
        """Values that must never appear in output, logs or errors."""
        return [s for s in (self.password, self.bearer_token) if s]

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> AdtConfig | None:
        """The system from SAP_URL and friends; None when SAP_URL is not set (ABAP tools then stay hidden)."""
        env = dict(os.environ) if env is None else env
        url = (env.get("SAP_URL") or "").strip()
        if not url:
            return None
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise AdtConfigError(f"SAP_URL must be an http(s) URL such as https://host:44300, got {url!r}.")
        if parts.username or parts.password:
            raise AdtConfigError("SAP_URL must not contain a user or password; use SAP_USER and SAP_PASSWORD.")
        system_type = (env.get("SAP_SYSTEM_TYPE") or "onprem").strip().lower()
        if system_type not in SYSTEM_TYPES:
            raise AdtConfigError(f"SAP_SYSTEM_TYPE must be one of {', '.join(SYSTEM_TYPES)}, got {system_type!r}.")
        token = env.get("SAP_BEARER_TOKEN") or env.get("SAP_JWT_TOKEN")
        user, password = env.get("SAP_USER"), env.get("SAP_PASSWORD")
        if not token and not (user and password):
            raise AdtConfigError(
                "SAP_URL is set but no credentials: set SAP_USER and SAP_PASSWORD, "
                "or SAP_BEARER_TOKEN for an SAP BTP ABAP environment."
            )
        return cls(
            url=f"{parts.scheme}://{parts.netloc}",
            client=(env.get("SAP_CLIENT") or "").strip() or None,
            language=(env.get("SAP_LANGUAGE") or "").strip() or None,
            user=user,
            password=password,
            bearer_token=token,
            system_type=system_type,
            timeout=float(env.get("SAP_TIMEOUT") or 30),
        )
