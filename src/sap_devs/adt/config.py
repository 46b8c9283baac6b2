"""Which SAP system to talk to, from the environment. Secrets are kept out of every repr and message.

A configuration problem (SAP_URL without credentials, a bad SAP_TIMEOUT or port, a broken
systems.yaml) raises AdtConfigError with one line saying what to fix. Inside ``deferred_errors()``
(the MCP server) it does not stop the caller: ``configured`` returns an unusable configuration
that carries the error, the knowledge tools work as usual, and the ABAP tools answer with that
error when called.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sap_devs.core.errors import SapDevsError

SYSTEM_TYPES = ("onprem", "cloud", "legacy")
MAX_TIMEOUT = 3600.0
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]")
_CLIENT = re.compile(r"\d{3}")
_deferring = contextvars.ContextVar("sap_devs_adt_deferring", default=False)
CREDENTIALS_HEADER = "X-SAP-Authorization"
"""Where a team HTTP server's callers send their SAP credentials: ``Basic base64(user:password)``
or ``Bearer <token>`` (an OAuth access token of the ABAP system). Never the MCP server's own
``Authorization``, which carries the API key or OIDC token for sap-devs itself."""
SERVER_HELD_SECRETS = ("SAP_PASSWORD", "SAP_BEARER_TOKEN", "SAP_JWT_TOKEN", "SAP_SERVICE_KEY")


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
    service_key: str | None = None
    """Path of an SAP BTP ABAP environment service key: tokens come from `sap-devs abap login`."""
    problem: AdtConfigError | None = field(default=None, repr=False, compare=False)
    """Why this configuration cannot be used (see ``deferred_errors``); None when it can."""
    credentials_per_request: bool = False
    """A team HTTP server's system: each caller's own credentials come with each request
    (``CREDENTIALS_HEADER``), the server holds none."""

    @classmethod
    def unusable(cls, problem: AdtConfigError, env: dict[str, str] | None = None) -> AdtConfig:
        env = dict(os.environ) if env is None else env
        system_type = (env.get("SAP_SYSTEM_TYPE") or "onprem").strip().lower()
        return cls(url="", system_type=system_type if system_type in SYSTEM_TYPES else "onprem", problem=problem)

    @property
    def host(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    def secrets(self) -> list[str]:
        """Values that must never appear in output, logs or errors."""
        return [s for s in (self.password, self.bearer_token) if s]

    def with_credentials(self, credentials: RequestCredentials) -> AdtConfig:
        """This system, logged on as the caller of one HTTP request."""
        return replace(
            self, user=credentials.user, password=credentials.password, bearer_token=credentials.bearer_token
        )

    @classmethod
    def for_http_server(cls, env: dict[str, str] | None = None) -> AdtConfig:
        """The one ABAP system a team HTTP server talks to, from SAP_URL and friends, without credentials:
        callers send their own with each request, so the server's own would be shared with all of them."""
        env = dict(os.environ) if env is None else env
        held = [name for name in SERVER_HELD_SECRETS if (env.get(name) or "").strip()]
        if held:
            raise AdtConfigError(
                f"Refusing ABAP tools over HTTP while {', '.join(held)} is set: every caller would act with "
                "these credentials.",
                hint=f"Unset it; each caller sends their own SAP credentials in the {CREDENTIALS_HEADER} header.",
            )
        if not (env.get("SAP_URL") or "").strip():
            raise AdtConfigError(
                "ABAP tools over HTTP need the system's URL in SAP_URL (fixed for all callers), "
                "such as https://host:44300.",
                hint="Also set SAP_CLIENT (and SAP_SYSTEM_TYPE=cloud for an SAP BTP ABAP environment).",
            )
        placeholder = {**env, "SAP_USER": "-", "SAP_PASSWORD": "-"}  # from_env insists on credentials
        config = cls.from_env(placeholder)
        assert config is not None  # SAP_URL is set
        return replace(config, user=None, password=None, credentials_per_request=True)

    @classmethod
    def from_system(cls, name: str, env: dict[str, str] | None = None) -> AdtConfig:
        """A named system from ``<config dir>/systems.yaml``. Passwords are never stored there: the entry
        names an environment variable (``password_env``) or the password sits in the OS keyring
        (service ``sap-devs``, user ``<name>``) when the optional ``keyring`` package is installed."""
        env = dict(os.environ) if env is None else env
        path, systems = _named_systems(name)
        entry = systems.get(name)
        if not isinstance(entry, dict):
            known = ", ".join(sorted(systems))
            raise AdtConfigError(f"No system named {name!r} in {path}.", hint=f"Known systems: {known or 'none'}.")
        if "password" in entry:
            raise AdtConfigError(
                f"{path}: system {name!r} holds a plain-text password.",
                hint="Remove it; use password_env (an environment variable name) or the OS keyring.",
            )
        password = env.get(str(entry["password_env"])) if entry.get("password_env") else None
        if password is None and entry.get("user") and not entry.get("token_env"):
            password = _keyring_password(name)
        token = env.get(str(entry["token_env"])) if entry.get("token_env") else None
        merged = {
            "SAP_URL": str(entry.get("url") or ""),
            "SAP_CLIENT": str(entry.get("client") or ""),
            "SAP_LANGUAGE": str(entry.get("language") or ""),
            "SAP_USER": str(entry.get("user") or ""),
            "SAP_PASSWORD": password or "",
            "SAP_BEARER_TOKEN": token or "",
            "SAP_SYSTEM_TYPE": str(entry.get("system_type") or ""),
            "SAP_SERVICE_KEY": str(entry.get("service_key") or ""),
        }
        config = cls.from_env(merged)
        if config is None:
            raise AdtConfigError(f"{path}: system {name!r} has no url (or service_key).")
        return config

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> AdtConfig | None:
        """The system from SAP_URL and friends; None when SAP_URL is not set (ABAP tools then stay hidden)."""
        env = dict(os.environ) if env is None else env
        url = (env.get("SAP_URL") or "").strip()
        key_path = (env.get("SAP_SERVICE_KEY") or "").strip()
        if key_path:
            from sap_devs.adt.btp import load_service_key

            key = load_service_key(key_path)
            url = url or key.url
        if not url:
            return None
        parts = _checked_url(url)
        system_type = (env.get("SAP_SYSTEM_TYPE") or ("cloud" if key_path else "onprem")).strip().lower()
        if system_type not in SYSTEM_TYPES:
            raise AdtConfigError(f"SAP_SYSTEM_TYPE must be one of {', '.join(SYSTEM_TYPES)}, got {system_type!r}.")
        token = env.get("SAP_BEARER_TOKEN") or env.get("SAP_JWT_TOKEN")
        user, password = env.get("SAP_USER"), env.get("SAP_PASSWORD")
        if not token and not (user and password) and not key_path:
            raise AdtConfigError(
                "SAP_URL is set but no credentials: set SAP_USER and SAP_PASSWORD, "
                "or SAP_BEARER_TOKEN for an SAP BTP ABAP environment."
            )
        client = (env.get("SAP_CLIENT") or "").strip() or None
        if client is not None and not _CLIENT.fullmatch(client):
            raise AdtConfigError(f"SAP_CLIENT must be a three-digit client number such as 100, got {client!r}.")
        return cls(
            url=f"{parts.scheme}://{parts.netloc}",
            client=client,
            language=(env.get("SAP_LANGUAGE") or "").strip() or None,
            user=user,
            password=password,
            bearer_token=token,
            system_type=system_type,
            timeout=_timeout(env.get("SAP_TIMEOUT")),
            service_key=key_path or None,
        )


@dataclass(frozen=True)
class RequestCredentials:
    """One HTTP caller's logon to the ABAP system; lives for that request only."""

    user: str | None = None
    password: str | None = field(default=None, repr=False)
    bearer_token: str | None = field(default=None, repr=False)

    @classmethod
    def from_header(cls, value: str) -> RequestCredentials:
        """Parses the ``CREDENTIALS_HEADER`` value; errors never repeat any part of it."""
        import base64
        import binascii

        scheme, _, rest = value.strip().partition(" ")
        rest = rest.strip()
        usage = f"{CREDENTIALS_HEADER} must be 'Basic <base64 of user:password>' or 'Bearer <token>'"
        if scheme.lower() == "bearer" and rest and " " not in rest:
            return cls(bearer_token=rest)
        if scheme.lower() != "basic" or not rest:
            raise AdtConfigError(f"{usage}.")
        try:
            decoded = base64.b64decode(rest, validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            raise AdtConfigError(f"{usage}: the Basic value is not base64 of UTF-8 text.") from None
        user, colon, password = decoded.partition(":")
        if not colon or not user.strip() or not password:
            raise AdtConfigError(f"{usage}: the Basic value needs both a user and a password.")
        return cls(user=user.strip(), password=password)

    def secrets(self) -> list[str]:
        return [s for s in (self.password, self.bearer_token) if s]


_USERINFO = re.compile(r"^([^/?#]*//|)(.*)@")


def _shown(url: str) -> str:
    """``url`` fit for an error message: anything before its last ``@`` (a user and password,
    wherever the URL is broken otherwise) and its query replaced, control characters escaped, cut."""
    text = _USERINFO.sub(lambda m: f"{m.group(1)}***@", url, count=1)
    if "?" in text or "#" in text:
        text = text.split("?", 1)[0].split("#", 1)[0] + "?…"
    text = text.encode("unicode_escape").decode("ascii")
    return repr(text if len(text) <= 200 else text[:199] + "…")


def _checked_url(url: str) -> Any:
    """SAP_URL split into parts, or AdtConfigError naming what is wrong with it (never its password)."""
    example = "such as https://host:44300"
    shown = _shown(url)
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a port out of range or not a number
    except ValueError as exc:
        # Python's own text can quote the port, which may hold a piece of a password: say it in our words
        text = str(exc)
        why = (
            "Port out of range 0-65535"
            if text.startswith("Port out of range")
            else (
                "its port is not a number"
                if text.startswith("Port could not be cast")
                else "its host part is malformed"
            )
        )
        raise AdtConfigError(f"SAP_URL {shown} is not a valid URL ({why}); use one {example}.") from None
    if "@" in url:
        raise AdtConfigError("SAP_URL must not contain a user or password; use SAP_USER and SAP_PASSWORD.")
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise AdtConfigError(f"SAP_URL must be an http(s) URL {example}, got {shown}.")
    host = parts.netloc
    if port is not None or host.endswith(":"):
        host = host.rsplit(":", 1)[0]
    if not _HOST.fullmatch(host):
        raise AdtConfigError(f"SAP_URL has an invalid host name {_shown(host)}; use a URL {example}.")
    if port == 0 or (port is None and parts.netloc.endswith(":")):
        raise AdtConfigError(f"SAP_URL has no usable port in {shown}; use a URL {example}.")
    return parts


def _timeout(raw: str | None) -> float:
    if raw is None or not raw.strip():
        return 30.0
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (0 < value <= MAX_TIMEOUT):  # also false for nan
        raise AdtConfigError(
            f"SAP_TIMEOUT must be a positive number of seconds up to {MAX_TIMEOUT:g}, such as 60; got {raw!r}."
        )
    return value


@contextlib.contextmanager
def deferred_errors() -> Iterator[None]:
    """Within this block ``configured`` returns ``AdtConfig.unusable(error)`` instead of raising."""
    token = _deferring.set(True)
    try:
        yield
    finally:
        _deferring.reset(token)


def _named_systems(name: str) -> tuple[Path, dict[str, Any]]:
    """``<config dir>/systems.yaml`` and its entries; errors name the file and what to do."""
    import yaml

    from sap_devs.core import paths, safe_yaml

    path = paths.config_dir() / "systems.yaml"
    if not path.is_file():
        raise AdtConfigError(
            f"No system named {name!r}: {path} does not exist.",
            hint="Create it with entries like  dev: {url: https://host:44300, client: '100', user: DEVELOPER, "
            "password_env: SAP_DEV_PASSWORD}.",
        )
    try:
        data = safe_yaml.load(path.read_text(encoding="utf-8")) or {}
    except safe_yaml.YamlBombError as exc:
        raise AdtConfigError(f"{path} is refused: {exc.problem}.") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise AdtConfigError(f"{path} is not valid YAML{where}.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AdtConfigError(f"{path} cannot be read ({exc}).") from None
    systems = data.get("systems", data) if isinstance(data, dict) else {}
    return path, systems if isinstance(systems, dict) else {}


def check_system_name(name: str) -> None:
    """Raises AdtConfigError unless systems.yaml has an entry ``name`` (credentials are not checked)."""
    path, systems = _named_systems(name)
    if not isinstance(systems.get(name), dict):
        known = ", ".join(sorted(systems))
        raise AdtConfigError(f"No system named {name!r} in {path}.", hint=f"Known systems: {known or 'none'}.")


def _keyring_password(name: str) -> str | None:
    try:
        import keyring  # optional: only when the user installed it
    except ImportError:
        return None
    try:
        return keyring.get_password("sap-devs", name)
    except Exception:  # a locked or missing keyring backend means "no stored password", said below
        return None


def configured(system: str | None = None, env: dict[str, str] | None = None) -> AdtConfig | None:
    """The system to use: a named one (--system / SAP_DEVS_SYSTEM), else SAP_URL, else none."""
    env = dict(os.environ) if env is None else env
    name = system or env.get("SAP_DEVS_SYSTEM")
    try:
        return AdtConfig.from_system(name, env) if name else AdtConfig.from_env(env)
    except AdtConfigError as exc:
        if not _deferring.get():
            raise
        return AdtConfig.unusable(exc, env)
