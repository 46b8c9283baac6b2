"""Running the HTTP server with uvicorn until SIGINT/SIGTERM (in-flight requests are finished)."""

from __future__ import annotations

import logging
import sys
from typing import Any

from sap_devs.http.app import HttpSettings, build_app, setup_access_log

log = logging.getLogger(__name__)

MAX_HEADER_BYTES = 64 * 1024
GRACEFUL_SECONDS = 30
HTTP_PROTOCOL = "sap_devs.http.connections:GuardedH11Protocol"
"""An import string, not the class: ``--workers`` processes load it by name, and the stdio server
never imports uvicorn."""


def uvicorn_options(settings: HttpSettings) -> dict[str, Any]:
    return {
        "backlog": settings.connection_limits().backlog(),
        "host": settings.host,
        "port": settings.port,
        "log_level": "warning",
        "access_log": False,  # request lines are not logged by uvicorn; credentials never are
        "server_header": False,
        "proxy_headers": False,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        "timeout_keep_alive": 30,
        "lifespan": "on",
        "http": HTTP_PROTOCOL,
    }


def uvicorn_config(app: Any, settings: HttpSettings) -> Any:
    import uvicorn

    from sap_devs.http.connections import CONFIG_ATTRIBUTE

    config = uvicorn.Config(app, **uvicorn_options(settings))
    setattr(config, CONFIG_ATTRIBUTE, settings.connection_limits())
    return config


WORKER_ARGV = "SAP_DEVS_HTTP_WORKER_ARGV"
"""The command line, for the worker processes uvicorn starts with --workers (each builds its own server)."""


def worker_app() -> Any:
    """The ASGI app of one worker process (uvicorn's factory with --workers N)."""
    import json
    import os

    from sap_devs.cli.serve import build_http
    from sap_devs.http import connections

    server, ctx, settings, _ = build_http(json.loads(os.environ[WORKER_ARGV]))
    connections.worker_limits = settings.connection_limits()
    setup_access_log()
    return build_app(server, settings, ctx=ctx)


def serve_http(
    server: Any, ctx: Any, settings: HttpSettings, *, banner: str = "", workers: int = 1, argv: list[str] | None = None
) -> int:
    import anyio
    import uvicorn

    if settings.oidc is not None:  # a wrong issuer or JWKS URL is one clear line, before anything listens
        from sap_devs.http.issuer_discovery import discovery_problem
        from sap_devs.http.oidc import OidcVerifier

        anyio.run(OidcVerifier(settings.oidc).start)
        problem = anyio.run(discovery_problem, settings.oidc.issuer)
        if problem:  # tokens still verify; only clients that run the OAuth flow themselves are affected
            print(f"sap-devs: warning: {problem}", file=sys.stderr)
    note = settings.host_check_note()
    if note:
        print(f"sap-devs: warning: {note}", file=sys.stderr)
    check_bindable(settings.host, settings.port)  # the banner below must not announce a server that cannot start
    auth = ", ".join(
        name for name, on in (("API keys", settings.api_keys is not None), ("OIDC", settings.oidc is not None)) if on
    )
    plural = f", {workers} workers" if workers > 1 else ""
    print(
        f"sap-devs MCP server on http://{settings.host}:{settings.port}{settings.path} "
        f"(Streamable HTTP, stateless{banner}{plural}; authentication: {auth or 'none, loopback only'}). Ctrl+C stops it.",
        file=sys.stderr,
    )
    if workers > 1:
        import json
        import os

        os.environ[WORKER_ARGV] = json.dumps(argv or [])
        uvicorn.run(f"{__name__}:worker_app", factory=True, workers=workers, **uvicorn_options(settings))
        return 0
    setup_access_log()
    http_server = uvicorn.Server(uvicorn_config(build_app(server, settings, ctx=ctx), settings))
    http_server.run()
    return 0 if http_server.started else 1


def check_bindable(host: str, port: int) -> None:
    """OSError (with a message that says what to do) when ``host:port`` cannot be listened on, e.g. another
    server holds the port. Bound and closed again at once, with the address reuse uvicorn itself sets."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise OSError(f"{host} is not an address of this machine ({exc.strerror or exc}); use --host") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            hint = "use --port to pick another, or stop the server on it" if port else "use --port"
            raise OSError(f"{exc.strerror or exc}; {hint}") from None


# the project tools read paths on the server's own disk: a team server must not compile, lint or read them
LOCAL_ONLY_TOOLS = frozenset(
    {"check_project", "check_tools", "search_cds_model", "check_cds", "run_ui5_linter", "check_abap_code"}
)
"""Tools that inspect the machine the server runs on (its folders, its installed tools): meaningful
for a developer's own stdio server, not for a team server whose callers are elsewhere."""


def open_http_session(
    profile: str | None, environment: str | None, cwd: Any, *, abap: bool = False, abap_writes: bool = False
) -> tuple[Any, Any]:
    """The registry and tool context for the HTTP server: the knowledge tools, and the ABAP tools
    only when ``abap`` is on.

    The server's own SAP credentials would be shared with every caller, so with ``abap`` the
    system (SAP_URL, SAP_CLIENT ...) is fixed here and each request brings its caller's logon in
    X-SAP-Authorization. Writes need ``abap_writes`` as well: SAP_DEVS_ADT_WRITE in the server's
    environment does not turn them on, so a developer's shell setting cannot open a team server."""
    import os

    from sap_devs.adt.config import AdtConfig
    from sap_devs.adt.safety import SafetyPolicy
    from sap_devs.core.errors import SapDevsError
    from sap_devs.knowledge.layer_paths import default_layers
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry

    if abap_writes and not abap:
        raise SapDevsError("--abap-writes needs --abap (ABAP tools over HTTP are off).")
    config = AdtConfig.for_http_server() if abap else None
    server_env = {k: v for k, v in os.environ.items() if k != "SAP_DEVS_ADT_WRITE"}
    policy = SafetyPolicy.from_env(server_env, allow_writes=abap_writes) if abap else SafetyPolicy.from_env({})
    env = environment or (config.system_type if config else os.environ.get("SAP_SYSTEM_TYPE", "onprem"))
    gates = {
        "system": abap,
        "writes": policy.writes,
        "data": policy.data,
        "transports": policy.transports,
        "execute": policy.execute,
    }
    full = Registry.default(environment=env, **gates)
    registry = Registry([t for t in full if t.name not in LOCAL_ONLY_TOOLS], environment=env, **gates)
    ctx = ToolContext(
        cwd=cwd,
        profile_id=profile,
        environment=env,  # type: ignore[arg-type]
        layers=default_layers(cwd),
        adt_config=config,
        safety=policy,
        registry=registry,
    )
    return registry, ctx
