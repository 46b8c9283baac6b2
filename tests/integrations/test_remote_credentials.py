"""``mcp install --url``: no credential lands in a client's file except as an environment reference,
and no control character gets into any header or URL (issue 25, item 15)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import remote_entry
from sap_devs.integrations.remote_entry import check_url, parse_headers

TOKEN = "sdk_7Hq2LmP9xW4vR8tY3nB6cZ1a"  # a fake key of the shape sap-devs keys have
JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJkZXYifQ.c2lnbmF0dXJlLWZha2U"
URL = "https://sap-devs.example.com/mcp"


@pytest.mark.parametrize(
    "header",
    [
        f"X-Team-Access: Bearer {TOKEN}",  # a bearer token under a name that says nothing
        f"X-Team: {TOKEN}",
        f"X-Forwarded-Identity: {JWT}",
        "X-Signature: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",  # hex
        f"X-Team: Basic {TOKEN[:12]}",
    ],
)
def test_a_literal_credential_under_any_header_name_is_refused(header: str) -> None:
    with pytest.raises(SapDevsError, match="would be written into the client's file") as refused:
        parse_headers([header], None)
    assert TOKEN not in str(refused.value) and JWT not in str(refused.value)


def test_ordinary_values_and_environment_references_are_kept() -> None:
    for value in ("abap", "sap-devs-install-2026-12-01", "3f2a9c1e-7b4d-4e2a-9c1e-7b4d4e2a9c1e", "en-US"):
        assert not remote_entry.looks_secret(value), value
    assert parse_headers(["X-Team-Access: Bearer ${TEAM_TOKEN}"], None) == (("X-Team-Access", "Bearer ${TEAM_TOKEN}"),)
    assert parse_headers(["X-Release: sap-devs-install-2026-12-01"], None)


@pytest.mark.parametrize(
    "query", [f"?key={TOKEN}", "?api_key=abc", f"?access_token={TOKEN}", f"?x={TOKEN}", f"#token={TOKEN}"]
)
def test_a_credential_in_the_url_is_refused(query: str) -> None:
    with pytest.raises(SapDevsError, match="looks like a credential") as refused:
        check_url(URL + query, ())
    assert TOKEN not in str(refused.value)
    assert check_url(URL + "?profile=cap-developer", ()) == URL + "?profile=cap-developer"


@pytest.mark.parametrize("bad", ["\r\n", "\n", "\r", "\x00", "\x7f", "\u2028", "\x85"])
def test_control_characters_are_refused_in_header_values_and_urls(bad: str) -> None:
    with pytest.raises(SapDevsError, match="control character"):
        parse_headers([f"X-Team: abap{bad}X-Injected: 1"], None)
    with pytest.raises(SapDevsError, match="control character"):
        parse_headers([f"Authorization: Bearer ${{KEY}}{bad}Cookie: x"], None)
    with pytest.raises(SapDevsError, match="control character"):
        check_url(f"https://sap-devs.example.com/mcp{bad}x", ())


def test_the_cli_writes_none_of_them(env: dict[str, str], project: Path, home: Path) -> None:
    def install(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sap_devs", "mcp", "install", "-c", "cursor", "--url", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    for args in (
        (URL, "--header", f"X-Team-Access: Bearer {TOKEN}"),
        (f"{URL}?key={TOKEN}",),
        (URL, "--header", "X-Team: abap\r\nX-Evil: 1"),
    ):
        proc = install(*args)
        assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
        assert TOKEN not in proc.stdout + proc.stderr
    assert not (home / ".cursor" / "mcp.json").exists()
    done = install(URL, "--header", "X-Team-Access: Bearer ${TEAM_TOKEN}")
    assert done.returncode == 0, done.stderr
    entry = json.loads((home / ".cursor" / "mcp.json").read_text(encoding="utf-8"))["mcpServers"]["sap-devs"]
    assert entry["headers"] == {"X-Team-Access": "Bearer ${env:TEAM_TOKEN}"}
