"""What the environment switches allow on an ABAP system: writes, packages, transports, data, other clients."""

from __future__ import annotations

import pytest

from sap_devs.adt.safety import PolicyError, SafetyPolicy, is_local


@pytest.mark.parametrize("value", ["0", "false", "False", "no", "NO", "off", "", " ", "2", "enable", "y"])
def test_anything_but_a_clear_yes_keeps_writes_off(value: str) -> None:
    policy = SafetyPolicy.from_env({"SAP_DEVS_ADT_WRITE": value})
    assert policy.writes is False
    with pytest.raises(PolicyError, match="ABAP writes are off"):
        policy.check_write("$TMP", "ZTEST")


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "yes", "Yes", "on", " 1 ", "true\n"])
def test_a_clear_yes_enables_writes(value: str) -> None:
    policy = SafetyPolicy.from_env({"SAP_DEVS_ADT_WRITE": value})
    assert policy.writes is True
    policy.check_write("$TMP", "ZTEST")


def test_nothing_set_means_read_only_and_the_default_packages() -> None:
    policy = SafetyPolicy.from_env({})
    assert (policy.writes, policy.transports, policy.data, policy.cross_client) == (False, False, False, False)
    assert policy.packages == ("$TMP", "Z*")
    assert SafetyPolicy.from_env({}, allow_writes=True).writes is True, "--allow-writes is the other way in"


@pytest.mark.parametrize(
    ("value", "packages"),
    [
        ("ZSALES", ("ZSALES",)),
        (" zsales , $tmp ,Y* ", ("ZSALES", "$TMP", "Y*")),
        ("ZA,,ZB,", ("ZA", "ZB")),
        ("/dmo/*", ("/DMO/*",)),
        ("", ("$TMP", "Z*")),
        (" , ,", ("$TMP", "Z*")),
    ],
)
def test_package_list_parsing(value: str, packages: tuple[str, ...]) -> None:
    assert SafetyPolicy.from_env({"SAP_DEVS_ADT_PACKAGES": value}).packages == packages


@pytest.mark.parametrize(
    ("package", "allowed"),
    [
        ("$TMP", True),
        ("$tmp", True),
        ("ZSALES", True),
        ("zsales", True),
        ("$ZSALES", False),
        ("$TMP_OTHER", False),
        ("$", False),
        ("SAP_BASIS", False),
        ("/DMO/FLIGHT", False),
        ("YSALES", False),
        ("", False),
    ],
)
def test_default_packages_allow_tmp_and_z_only(package: str, allowed: bool) -> None:
    assert SafetyPolicy.from_env({"SAP_DEVS_ADT_WRITE": "1"}).package_allowed(package) is allowed


def test_patterns_given_in_lower_case_still_match() -> None:
    assert SafetyPolicy(writes=True, packages=("z*", "$tmp")).package_allowed("ZSALES")
    assert SafetyPolicy(writes=True, packages=("z*", "$tmp")).package_allowed("$TMP")


def test_check_write_names_the_package_and_how_to_allow_it() -> None:
    policy = SafetyPolicy.from_env({"SAP_DEVS_ADT_WRITE": "1"})
    with pytest.raises(PolicyError) as caught:
        policy.check_write("$OTHER", "ZREPORT")
    assert "package $OTHER is not in the allowed packages ($TMP, Z*)" in str(caught.value)
    assert "SAP_DEVS_ADT_PACKAGES" in str(caught.value)
    with pytest.raises(PolicyError, match="could not be determined"):
        policy.check_write(None, "ZREPORT")


@pytest.mark.parametrize(
    ("env", "allow_writes", "granted"),
    [
        ({"SAP_DEVS_ADT_TRANSPORTS": "1"}, False, False),
        ({"SAP_DEVS_ADT_TRANSPORTS": "1", "SAP_DEVS_ADT_WRITE": "0"}, False, False),
        ({"SAP_DEVS_ADT_TRANSPORTS": "true", "SAP_DEVS_ADT_WRITE": "no"}, False, False),
        ({"SAP_DEVS_ADT_WRITE": "1"}, False, False),
        ({"SAP_DEVS_ADT_WRITE": "1", "SAP_DEVS_ADT_TRANSPORTS": "0"}, False, False),
        ({"SAP_DEVS_ADT_WRITE": "1", "SAP_DEVS_ADT_TRANSPORTS": "1"}, False, True),
        ({"SAP_DEVS_ADT_TRANSPORTS": "yes"}, True, True),
    ],
)
def test_transports_are_never_granted_without_writes(env: dict[str, str], allow_writes: bool, granted: bool) -> None:
    policy = SafetyPolicy.from_env(env, allow_writes=allow_writes)
    if granted:
        policy.check_transports("Creating a transport request")
    else:
        with pytest.raises(PolicyError, match="Creating a transport request is refused") as caught:
            policy.check_transports("Creating a transport request")
        assert "--allow-writes and SAP_DEVS_ADT_TRANSPORTS=1" in str(caught.value)


@pytest.mark.parametrize(("value", "on"), [("1", True), ("yes", True), ("0", False), ("", False), ("false", False)])
def test_data_and_cross_client_switches(value: str, on: bool) -> None:
    assert SafetyPolicy.from_env({"SAP_DEVS_ADT_DATA": value}).data is on
    assert SafetyPolicy.from_env({"SAP_DEVS_ADT_CROSS_CLIENT": value}).cross_client is on


def test_only_dollar_packages_are_local() -> None:
    assert is_local("$TMP") and is_local("$ZSALES")
    assert not is_local("ZSALES") and not is_local("TMP")
