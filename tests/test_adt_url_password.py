"""A password inside SAP_URL never reaches stderr or an ABAP tool result, whatever else is wrong with
the URL (issue 25, item 13): the error names the problem with the user part shown as ***."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sap_devs.adt.client import AdtClient
from sap_devs.adt.config import AdtConfigError, configured, deferred_errors

SECRET = "Pa55-SECRET-w0rd"
BASE = {"SAP_USER": "DEV", "SAP_PASSWORD": "pw"}
URLS = [
    f"ftp://DEVELOPER:{SECRET}@my-s4.example:44300",  # wrong scheme
    f"https://DEVELOPER:{SECRET}@my-s4.example:99999",  # port out of range
    f"https://DEVELOPER:{SECRET}@my-s4.example:port",  # port not a number
    f"https://DEVELOPER:{SECRET}@my_s4 example",  # bad host
    f"https://DEVELOPER:{SECRET}@[::1",  # broken brackets
    f"https://DEVELOPER:{SECRET}@my-s4.example:",  # no port after the colon
    f"https://DEVELOPER:Pa55/{SECRET}@my-s4.example:44300",  # a slash in the password: the rest looks like a path
    f"https://DEVELOPER:Pa55?{SECRET}@my-s4.example:44300",  # a question mark: the rest looks like a query
    f"https://DEVELOPER:Pa55#{SECRET}@my-s4.example",  # a hash: the rest looks like a fragment
    f"DEVELOPER:{SECRET}@my-s4.example:44300",  # no scheme at all
    f"https://DEVELOPER:{SECRET}@my-s4.example:44300",  # nothing else wrong
]


@pytest.mark.parametrize("url", URLS)
def test_the_password_is_in_no_error_text(url: str) -> None:
    with pytest.raises(AdtConfigError) as refused:
        configured(None, {**BASE, "SAP_URL": url})
    said = f"{refused.value} {refused.value.hint or ''}"
    assert "SECRET" not in said, said
    with deferred_errors():
        config = configured(None, {**BASE, "SAP_URL": url})
    if config is not None and config.problem is not None:
        with pytest.raises(AdtConfigError) as tool_error:  # what every ABAP tool answers with
            AdtClient(config)
        assert "SECRET" not in str(tool_error.value)


def test_the_error_still_says_what_is_wrong() -> None:
    with pytest.raises(AdtConfigError, match="must not contain a user or password"):
        configured(None, {**BASE, "SAP_URL": f"ftp://DEVELOPER:{SECRET}@my-s4.example:44300"})
    with pytest.raises(AdtConfigError, match=r"its port is not a number"):
        configured(None, {**BASE, "SAP_URL": f"https://DEVELOPER:Pa55/{SECRET}@my-s4.example"})
    with pytest.raises(AdtConfigError, match=r"'https://\*\*\*@my-s4.example:99999' is not a valid URL \(Port out"):
        configured(None, {**BASE, "SAP_URL": f"https://DEVELOPER:{SECRET}@my-s4.example:99999"})
    with pytest.raises(AdtConfigError, match="must not contain a user or password"):
        configured(None, {**BASE, "SAP_URL": f"https://DEVELOPER:{SECRET}@my-s4.example:44300"})


def test_the_server_start_up_line_on_stderr_has_no_password(tmp_path: Path) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("SAP_", "SAP_DEVS_"))}
    env.update(
        SAP_URL=f"ftp://DEVELOPER:{SECRET}@my-s4.example:99999",
        SAP_USER="DEV",
        SAP_PASSWORD="pw",
        SAP_DEVS_CONFIG_DIR=str(tmp_path / "config"),
        SAP_DEVS_CACHE_DIR=str(tmp_path / "cache"),
        SAP_DEVS_DATA_DIR=str(tmp_path / "data"),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "sap_devs", "mcp", "serve"],
        cwd=tmp_path,
        env=env,
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "ABAP tools unavailable" in proc.stderr, proc.stderr
    assert "SECRET" not in proc.stderr + proc.stdout
