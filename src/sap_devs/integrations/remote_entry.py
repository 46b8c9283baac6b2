"""A remote MCP server (a team's sap-devs over HTTP) in each AI client's own entry format.

Headers are given once, neutrally (``Authorization: Bearer ${SAP_DEVS_KEY}``), and each client gets
its own way of reading ``${NAME}`` from the environment when it connects, so a key is never
written into a configuration file: where a client has no such way, sap-devs refuses and says what
to do instead. A header that carries a credential must come from the environment.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations.clients import Client

ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an RFC 9110 token
# Header names that carry a credential by their name: such a value must come from the environment.
_SECRET_NAME = re.compile(r"(?i)auth|key|token|secret|cookie|passw|session|credential")

# How each client reads an environment variable inside a header value when it connects.
_ENV_SYNTAX = {
    "claude-code": "${{{}}}",  # .mcp.json / ~/.claude.json expand ${VAR}
    "gemini-cli": "${{{}}}",  # settings.json expands $VAR and ${VAR} in every string
    "cursor": "${{env:{}}}",
    "vscode": "${{env:{}}}",
    "windsurf": "${{env:{}}}",
    "continue": "${{{{ secrets.{} }}}}",  # Continue looks secrets up in the process environment, then .env files
}


def parse_headers(raw: list[str], key_env: str | None) -> tuple[tuple[str, str], ...]:
    """``--header "Name: value"`` options and ``--key-env NAME`` as (name, value) pairs; SapDevsError
    names the bad one (never repeating a value, which may be a key)."""
    headers: list[tuple[str, str]] = []
    for item in raw:
        name, colon, value = item.partition(":")
        name, value = name.strip(), value.strip()
        if not colon or not _HEADER_NAME.fullmatch(name) or not value:
            raise SapDevsError(
                f"--header must look like 'Name: value', got one starting {item[:12]!r}.",
                hint="Quote it in the shell, with ${NAME} for an environment variable: "
                "--header 'X-SAP-Authorization: ${SAP_BASIC}'.",
            )
        if not ENV_REF.search(value) and _SECRET_NAME.search(name):
            raise SapDevsError(
                f"--header {name}: its value would be written into the client's file as plain text.",
                hint=f"Put it in an environment variable and write --header '{name}: ${{NAME}}' (or "
                "--key-env NAME for Authorization: Bearer); each client reads it from the environment.",
            )
        headers.append((name, value))
    if key_env is not None:
        if not _ENV_NAME.fullmatch(key_env):
            raise SapDevsError(
                f"--key-env must name an environment variable (letters, digits, _), got {key_env[:40]!r}."
            )
        if any(name.lower() == "authorization" for name, _ in headers):
            raise SapDevsError("--key-env sets the Authorization header; leave out --header Authorization.")
        headers.insert(0, ("Authorization", f"Bearer ${{{key_env}}}"))
    lowered = [name.lower() for name, _ in headers]
    if len(set(lowered)) != len(lowered):
        raise SapDevsError("Each --header name may be given once.")
    return tuple(headers)


def check_url(url: str, headers: tuple[tuple[str, str], ...]) -> str:
    """The server URL, or SapDevsError: http(s) with a host, https when credentials leave this machine."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        raise SapDevsError(
            f"--url must be the server's http(s) address without a user or password, got {url[:200]!r}.",
            hint="Such as https://sap-devs.example.com/mcp.",
        )
    loopback = parts.hostname in ("127.0.0.1", "localhost", "::1")
    if parts.scheme == "http" and not loopback and headers:
        raise SapDevsError(
            "Refusing to send credentials over plain http to another machine.",
            hint="Use the server's https:// address.",
        )
    return url.strip()


def remote_entry(
    client: Client, server_id: str, url: str, headers: tuple[tuple[str, str], ...], path: Path
) -> dict[str, Any]:
    """The entry a client needs to reach ``url``; SapDevsError when it cannot hold it without a secret."""
    if client.id == "claude-desktop":
        raise SapDevsError(
            "Claude Desktop does not read remote servers from its configuration file.",
            hint="Add the URL in Claude Desktop under Settings > Connectors.",
        )
    if client.id == "codex":
        return _codex(url, headers)
    if client.id == "zed":
        if any(ENV_REF.search(value) for _, value in headers):
            raise SapDevsError(
                f"Zed cannot read a header from an environment variable, so the key would be written into {path}.",
                hint="Add the server in Zed by hand (Agent settings > Add custom server), or connect another client.",
            )
        return {"url": url, **({"headers": dict(headers)} if headers else {})}
    syntax = _ENV_SYNTAX[client.id]
    written = {name: ENV_REF.sub(lambda m: syntax.format(m.group(1)), value) for name, value in headers}
    extra = {"headers": written} if written else {}
    if client.id in ("claude-code", "vscode", "gemini-cli"):
        return {"type": "http", "url": url, **extra}
    if client.id == "windsurf":
        return {"serverUrl": url, **extra}
    if client.id == "continue":
        entry: dict[str, Any] = {"name": server_id, "type": "streamable-http", "url": url}
        return {**entry, "requestOptions": extra} if extra else entry
    return {"url": url, **extra}  # cursor


def _codex(url: str, headers: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """Codex names the variable instead of expanding it: ``bearer_token_env_var`` for the bearer token,
    ``env_http_headers`` (header -> variable) for whole header values from the environment."""
    entry: dict[str, Any] = {"url": url}
    from_env: dict[str, str] = {}
    fixed: dict[str, str] = {}
    for name, value in headers:
        bearer = re.fullmatch(r"Bearer \$\{([A-Za-z_][A-Za-z0-9_]*)\}", value)
        whole = ENV_REF.fullmatch(value)
        if name.lower() == "authorization" and bearer:
            entry["bearer_token_env_var"] = bearer.group(1)
        elif whole:
            from_env[name] = whole.group(1)
        elif ENV_REF.search(value):
            raise SapDevsError(
                f"Codex can take header {name} from an environment variable only as a whole value.",
                hint=f"Put the whole value (such as 'Basic ...') in the variable: --header '{name}: ${{NAME}}'.",
            )
        else:
            fixed[name] = value
    if fixed:
        entry["http_headers"] = fixed
    if from_env:
        entry["env_http_headers"] = from_env
    return entry
