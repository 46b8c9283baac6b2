"""ABAP system settings: every mistake is one clear AdtConfigError, never a traceback."""

from __future__ import annotations

import pytest

from sap_devs.adt.client import AdtClient
from sap_devs.adt.config import AdtConfigError, configured, deferred_errors
from sap_devs.core import paths

BASE = {"SAP_URL": "https://my-s4.example:44300", "SAP_USER": "DEV", "SAP_PASSWORD": "pw"}


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"SAP_TIMEOUT": "abc"}, "SAP_TIMEOUT must be a positive number"),
        ({"SAP_TIMEOUT": "nan"}, "SAP_TIMEOUT must be a positive number"),
        ({"SAP_TIMEOUT": "-5"}, "SAP_TIMEOUT must be a positive number"),
        ({"SAP_URL": "https://my-s4.example:99999"}, "Port out of range"),
        ({"SAP_URL": "https://my-s4.example:port"}, "is not a valid URL"),
        ({"SAP_URL": "https://my-s4.example:"}, "no usable port"),
        ({"SAP_URL": "https://my_s4 example"}, "invalid host name"),
        ({"SAP_CLIENT": "10"}, "three-digit client number"),
        ({"SAP_PASSWORD": ""}, "no credentials"),
    ],
)
def test_bad_settings_are_clear_errors(settings: dict[str, str], says: str) -> None:
    with pytest.raises(AdtConfigError, match=says):
        configured(None, {**BASE, **settings})


def test_good_settings_still_work() -> None:
    config = configured(None, {**BASE, "SAP_TIMEOUT": "90", "SAP_CLIENT": "100", "SAP_URL": "https://[::1]:44300/x"})
    assert config is not None and config.timeout == 90 and config.url == "https://[::1]:44300"


def test_deferred_errors_give_an_unusable_system_whose_client_says_what_to_fix() -> None:
    with deferred_errors():
        config = configured(None, {"SAP_URL": "https://my-s4.example"})
    assert config is not None and config.problem is not None
    with pytest.raises(AdtConfigError, match="cannot be used: SAP_URL is set but no credentials"):
        AdtClient(config)
    with pytest.raises(AdtConfigError):  # outside the block the error is raised as before
        configured(None, {"SAP_URL": "https://my-s4.example"})


def test_an_alias_bomb_in_systems_yaml_is_refused() -> None:
    folder = paths.config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    layers = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        layers.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 10) + "]")
    (folder / "systems.yaml").write_text("\n".join(layers) + "\ndev: {url: 'https://h', boom: *i}\n")
    with pytest.raises(AdtConfigError, match=r"systems\.yaml is refused"):
        configured("dev", {})
