"""Running code on an ABAP system (run_console_class) is its own opt-in: the tool is listed only when
SAP_DEVS_ADT_EXECUTE is on together with writes, in the registry the stdio server, the Python API
and the team HTTP server build alike, and the policy is checked again when the tool is called."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.mcp.registry import Registry, discover

ALL = discover()
TOOL = "run_console_class"
SYSTEM = {"SAP_URL": "http://127.0.0.1:9", "SAP_USER": "DEVELOPER", "SAP_PASSWORD": "S3cret-Passw0rd!"}
SWITCHES = ("SAP_DEVS_ADT_WRITE", "SAP_DEVS_ADT_EXECUTE", "SAP_DEVS_ADT_DATA", "SAP_DEVS_ADT_TRANSPORTS")


@pytest.fixture
def system(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (*SWITCHES, "SAP_DEVS_SYSTEM", "SAP_SERVICE_KEY", "SAP_SYSTEM_TYPE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in SYSTEM.items():
        monkeypatch.setenv(name, value)
    return monkeypatch


@pytest.mark.parametrize("environment", ["onprem", "cloud"])
def test_the_console_class_tool_is_registered_only_with_writes_and_the_execute_switch(environment: str) -> None:
    def names(**gates: bool) -> list[str]:
        return Registry(ALL, environment=environment, system=True, **gates).names()

    assert TOOL not in names(writes=True), "writes alone do not let code run"
    assert TOOL not in names(execute=True), "the switch without writes does not either"
    assert TOOL not in names(writes=True, data=True, transports=True), "nor the other opt-ins"
    assert TOOL in names(writes=True, execute=True)
    assert TOOL not in Registry(ALL, environment="legacy", system=True, writes=True, execute=True).names()


def test_the_session_reads_the_switch_from_the_environment(system: pytest.MonkeyPatch) -> None:
    from sap_devs.mcp.session import open_session

    registry, _ = open_session(allow_writes=True)
    assert TOOL not in registry.names() and "write_source" in registry.names()
    system.setenv("SAP_DEVS_ADT_EXECUTE", "1")
    registry, ctx = open_session(allow_writes=True)
    assert TOOL in registry.names() and ctx.safety.execute is True
    registry, _ = open_session()  # the switch without writes
    assert TOOL not in registry.names()


def test_the_team_server_lists_it_only_with_abap_writes_and_the_switch(
    system: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from sap_devs.http.run import open_http_session

    for name in ("SAP_USER", "SAP_PASSWORD"):
        system.delenv(name)  # a team server holds no credentials of its own
    registry, _ = open_http_session(None, None, tmp_path, abap=True, abap_writes=True)
    assert TOOL not in registry.names() and "write_source" in registry.names()
    system.setenv("SAP_DEVS_ADT_EXECUTE", "1")
    registry, _ = open_http_session(None, None, tmp_path, abap=True)
    assert TOOL not in registry.names(), "no writes on the team server: no code runs either"
    registry, ctx = open_http_session(None, None, tmp_path, abap=True, abap_writes=True)
    assert TOOL in registry.names() and ctx.safety.execute is True


def test_the_docs_mark_the_tool_and_name_the_switch() -> None:
    from sap_devs.mcp.docs import render_tools_markdown

    text = render_tools_markdown(ALL)
    assert f"| `{TOOL}` ‡ |" in text and "marked ‡, also `SAP_DEVS_ADT_EXECUTE=1`" in text
