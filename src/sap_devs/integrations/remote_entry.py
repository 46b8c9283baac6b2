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
from urllib.parse import parse_qsl, urlsplit

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations.clients import Client

ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an RFC 9110 token
# Header names that carry a credential by their name: such a value must come from the environment.
_SECRET_NAME = re.compile(r"(?i)auth|key|token|secret|cookie|passw|session|credential")
# Query parameter names that carry a credential (``?api_key=``, ``?access_token=``, ``?sig=``).
_SECRET_PARAM = re.compile(r"(?i)auth|key|token|secret|passw|session|credential|sig|code|pwd")
# A value that is a credential whatever its header is called: an authorization scheme followed by
# a literal, a JSON Web Token, or a long run of token characters with letters and digits mixed.
_SCHEME_VALUE = re.compile(r"(?i)^(bearer|basic|token|digest|negotiate|apikey|api-key|sharedkey)\s+\S")
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+/=_.~-]{20,}")
_HEX_RUN = re.compile(r"(?i)(?<![0-9a-f])[0-9a-f]{32,}(?![0-9a-f])")
# C0 and C1 controls, DEL and the Unicode line and paragraph separators: a CR/LF in a value would
# start a new header (or a new line of a TOML or YAML file) in the client.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def looks_secret(value: str) -> bool:
    """True when ``value``, with its ``${NAME}`` references left out, still holds a literal credential."""
    literal = ENV_REF.sub("", value).strip()
    if not literal:
        return False
    if _SCHEME_VALUE.match(literal) or _JWT.search(literal) or _HEX_RUN.search(literal):
        return True
    # upper and lower case letters and digits in one long run: random, as keys are (a date, a version
    # or a hyphenated name is not)
    return any(all(re.search(c, run) for c in ("[A-Z]", "[a-z]", "[0-9]")) for run in _TOKEN_RUN.findall(literal))


def _control_free(what: str, text: str) -> None:
    found = _CONTROL.search(text)
    if found:
        raise SapDevsError(
            f"{what} holds a control character (U+{ord(found.group()):04X}, such as a line break) at position "
            f"{found.start() + 1}; a client would read it as the start of another header or line.",
            hint="Give the value on one line, without CR, LF or other control characters.",
        )


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
        _control_free(f"--header {name[:40]!r}" if _HEADER_NAME.fullmatch(name) else "--header", item.strip())
        if not colon or not _HEADER_NAME.fullmatch(name) or not value:
            raise SapDevsError(
                f"--header must look like 'Name: value', got one starting {item[:12]!r}.",
                hint="Quote it in the shell, with ${NAME} for an environment variable: "
                "--header 'X-SAP-Authorization: ${SAP_BASIC}'.",
            )
        if (not ENV_REF.search(value) and _SECRET_NAME.search(name)) or looks_secret(value):
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
    """The server URL, or SapDevsError: http(s) with a host, https when credentials leave this machine,
    no control character and no credential in it (they belong in a header from the environment)."""
    _control_free("--url", url.strip())
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc:
        raise SapDevsError(
            "--url must be the server's http(s) address without a user or password"
            + ("." if "@" in url else f", got {url[:200]!r}."),
            hint="Such as https://sap-devs.example.com/mcp.",
        )
    for name, value in parse_qsl(parts.query, keep_blank_values=True) + parse_qsl(
        parts.fragment, keep_blank_values=True
    ):
        if _SECRET_PARAM.search(name) or looks_secret(value):
            raise SapDevsError(
                f"--url: its query parameter {name[:40]!r} looks like a credential, and the URL is written into "
                "the client's file as plain text.",
                hint="Send it as a header from the environment instead: --header 'Name: ${NAME}' or --key-env NAME.",
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
