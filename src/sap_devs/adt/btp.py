"""SAP BTP ABAP environment sign-in: a service key, an OAuth authorization-code login, refresh tokens.

The service key (``SAP_SERVICE_KEY``, a path) names the system URL and the XSUAA client. ``sap-devs
abap login`` runs the browser login once; the refresh token is kept in the OS keyring when the
optional ``keyring`` package is available, else in a file only the user can read. Tokens are never
printed or logged.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from sap_devs.adt.config import AdtConfigError
from sap_devs.core import paths

KEYRING_SERVICE = "sap-devs"


@dataclass(frozen=True)
class ServiceKey:
    url: str
    uaa_url: str
    client_id: str
    client_secret: str = field(repr=False)

    @property
    def token_url(self) -> str:
        return self.uaa_url.rstrip("/") + "/oauth/token"

    @property
    def account(self) -> str:
        return f"btp:{urlsplit(self.url).hostname}"


def load_service_key(path: str | Path) -> ServiceKey:
    file = Path(path).expanduser()
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AdtConfigError(f"Service key file {file} does not exist.") from None
    except (OSError, ValueError) as exc:
        raise AdtConfigError(f"Service key file {file} is not valid JSON ({exc}).") from None
    uaa = data.get("uaa") if isinstance(data, dict) else None
    url = (data.get("url") or data.get("abap", {}).get("url")) if isinstance(data, dict) else None
    if not (isinstance(uaa, dict) and url and uaa.get("url") and uaa.get("clientid") and uaa.get("clientsecret")):
        raise AdtConfigError(
            f"{file} is not an SAP BTP ABAP environment service key (needs url and uaa.url/clientid/clientsecret)."
        )
    return ServiceKey(
        url=url.rstrip("/"), uaa_url=uaa["url"], client_id=uaa["clientid"], client_secret=uaa["clientsecret"]
    )


# -- refresh-token storage -----------------------------------------------------------------------


def _token_file(account: str) -> Path:
    return paths.config_dir() / "tokens" / (account.replace(":", "_").replace("/", "_") + ".json")


def store_refresh_token(account: str, token: str) -> str:
    """Where the token went: 'keyring' or the private file path."""
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, account, token)
        return "keyring"
    except Exception:  # no keyring package or no usable backend: fall back to a private file
        file = _token_file(account)
        _write_private(file, json.dumps({"refresh_token": token}))
        return str(file)


def _private_folder(folder: Path) -> None:
    """The folder, created 0700, or an existing one tightened to 0700: other users must not even list it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.is_symlink() or not folder.is_dir():
        raise AdtConfigError(
            f"{folder} is not a plain folder; refusing to store a sign-in token there.",
            hint="Remove it (or install the keyring package) and run `sap-devs abap login` again.",
        )
    if os.name == "posix":
        try:
            os.chmod(folder, 0o700)
        except OSError as exc:
            raise AdtConfigError(
                f"Cannot make {folder} private ({exc.strerror}); refusing to store a sign-in token there.",
                hint="Fix the folder's owner or permissions, or install the keyring package.",
            ) from None


def _write_private(file: Path, text: str) -> None:
    """Write a secret file that is 0600 from its first byte and replaced atomically."""
    tmp = file.with_name(f".{file.name}.{secrets.token_hex(8)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        _private_folder(file.parent)
        fd = os.open(tmp, flags, 0o600)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(text.encode("utf-8"))
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, file)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise AdtConfigError(
            f"Cannot write the sign-in token to {file} ({exc.strerror}).",
            hint="Check that the config folder is writable, or install the keyring package.",
        ) from None


def forget_refresh_token(account: str) -> list[str]:
    """Removes the stored token from the keyring and the file; where it was found."""
    removed = []
    try:
        import keyring

        if keyring.get_password(KEYRING_SERVICE, account):
            keyring.delete_password(KEYRING_SERVICE, account)
            removed.append("keyring")
    except Exception:  # no keyring package or backend: only the file can hold it
        pass
    file = _token_file(account)
    if file.exists():
        file.unlink()
        removed.append(str(file))
    return removed


def load_refresh_token(account: str) -> str | None:
    try:
        import keyring

        token = keyring.get_password(KEYRING_SERVICE, account)
        if token:
            return token
    except Exception:  # fall through to the file
        pass
    file = _token_file(account)
    try:
        return json.loads(file.read_text(encoding="utf-8")).get("refresh_token")
    except (OSError, ValueError):
        return None


# -- OAuth against XSUAA ---------------------------------------------------------------------------


def authorize_url(key: ServiceKey, redirect_uri: str, state: str) -> str:
    query = urlencode(
        {"response_type": "code", "client_id": key.client_id, "redirect_uri": redirect_uri, "state": state}
    )
    return f"{key.uaa_url.rstrip('/')}/oauth/authorize?{query}"


async def _token_request(key: ServiceKey, form: dict[str, str]) -> dict[str, Any]:
    from sap_devs.core.http import FetchError, Http, Policy

    host = urlsplit(key.uaa_url).hostname or ""
    async with Http(Policy(allowed_hosts=frozenset({host}), read_timeout=20.0)) as http:
        try:
            response = await http.request(
                "POST",
                key.token_url,
                headers={
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Accept": "application/json",
                    "Authorization": "Basic " + _basic(key.client_id, key.client_secret),
                },
                content=urlencode(form),
            )
        except FetchError as exc:
            raise AdtConfigError(
                f"Sign-in at {host} failed: {exc.message}", hint="Run `sap-devs abap login` again."
            ) from None
    data = response.json()
    if not data.get("access_token"):
        raise AdtConfigError(f"Sign-in at {host} returned no access token.", hint="Run `sap-devs abap login` again.")
    return data


def _basic(user: str, password: str) -> str:
    import base64

    return base64.b64encode(f"{user}:{password}".encode()).decode()


async def exchange_code(key: ServiceKey, code: str, redirect_uri: str) -> dict[str, Any]:
    """The tokens for the code the browser brought back; the caller stores the refresh token."""
    return await _token_request(key, {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri})


async def access_token(key: ServiceKey) -> str:
    """A fresh access token from the stored refresh token (rotated tokens are stored again)."""
    refresh = load_refresh_token(key.account)
    if not refresh:
        raise AdtConfigError(
            f"Not signed in to {key.url}.", hint="Run `sap-devs abap login` once (or set SAP_BEARER_TOKEN)."
        )
    tokens = await _token_request(key, {"grant_type": "refresh_token", "refresh_token": refresh})
    if tokens.get("refresh_token") and tokens["refresh_token"] != refresh:
        store_refresh_token(key.account, tokens["refresh_token"])
    return tokens["access_token"]


def new_state() -> str:
    return secrets.token_urlsafe(24)
