"""SAP BTP ABAP environment: service key, browser sign-in, refresh tokens, and ADT calls with them.

A loopback server plays XSUAA (``/oauth/token``); a thread plays the browser following the redirect.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import threading
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from typer.testing import CliRunner

from sap_devs.adt import btp
from sap_devs.adt.client import AdtClient
from sap_devs.adt.config import AdtConfig, AdtConfigError
from sap_devs.cli.app import app
from tests.fake_adt import FakeAdt
from tests.loopback import Loopback

CLIENT_SECRET = "uaa-client-s3cret"


@pytest.fixture(autouse=True)
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real OS keyring: tokens go to the private file fallback."""
    monkeypatch.setitem(sys.modules, "keyring", None)


@pytest.fixture
def uaa():
    with Loopback().running() as server:
        yield server


def write_key(tmp_path: Path, uaa_url: str, system_url: str) -> Path:
    path = tmp_path / "service-key.json"
    key = {
        "url": system_url,
        "uaa": {"url": uaa_url, "clientid": "sb-abap-trial", "clientsecret": CLIENT_SECRET},
        "binding": {"env": "cf", "type": "oauth"},
    }
    path.write_text(json.dumps(key), encoding="utf-8")
    return path


def token_answer(access: str, refresh: str | None = None) -> bytes:
    body = {"access_token": access, "token_type": "bearer", "expires_in": 43199}
    if refresh:
        body["refresh_token"] = refresh
    return json.dumps(body).encode()


def forms(server: Loopback) -> list[dict[str, str]]:
    return [
        {k: v[0] for k, v in parse_qs(r.body.decode()).items()} for r in server.requests if r.path == "/oauth/token"
    ]


def test_service_key_errors_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(AdtConfigError, match="does not exist"):
        btp.load_service_key(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(AdtConfigError, match="not valid JSON"):
        btp.load_service_key(bad)
    bad.write_text(json.dumps({"url": "https://x.abap.eu10.hana.ondemand.com"}), encoding="utf-8")
    with pytest.raises(AdtConfigError, match=r"uaa\.url/clientid/clientsecret"):
        btp.load_service_key(bad)


def test_service_key_alone_configures_a_cloud_system(tmp_path: Path) -> None:
    key = write_key(
        tmp_path, "https://trial.authentication.us10.hana.ondemand.com", "https://abc.abap.us10.hana.ondemand.com"
    )
    config = AdtConfig.from_env({"SAP_SERVICE_KEY": str(key)})
    assert config is not None
    assert config.url == "https://abc.abap.us10.hana.ondemand.com"
    assert config.system_type == "cloud"
    assert CLIENT_SECRET not in repr(config) and CLIENT_SECRET not in repr(btp.load_service_key(key))


def test_refresh_token_file_is_private_and_survives_reload(tmp_path: Path) -> None:
    where = btp.store_refresh_token("btp:abc.example", "rt-one")
    path = Path(where)
    assert path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert btp.load_refresh_token("btp:abc.example") == "rt-one"
    assert btp.load_refresh_token("btp:other.example") is None


posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are a POSIX notion")


@posix_only
def test_token_file_is_private_from_its_first_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even with a permissive umask the secret is never readable by others, not even before a chmod."""
    seen: list[int] = []
    real_replace = os.replace

    def watching_replace(src, dst):  # the moment the token is complete but not yet in place
        seen.append(stat.S_IMODE(os.stat(src).st_mode))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", watching_replace)
    old_umask = os.umask(0)
    try:
        where = Path(btp.store_refresh_token("btp:abc.example", "rt-secret"))
    finally:
        os.umask(old_umask)
    assert seen == [0o600]
    assert stat.S_IMODE(where.stat().st_mode) == 0o600
    assert stat.S_IMODE(where.parent.stat().st_mode) == 0o700
    assert [p.name for p in where.parent.iterdir()] == [where.name], "no temporary file left behind"


@posix_only
def test_existing_token_folder_and_file_are_tightened() -> None:
    from sap_devs.core import paths

    folder = paths.config_dir() / "tokens"
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    old = folder / "btp_abc.example.json"
    old.write_text('{"refresh_token": "rt-old"}', encoding="utf-8")
    old.chmod(0o644)
    where = Path(btp.store_refresh_token("btp:abc.example", "rt-new"))
    assert where == old
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(where.stat().st_mode) == 0o600
    assert btp.load_refresh_token("btp:abc.example") == "rt-new"


@posix_only
def test_a_symlinked_token_folder_is_refused(tmp_path: Path) -> None:
    from sap_devs.core import paths

    elsewhere = tmp_path / "shared"
    elsewhere.mkdir(mode=0o755)
    paths.config_dir().mkdir(parents=True, exist_ok=True)
    (paths.config_dir() / "tokens").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(AdtConfigError, match="not a plain folder"):
        btp.store_refresh_token("btp:abc.example", "rt-secret")
    assert list(elsewhere.iterdir()) == [] and stat.S_IMODE(elsewhere.stat().st_mode) == 0o755


@pytest.mark.anyio
async def test_adt_calls_use_a_refreshed_token_and_store_the_rotated_one(tmp_path: Path, uaa: Loopback) -> None:
    with FakeAdt().running() as adt:
        adt.bearer_tokens = {"access-1"}
        key_path = write_key(tmp_path, uaa.base, adt.url)
        key = btp.load_service_key(key_path)
        btp.store_refresh_token(key.account, "refresh-1")
        uaa.add(
            "/oauth/token", body=token_answer("access-1", "refresh-2"), headers={"Content-Type": "application/json"}
        )
        config = AdtConfig.from_env({"SAP_SERVICE_KEY": str(key_path), "SAP_CLIENT": "100"})
        assert config is not None
        client = AdtClient(config)
        try:
            response = await client.request(
                "GET",
                "/sap/bc/adt/repository/informationsystem/search",
                params={"operation": "quickSearch", "query": "Z*", "maxResults": "5"},
            )
        finally:
            await client.aclose()
        assert response.status == 200
        sent = forms(uaa)
        assert sent == [{"grant_type": "refresh_token", "refresh_token": "refresh-1"}]
        assert uaa.requests[0].headers["Authorization"].startswith("Basic ")
        assert btp.load_refresh_token(key.account) == "refresh-2"


@pytest.mark.anyio
async def test_expired_access_token_is_refreshed_once(tmp_path: Path, uaa: Loopback) -> None:
    with FakeAdt().running() as adt:
        adt.bearer_tokens = {"access-2"}
        key_path = write_key(tmp_path, uaa.base, adt.url)
        btp.store_refresh_token(btp.load_service_key(key_path).account, "refresh-1")
        uaa.add("/oauth/token", body=token_answer("access-1"), headers={"Content-Type": "application/json"}, times=1)
        uaa.add("/oauth/token", body=token_answer("access-2"), headers={"Content-Type": "application/json"})
        config = AdtConfig.from_env({"SAP_SERVICE_KEY": str(key_path), "SAP_CLIENT": "100"})
        assert config is not None
        client = AdtClient(config)
        try:
            response = await client.request(
                "GET",
                "/sap/bc/adt/repository/informationsystem/search",
                params={"operation": "quickSearch", "query": "Z*", "maxResults": "5"},
            )
        finally:
            await client.aclose()
        assert response.status == 200
        assert len(forms(uaa)) == 2


@pytest.mark.anyio
async def test_not_signed_in_says_to_run_login(tmp_path: Path, uaa: Loopback) -> None:
    key_path = write_key(tmp_path, uaa.base, "http://127.0.0.1:9")
    config = AdtConfig.from_env({"SAP_SERVICE_KEY": str(key_path)})
    assert config is not None
    client = AdtClient(config)
    try:
        with pytest.raises(AdtConfigError) as info:
            await client.request("GET", "/sap/bc/adt/discovery")
    finally:
        await client.aclose()
    assert "Not signed in" in str(info.value) and "sap-devs abap login" in (info.value.hint or "")
    assert uaa.requests == []


def _browser(redirect_to: dict[str, str] | None = None):
    """A stand-in for webbrowser.open: follows the sign-in URL's redirect back to the local callback."""

    def open_url(url: str) -> bool:
        query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        answer = {"code": "auth-code-123", "state": query["state"], **(redirect_to or {})}
        target = query["redirect_uri"] + "?" + "&".join(f"{k}={v}" for k, v in answer.items())

        def hit() -> None:
            with contextlib.suppress(OSError):  # a 400 page for a wrong state is expected in that test
                urllib.request.urlopen(target.replace("localhost", "127.0.0.1"), timeout=5).read()

        threading.Thread(target=hit, daemon=True).start()
        return True

    return open_url


def test_login_stores_the_refresh_token_and_never_prints_tokens(
    tmp_path: Path, uaa: Loopback, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_path = write_key(tmp_path, uaa.base, "https://abc.abap.us10.hana.ondemand.com")
    uaa.add(
        "/oauth/token", body=token_answer("access-xyz", "refresh-xyz"), headers={"Content-Type": "application/json"}
    )
    monkeypatch.setattr("webbrowser.open", _browser())
    result = CliRunner().invoke(app, ["abap", "login", "--service-key", str(key_path), "--timeout", "10"])
    assert result.exit_code == 0, result.output
    assert "Signed in to https://abc.abap.us10.hana.ondemand.com" in result.output
    for secret in ("access-xyz", "refresh-xyz", CLIENT_SECRET, "auth-code-123"):
        assert secret not in result.output
    [form] = forms(uaa)
    assert form["grant_type"] == "authorization_code" and form["code"] == "auth-code-123"
    assert form["redirect_uri"].startswith("http://localhost:")
    assert btp.load_refresh_token(btp.load_service_key(key_path).account) == "refresh-xyz"


def test_login_rejects_a_callback_with_the_wrong_state(
    tmp_path: Path, uaa: Loopback, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_path = write_key(tmp_path, uaa.base, "https://abc.abap.us10.hana.ondemand.com")
    monkeypatch.setattr("webbrowser.open", _browser({"state": "forged"}))
    result = CliRunner().invoke(app, ["abap", "login", "--service-key", str(key_path), "--timeout", "2"])
    assert result.exit_code != 0
    assert "Sign-in did not complete" in result.output
    assert forms(uaa) == []


def test_login_without_a_service_key_explains(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SAP_SERVICE_KEY", raising=False)
    result = CliRunner().invoke(app, ["abap", "login"])
    assert result.exit_code != 0
    assert "--service-key" in result.output


def test_named_system_can_point_at_a_service_key(tmp_path: Path) -> None:
    from sap_devs.adt.config import configured
    from sap_devs.core import paths

    key = write_key(
        tmp_path, "https://t.authentication.eu10.hana.ondemand.com", "https://abc.abap.eu10.hana.ondemand.com"
    )
    systems = paths.config_dir() / "systems.yaml"
    systems.parent.mkdir(parents=True, exist_ok=True)
    systems.write_text(f"systems:\n  trial:\n    service_key: {key}\n", encoding="utf-8")
    config = configured("trial", {})
    assert (config.url, config.system_type, config.service_key) == (
        "https://abc.abap.eu10.hana.ondemand.com",
        "cloud",
        str(key),
    )


def test_logout_removes_the_stored_token(tmp_path: Path) -> None:
    key_path = write_key(
        tmp_path, "https://t.authentication.eu10.hana.ondemand.com", "https://abc.abap.eu10.hana.ondemand.com"
    )
    account = btp.load_service_key(key_path).account
    btp.store_refresh_token(account, "refresh-old")
    first = CliRunner().invoke(app, ["abap", "logout", "--service-key", str(key_path)])
    assert first.exit_code == 0 and "removed the refresh token" in first.output
    assert btp.load_refresh_token(account) is None
    again = CliRunner().invoke(app, ["abap", "logout", "--service-key", str(key_path)])
    assert again.exit_code == 0 and "No stored sign-in" in again.output


def test_abap_test_reports_the_system_or_the_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    password = "Ping-S3cret!"
    with FakeAdt(password=password).running() as adt:
        for var, value in {"SAP_URL": adt.url, "SAP_CLIENT": "100", "SAP_USER": "DEVELOPER"}.items():
            monkeypatch.setenv(var, value)
        monkeypatch.setenv("SAP_PASSWORD", password)
        ok = CliRunner().invoke(app, ["abap", "test"])
        assert ok.exit_code == 0, ok.output
        assert f"Connected to {adt.url} (client 100, onprem)" in ok.output and "Kernel release:" in ok.output
        monkeypatch.setenv("SAP_PASSWORD", "wrong-password")
        bad = CliRunner().invoke(app, ["abap", "test"])
        assert bad.exit_code == 1 and "SAP_USER" in bad.output and "wrong-password" not in bad.output
    monkeypatch.delenv("SAP_URL")
    none = CliRunner().invoke(app, ["abap", "test"])
    assert none.exit_code == 2 and "No SAP system configured" in none.output
