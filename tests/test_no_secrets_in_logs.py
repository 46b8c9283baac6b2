"""No password, token, session cookie or CSRF token in any log line, at any level."""

from __future__ import annotations

import base64
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from sap_devs.adt.client import AdtClient
from sap_devs.adt.config import AdtConfig
from sap_devs.core.log import RedactingFilter, register_secret
from tests.fake_adt import FakeAdt
from tests.test_stdio_server import server_env

pytestmark = pytest.mark.anyio
PASSWORD = "L0g-S3cret-Pw!"


def secrets_of(adt: FakeAdt) -> list[str]:
    """The password in both forms it travels in, and every session cookie and CSRF token the system issued."""
    basic = base64.b64encode(f"{adt.user}:{PASSWORD}".encode()).decode()
    found = [PASSWORD, basic]
    for sid, token in adt.sessions.items():
        found += [f"SAP_SESSIONID_FAK_100={sid}", token]
    return found


async def test_adt_conversation_at_debug_logs_no_credentials(caplog) -> None:
    with FakeAdt(password=PASSWORD).running() as adt, caplog.at_level(logging.DEBUG):
        for name in ("httpx", "httpcore", "sap_devs"):  # whatever a user's own logging set-up asks for
            logging.getLogger(name).debug("logging at debug")
        config = AdtConfig(url=adt.url, client="100", user=adt.user, password=PASSWORD)
        async with AdtClient(config) as client:
            await client.request("GET", "/sap/bc/adt/system/information", accept="application/atom+xml")
            await client.request("POST", "/sap/bc/adt/checkruns", body="<x/>", content_type="application/xml")
        secrets = secrets_of(adt)
    assert adt.sessions, "the system issued a session cookie and a CSRF token"
    text = caplog.text + "".join(repr(r.__dict__) for r in caplog.records)
    for secret in secrets:
        assert secret not in text


def test_abap_cli_at_debug_prints_no_credentials(tmp_path: Path) -> None:
    with FakeAdt(password=PASSWORD).running() as adt:
        env = server_env(tmp_path)
        env.update(SAP_URL=adt.url, SAP_CLIENT="100", SAP_USER=adt.user, SAP_PASSWORD=PASSWORD)
        env["SAP_DEVS_LOG_LEVEL"] = "DEBUG"
        for var in ("SAP_DEVS_SYSTEM", "SAP_SERVICE_KEY", "SAP_BEARER_TOKEN"):
            env.pop(var, None)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "sap_devs",
                "tools",
                "call",
                "syntax_check",
                "--json",
                json.dumps({"kind": "class", "name": "ZCL_SAMPLE_CLASS", "source": "CLASS x. SYNTAX_ERROR"}),
            ],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        secrets = secrets_of(adt)
    assert adt.sessions and adt.checked, proc.stderr
    for secret in secrets:
        assert secret not in proc.stderr and secret not in proc.stdout


def test_our_log_handler_masks_headers_and_registered_secrets() -> None:
    register_secret("Reg1stered-T0ken")
    record = logging.LogRecord(
        "sap_devs.x",
        logging.DEBUG,
        __file__,
        1,
        "sending %s to %s",
        (
            {"Authorization": "Bearer abc.def.ghi", "Cookie": "MYSAPSSO2=xyz123", "x-csrf-token": "Q2sRf"},
            "token Reg1stered-T0ken",
        ),
        None,
    )
    RedactingFilter().filter(record)
    message = record.getMessage()
    for secret in ("abc.def.ghi", "xyz123", "Q2sRf", "Reg1stered-T0ken"):
        assert secret not in message
    assert "Authorization" in message and "sending" in message
