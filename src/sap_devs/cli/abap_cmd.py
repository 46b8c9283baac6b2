"""``sap-devs abap``: test the connection to an ABAP system; sign in to and out of an SAP BTP ABAP environment."""

from __future__ import annotations

import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import typer

from sap_devs.cli.common import fail

if TYPE_CHECKING:
    from sap_devs.adt.config import AdtConfig

SHOWN_FACTS = (
    ("SAPSystemID", "System ID"),
    ("ApplicationServerName", "Application server"),
    ("KernelRelease", "Kernel release"),
    ("DBSystem", "Database"),
    ("DBRelease", "Database release"),
)

app = typer.Typer(help="Connect sap-devs to your ABAP system.", no_args_is_help=True)


def _wait_for_code(server: HTTPServer, state: str, timeout: float) -> str:
    result: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            ok = query.get("state", [""])[0] == state and "code" in query
            if ok:
                result["code"] = query["code"][0]
            elif "error" in query:
                result["error"] = query["error"][0]
            body = b"Signed in; you can close this window." if ok else b"Sign-in failed; see the terminal."
            self.send_response(200 if ok else 400)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server.RequestHandlerClass = Handler
    server.timeout = 1.0
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        while not result and not deadline.is_set():
            server.handle_request()
    finally:
        timer.cancel()
    if "code" not in result:
        raise fail(f"Sign-in did not complete: {result.get('error', 'timed out waiting for the browser')}.")
    return result["code"]


@app.command("login")
def login(
    service_key: str = typer.Option(
        None, "--service-key", envvar="SAP_SERVICE_KEY", help="Path of the ABAP environment service key (JSON)."
    ),
    port: int = typer.Option(0, "--port", help="Local port for the browser redirect (default: any free port)."),
    timeout: float = typer.Option(300.0, "--timeout", help="Seconds to wait for the browser sign-in."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Print the sign-in URL instead of opening it."),
) -> None:
    """Sign in with the browser (OAuth authorization code); the refresh token goes to the OS keyring."""
    import anyio

    from sap_devs.adt.btp import authorize_url, exchange_code, load_service_key, new_state, store_refresh_token
    from sap_devs.core.errors import SapDevsError

    if not service_key:
        raise fail("Pass --service-key PATH or set SAP_SERVICE_KEY to your ABAP environment service key.")
    try:
        key = load_service_key(service_key)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    server = HTTPServer(("127.0.0.1", port), BaseHTTPRequestHandler)
    redirect = f"http://localhost:{server.server_address[1]}/callback"
    state = new_state()
    url = authorize_url(key, redirect, state)
    typer.echo(f"Sign in to {key.url} in your browser:\n  {url}", err=True)
    if not no_browser and not os.environ.get("SAP_DEVS_NO_BROWSER"):
        import webbrowser

        webbrowser.open(url)
    try:
        code = _wait_for_code(server, state, timeout)
    finally:
        server.server_close()
    try:
        tokens = anyio.run(exchange_code, key, code, redirect)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    if not tokens.get("refresh_token"):
        raise fail("The sign-in returned no refresh token; set SAP_BEARER_TOKEN for this session instead.")
    where = store_refresh_token(key.account, tokens["refresh_token"])
    typer.echo(f"Signed in to {key.url}. Refresh token stored in {where}; `sap-devs mcp serve` will use it.")


@app.command("logout")
def logout(
    service_key: str = typer.Option(
        None, "--service-key", envvar="SAP_SERVICE_KEY", help="Path of the ABAP environment service key (JSON)."
    ),
) -> None:
    """Forget the stored refresh token for an SAP BTP ABAP environment."""
    from sap_devs.adt.btp import forget_refresh_token, load_service_key
    from sap_devs.core.errors import SapDevsError

    if not service_key:
        raise fail("Pass --service-key PATH or set SAP_SERVICE_KEY to your ABAP environment service key.")
    try:
        key = load_service_key(service_key)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    removed = forget_refresh_token(key.account)
    if removed:
        typer.echo(f"Signed out of {key.url}: removed the refresh token from {', '.join(removed)}.")
    else:
        typer.echo(f"No stored sign-in for {key.url}.")


@app.command("test")
def test_connection(
    system: str = typer.Option(
        None, "--system", envvar="SAP_DEVS_SYSTEM", help="Named system from systems.yaml (default: SAP_URL ...)."
    ),
) -> None:
    """Check the connection the server would use: credentials, client, and what ADT answers."""
    import anyio

    from sap_devs.adt.config import configured
    from sap_devs.core.errors import SapDevsError

    try:
        config = configured(system)
    except SapDevsError as exc:
        raise fail(str(exc)) from None
    if config is None:
        raise fail(
            "No SAP system configured: set SAP_URL (and SAP_USER/SAP_PASSWORD), SAP_SERVICE_KEY, or pass --system."
        )
    try:
        facts = anyio.run(_probe, config)
    except SapDevsError as exc:
        raise fail(f"{config.url}: {exc}", code=1) from None
    typer.echo(f"Connected to {config.url} (client {config.client or 'default'}, {config.system_type}).")
    for key, label in SHOWN_FACTS:
        if facts.get(key):
            typer.echo(f"  {label}: {facts[key]}")


async def _probe(config: AdtConfig) -> dict[str, str]:
    from sap_devs.adt.client import AdtClient
    from sap_devs.adt.system import system_facts

    async with AdtClient(config) as client:
        return await system_facts(client)
