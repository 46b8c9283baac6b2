"""``sap-devs sync`` without a network, and ``--status`` before the first sync (issue 30)."""

from __future__ import annotations

import socket

import anyio
import pytest
from typer.testing import CliRunner

from sap_devs.cli.app import app
from sap_devs.core.http import FetchError, Http, Policy
from sap_devs.live.sources import all_sources


def test_offline_sync_says_once_per_source_what_stays_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, ["sync"])  # conftest makes every name lookup but loopback fail
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    sources = [s.name for s in all_sources()]
    assert len(lines) == len(sources) + 1, result.output
    for name in sources:
        assert sum(line.startswith(f"{name}: ") for line in lines) == 1
    assert "tutorials: not fetched (offline); the bundled snapshot stays in use" in lines
    assert "ConnectError" not in result.output and "Traceback" not in result.output
    assert "no network" in lines[-1] and "bundled snapshots" in lines[-1]


def test_status_before_any_sync_shows_the_bundled_snapshot_and_its_date() -> None:
    result = CliRunner().invoke(app, ["sync", "--status"])
    assert result.exit_code == 0, result.output
    tutorials = next(line for line in result.output.splitlines() if line.startswith("tutorials |"))
    assert "bundled" in tutorials and "absent" not in tutorials and "snapshot of 20" in tutorials
    released = next(line for line in result.output.splitlines() if line.startswith("released-apis |"))
    assert "bundled" in released and "items" in released
    learning = next(line for line in result.output.splitlines() if line.startswith("learning |"))
    assert "absent" in learning and "no snapshot is bundled" in learning


def test_a_name_that_does_not_resolve_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    lookups: list[object] = []
    real = socket.getaddrinfo

    def counting(host: object, *args: object, **kwargs: object) -> object:
        lookups.append(host if isinstance(host, bytes) else str(host).encode())
        return real(host, *args, **kwargs)  # conftest's resolver: fails for anything but loopback

    monkeypatch.setattr(socket, "getaddrinfo", counting)

    async def fetch() -> None:
        async with Http(Policy(allowed_hosts=frozenset({"example.invalid"}), retries=3, backoff=5.0)) as http:
            await http.get("https://example.invalid/x")

    with pytest.raises(FetchError) as caught:
        anyio.run(fetch)
    assert "ConnectError" in str(caught.value)
    # one lookup: three retries with a 5 s backoff would have taken 35 s
    assert [h for h in lookups if h == b"example.invalid"] == [b"example.invalid"]
