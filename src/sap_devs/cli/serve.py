"""Starting the MCP server: shared by ``sap-devs mcp serve`` and the fast start-up path.

Agents start the server at the beginning of every session, so ``sap-devs mcp serve`` is parsed
with argparse before the full typer CLI (and rich) would be imported; ``sap-devs mcp serve
--help`` still goes through typer, whose command calls the same ``run_server``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any


def open_stdio_session(
    profile: str | None, environment: str | None, allow_writes: bool = False, system: str | None = None
) -> tuple[Any, Any]:
    """The registry and tool context of ``mcp serve`` on stdio; SapDevsError says what is wrong.

    A broken ABAP configuration does not stop it: the context carries the problem (say it once at
    start), every ABAP tool answers with it and the knowledge tools work as usual."""
    from sap_devs.adt.config import deferred_errors
    from sap_devs.core.errors import SapDevsError
    from sap_devs.knowledge.layer_paths import available_profiles, default_layers
    from sap_devs.mcp.session import open_session

    cwd = Path(os.getcwd())
    layers = default_layers(cwd)
    if profile not in (None, "", "all"):
        known = available_profiles(layers)
        if profile not in known:
            raise SapDevsError(f"Unknown profile {profile!r}.", hint=f"Choose one of: {', '.join(known)}.")
    from sap_devs.mcp.project_kinds import detect_kinds

    with deferred_errors():
        return open_session(
            environment=environment,
            profile=profile,
            allow_writes=allow_writes,
            cwd=cwd,
            layers=layers,
            system=system,
            project_kinds=detect_kinds(cwd),  # tools for other kinds of project stay unlisted (still callable)
        )


def pinned_tools(pinned: str | None) -> list[str]:
    """The tools progressive mode lists beside its three: --pin / SAP_DEVS_PINNED_TOOLS, else the defaults."""
    from sap_devs.mcp.registry import DEFAULT_PINNED

    return [p.strip() for p in (pinned or ",".join(DEFAULT_PINNED)).split(",") if p.strip()]


def build_stdio_server(
    registry: Any, ctx: Any, tools_mode: str = "auto", pinned: str | None = None, *, warm_up_on_list: bool = True
) -> Any:
    """The SDK server for a session from ``open_stdio_session``; SapDevsError for an unknown mode or pin."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.mcp.server import build_server

    pins = pinned_tools(pinned)
    unknown = [p for p in pins if p not in registry]
    if unknown:
        raise SapDevsError(f"Cannot pin unknown tool(s): {', '.join(unknown)}.", hint="Check `sap-devs tools list`.")
    return build_server(registry, ctx, mode=tools_mode, pinned=pins, warm_up_on_list=warm_up_on_list)


def run_server(
    profile: str | None,
    environment: str | None,
    tools_mode: str = "auto",
    pinned: str | None = None,
    allow_writes: bool = False,
    system: str | None = None,
) -> int:
    """Serve until the client disconnects; returns the process exit code."""
    from sap_devs.core.log import setup_logging

    setup_logging()
    import anyio

    from sap_devs.core.errors import SapDevsError
    from sap_devs.mcp.server import serve_stdio

    try:
        registry, ctx = open_stdio_session(profile, environment, allow_writes, system)
        problem = ctx.adt_config.problem if ctx.adt_config is not None else None
        if problem is not None:
            print(f"sap-devs: ABAP tools unavailable: {problem}", file=sys.stderr)
        server = build_stdio_server(registry, ctx, tools_mode, pinned)
    except SapDevsError as exc:
        print(f"sap-devs: {exc}", file=sys.stderr)
        return 2
    mode = registry.resolve_mode(tools_mode)
    if sys.stdin.isatty():
        print(
            f"sap-devs MCP server ready on stdio ({mode} mode, {len(registry.operations())} operations). "
            "It is meant to be started by an AI "
            "client: add the command 'sap-devs mcp serve' to the client's MCP configuration (see the README). "
            "Press Ctrl+C to stop.",
            file=sys.stderr,
        )
    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(serve_stdio, server)
    return 0


def stdio_parser() -> argparse.ArgumentParser:
    """The options of ``mcp serve`` on stdio (shared with the fast front, ``sap_devs.mcp.fast_front``)."""
    parser = argparse.ArgumentParser(prog="sap-devs mcp serve", add_help=False)
    parser.add_argument("--profile", "-p", default=os.environ.get("SAP_DEVS_PROFILE"))
    parser.add_argument("--environment", default=None)
    parser.add_argument("--allow-writes", action="store_true")
    parser.add_argument("--system", default=None)
    parser.add_argument("--tools", dest="tools_mode", default=os.environ.get("SAP_DEVS_TOOLS", "auto"))
    parser.add_argument("--pin", default=os.environ.get("SAP_DEVS_PINNED_TOOLS"))
    return parser


def fast_path(argv: list[str]) -> int | None:
    """Handle ``mcp serve [--profile ID] [--environment ENV] [--tools MODE] [--pin NAMES]`` without typer;
    None when not applicable (help, unknown options), so typer answers those."""
    if argv[:2] == ["mcp", "serve"] and any(a == "--transport" or a.startswith("--transport=") for a in argv[2:]):
        return http_path(argv[2:])
    if argv[:2] != ["mcp", "serve"] or any(a in ("-h", "--help") for a in argv[2:]):
        return None
    args, unknown = stdio_parser().parse_known_args(argv[2:])
    if unknown:
        return None  # let typer report the unknown option with its usual message
    return run_server(args.profile, args.environment, args.tools_mode, args.pin, args.allow_writes, args.system)


def _env_int(name: str, default: int, *fallbacks: str) -> int:
    for var in (name, *fallbacks):
        raw = os.environ.get(var, "").strip()
        if raw:
            try:
                return int(raw)
            except ValueError:
                print(f"sap-devs: {var}={raw[:20]!r} is not a number; using {default}.", file=sys.stderr)
                return default
    return default


def _csv(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip()]


def http_parser() -> argparse.ArgumentParser:
    env = os.environ.get
    p = argparse.ArgumentParser(
        prog="sap-devs mcp serve --transport http",
        description="Serve the sap-devs knowledge tools over Streamable HTTP (stateless, both protocol eras) at "
        "/mcp. Binding to anything but loopback needs authentication: API keys (sap-devs keys create) and/or "
        "OIDC bearer tokens.",
    )
    p.add_argument("--transport", choices=["stdio", "http"], required=True)
    p.add_argument("--host", default=env("SAP_DEVS_HTTP_HOST", "127.0.0.1"), help="Address to bind (127.0.0.1).")
    p.add_argument(
        "--port", type=int, default=_env_int("SAP_DEVS_HTTP_PORT", 8080, "PORT"), help="Port (8080; $PORT on CF)."
    )
    p.add_argument("--workers", type=int, default=_env_int("SAP_DEVS_HTTP_WORKERS", 1), help="Worker processes (1).")
    p.add_argument("--profile", "-p", default=env("SAP_DEVS_PROFILE"))
    p.add_argument("--environment", default=None)
    p.add_argument("--tools", dest="tools_mode", default=env("SAP_DEVS_TOOLS", "auto"))
    p.add_argument("--pin", default=env("SAP_DEVS_PINNED_TOOLS"))
    p.add_argument(
        "--api-keys",
        default=env("SAP_DEVS_API_KEYS_FILE"),
        help="API key file (from `sap-devs keys create`); default: the user's key file when it holds keys.",
    )
    p.add_argument("--no-api-keys", action="store_true", help="Do not accept API keys (OIDC only).")
    p.add_argument(
        "--oidc-issuer",
        default=env("SAP_DEVS_OIDC_ISSUER"),
        help="Issuer URL of the OIDC provider (on Cloud Foundry: default from the bound XSUAA/IAS instance).",
    )
    p.add_argument(
        "--oidc-audience", default=env("SAP_DEVS_OIDC_AUDIENCE"), help="Accepted audience(s), comma-separated."
    )
    p.add_argument("--oidc-jwks-url", default=env("SAP_DEVS_OIDC_JWKS_URL"), help="JWKS URL (default: discovered).")
    p.add_argument(
        "--oidc-scopes",
        default=env("SAP_DEVS_OIDC_SCOPES"),
        help="Required scopes, comma-separated ($XSAPPNAME: the bound XSUAA instance's xsappname).",
    )
    p.add_argument(
        "--oidc-token-types",
        default=env("SAP_DEVS_OIDC_TOKEN_TYPES"),
        help="Accepted token typ headers, comma-separated (at+jwt,JWT,none: 'none' is a token without typ); "
        "ID tokens are refused whatever this says. at+jwt alone is RFC 9068 strict.",
    )
    p.add_argument(
        "--public-url", default=env("SAP_DEVS_PUBLIC_URL"), help="Public base URL, e.g. https://mcp.example.com."
    )
    p.add_argument(
        "--allowed-hosts", default=env("SAP_DEVS_ALLOWED_HOSTS"), help="Accepted Host headers (host:port, host:*)."
    )
    p.add_argument("--allowed-origins", default=env("SAP_DEVS_ALLOWED_ORIGINS"), help="Accepted browser Origins.")
    p.add_argument(
        "--max-body", type=int, default=_env_int("SAP_DEVS_HTTP_MAX_BODY", 1024 * 1024), help="Bytes (1 MiB)."
    )
    p.add_argument(
        "--sse",
        action="store_true",
        default=os.environ.get("SAP_DEVS_HTTP_SSE", "").strip().lower() in ("1", "true", "yes", "on"),
        help="Answer with SSE streams (progress notifications) instead of single JSON responses.",
    )
    p.add_argument(
        "--max-concurrent", type=int, default=_env_int("SAP_DEVS_HTTP_MAX_CONCURRENT", 8), help="Per identity (8)."
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=_env_int("SAP_DEVS_HTTP_MAX_CONNECTIONS", 0) or None,
        help="Open connections at most (default: what the open-file limit leaves room for, up to 4096); "
        "at the limit the oldest idle or half-sent one is closed.",
    )
    p.add_argument(
        "--max-connections-per-address",
        type=int,
        default=_env_int("SAP_DEVS_HTTP_MAX_CONNECTIONS_PER_ADDRESS", 0) or None,
        help="From one client address at most (half of --max-connections).",
    )
    p.add_argument(
        "--abap",
        action="store_true",
        default=_env_on("SAP_DEVS_HTTP_ABAP"),
        help="Serve the ABAP tools for the system in SAP_URL/SAP_CLIENT; each caller sends their own SAP "
        "credentials in the X-SAP-Authorization header (the server must hold none).",
    )
    p.add_argument(
        "--abap-writes",
        action="store_true",
        default=_env_on("SAP_DEVS_HTTP_ABAP_WRITES"),
        help="With --abap: also the tools that change the system (SAP_DEVS_ADT_PACKAGES limits where).",
    )
    return conventional_help(p)


# Help for the options the typer-side `mcp serve` describes, and the environment variable of each option.
HTTP_HELP = {
    "transport": "http for a team server (stdio, the default without this option, is for one AI client).",
    "profile": "Profile id that orders packs (default: all).",
    "environment": "SAP system environment tools are filtered for: onprem (default), cloud or legacy.",
    "tools_mode": "full = list every tool; progressive = search, schemas, call and pinned tools; auto = progressive "
    "above 40 tools.",
    "pin": "Comma-separated tools listed directly in progressive mode.",
}
HTTP_ENV = {
    "host": "SAP_DEVS_HTTP_HOST",
    "port": "SAP_DEVS_HTTP_PORT or PORT",
    "workers": "SAP_DEVS_HTTP_WORKERS",
    "profile": "SAP_DEVS_PROFILE",
    "environment": "SAP_SYSTEM_TYPE",
    "tools_mode": "SAP_DEVS_TOOLS",
    "pin": "SAP_DEVS_PINNED_TOOLS",
    "api_keys": "SAP_DEVS_API_KEYS_FILE",
    "oidc_issuer": "SAP_DEVS_OIDC_ISSUER",
    "oidc_audience": "SAP_DEVS_OIDC_AUDIENCE",
    "oidc_jwks_url": "SAP_DEVS_OIDC_JWKS_URL",
    "oidc_scopes": "SAP_DEVS_OIDC_SCOPES",
    "public_url": "SAP_DEVS_PUBLIC_URL",
    "allowed_hosts": "SAP_DEVS_ALLOWED_HOSTS",
    "allowed_origins": "SAP_DEVS_ALLOWED_ORIGINS",
    "max_body": "SAP_DEVS_HTTP_MAX_BODY",
    "sse": "SAP_DEVS_HTTP_SSE",
    "max_concurrent": "SAP_DEVS_HTTP_MAX_CONCURRENT",
    "abap": "SAP_DEVS_HTTP_ABAP",
    "abap_writes": "SAP_DEVS_HTTP_ABAP_WRITES",
}


def conventional_help(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The same help style as the rest of the CLI: TEXT/INTEGER metavars, every option described with its
    environment variable, and a short usage line instead of every option repeated."""
    parser.usage = f"{parser.prog} [OPTIONS]"
    for action in parser._actions:  # argparse has no public iterator over its options
        if not action.option_strings or action.dest == "help":
            continue
        if action.nargs != 0:
            if action.choices:
                action.metavar = "[" + "|".join(str(c) for c in action.choices) + "]"
            else:
                action.metavar = "INTEGER" if action.type is int else "TEXT"
        text = action.help or HTTP_HELP.get(action.dest, "")
        variable = HTTP_ENV.get(action.dest)
        action.help = f"{text} [env var: {variable}]" if variable else text
    return parser


def _env_on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def http_settings(args: argparse.Namespace) -> object:
    """HttpSettings from the parsed options; SapDevsError says what is wrong."""
    from sap_devs.http.app import HttpSettings
    from sap_devs.http.keys import default_path, read_entries
    from sap_devs.http.oidc import OidcSettings

    keys: Path | None = None
    if not args.no_api_keys:
        if args.api_keys:
            keys = Path(args.api_keys).expanduser()
            read_entries(keys)  # a malformed file fails now, with its name
        elif read_entries(default_path()):
            keys = default_path()
    from sap_devs.http.cf_binding import oidc_from_binding, public_url_from_application

    oidc = None
    if args.oidc_issuer:
        oidc = OidcSettings(
            issuer=args.oidc_issuer,
            audience=_csv(args.oidc_audience),
            jwks_url=args.oidc_jwks_url or None,
            required_scopes=_csv(args.oidc_scopes),
        )
    else:  # on Cloud Foundry: the bound XSUAA or IAS instance, when there is one
        oidc = oidc_from_binding(dict(os.environ), _csv(args.oidc_scopes))
    if oidc is not None and args.oidc_token_types:
        import dataclasses

        oidc = dataclasses.replace(oidc, token_types=_csv(args.oidc_token_types))
    settings = HttpSettings(
        host=args.host,
        port=args.port,
        api_keys=keys,
        oidc=oidc,
        public_url=args.public_url or public_url_from_application(dict(os.environ)),
        allowed_hosts=_csv(args.allowed_hosts),
        allowed_origins=_csv(args.allowed_origins),
        max_body=args.max_body,
        max_concurrent=args.max_concurrent,
        json_response=not args.sse,
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
    )
    settings.check()
    if keys is not None:
        from sap_devs.http.keys import check_file_safety

        for warning in check_file_safety(keys):  # refuses a file anyone can write
            print(f"sap-devs: warning: {warning}", file=sys.stderr)
    if keys is not None and oidc is None and not read_entries(keys):
        print(f"sap-devs: warning: {keys} holds no API keys yet, so every request will be refused.", file=sys.stderr)
    return settings


def build_http(argv: list[str]) -> tuple[Any, Any, Any, argparse.Namespace]:
    """The server, its tool context, the HttpSettings and the parsed options of an http command line;
    SapDevsError says what is wrong. Also each worker's start with --workers N."""
    from sap_devs.core.errors import SapDevsError
    from sap_devs.http.run import open_http_session
    from sap_devs.knowledge.layer_paths import available_profiles, default_layers
    from sap_devs.mcp.registry import DEFAULT_PINNED
    from sap_devs.mcp.server import build_server

    args, unknown = http_parser().parse_known_args(argv)
    if unknown:
        raise SapDevsError(f"Unknown option(s) for --transport http: {' '.join(unknown)[:200]}.")
    if args.workers < 1:
        raise SapDevsError("--workers must be 1 or more.")
    settings = http_settings(args)
    cwd = Path(os.getcwd())
    if args.profile not in (None, "", "all"):
        known = available_profiles(default_layers(cwd))
        if args.profile not in known:
            raise SapDevsError(f"Unknown profile {args.profile!r}.", hint=f"Choose one of: {', '.join(known)}.")
    registry, ctx = open_http_session(args.profile, args.environment, cwd, abap=args.abap, abap_writes=args.abap_writes)
    pins = [p.strip() for p in (args.pin or ",".join(DEFAULT_PINNED)).split(",") if p.strip()]
    unknown_pins = [p for p in pins if p not in registry]
    if unknown_pins:
        raise SapDevsError(
            f"Cannot pin unknown tool(s): {', '.join(unknown_pins)}.", hint="Check `sap-devs tools list`."
        )
    server = build_server(registry, ctx, mode=args.tools_mode, pinned=pins)
    args.banner = f", {registry.resolve_mode(args.tools_mode)} mode, {len(registry.operations())} operations"
    if ctx.adt_config is not None:
        writes = "with writes" if ctx.safety is not None and ctx.safety.writes else "read-only"
        args.banner += f"; ABAP tools for {ctx.adt_config.url}, {writes}, logon from each request"
    return server, ctx, settings, args


def http_path(argv: list[str]) -> int:
    """``sap-devs mcp serve --transport http ...`` (``--transport stdio`` is the usual stdio server)."""
    args, _ = http_parser().parse_known_args(argv)
    if args.transport == "stdio":
        rest = [a for a in argv if a != "--transport" and not a.startswith("--transport=") and a != "stdio"]
        code = fast_path(["mcp", "serve", *rest])
        if code is None:
            print("sap-devs: unknown option for the stdio transport; see `sap-devs mcp serve --help`.", file=sys.stderr)
            return 2
        return code
    from sap_devs.core.log import setup_logging

    setup_logging()
    from sap_devs.core.errors import SapDevsError

    try:
        from sap_devs.http.run import serve_http

        server, ctx, settings, args = build_http(argv)
        with contextlib.suppress(KeyboardInterrupt):
            return serve_http(server, ctx, settings, banner=args.banner, workers=args.workers, argv=argv)
    except SapDevsError as exc:
        print(f"sap-devs: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the port is taken, the address is not ours ...
        print(f"sap-devs: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)  # no banner
        return 2
    return 0
