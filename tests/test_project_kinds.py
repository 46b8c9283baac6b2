"""Tools for one kind of project are listed where that kind is detected at start (issue 27, item 8)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from sap_devs.mcp.project_kinds import detect_kinds
from sap_devs.mcp.registry import Registry, discover
from tests.conftest import write_files

CORPUS = Path(__file__).parent / "fixtures" / "projects"


def test_detection_of_the_corpus_projects() -> None:
    assert detect_kinds(CORPUS / "cap-sflight") == {"cap", "ui5"}  # app/*/webapp holds Fiori apps
    assert detect_kinds(CORPUS / "cloud-cap-samples-java") >= {"cap"}
    assert detect_kinds(CORPUS / "ui5-typescript-helloworld") == {"ui5"}
    assert detect_kinds(CORPUS / "abap-cheat-sheets") == {"abap"}


def test_detection_of_nothing_and_of_broken_files(tmp_path: Path) -> None:
    assert detect_kinds(tmp_path) == frozenset()
    assert detect_kinds(tmp_path / "missing") == frozenset()
    write_files(tmp_path / "broken", {"package.json": "{not json", "pom.xml": "<project/>"})
    assert detect_kinds(tmp_path / "broken") == frozenset()
    big = tmp_path / "big"
    big.mkdir()
    (big / "package.json").write_text(json.dumps({"dependencies": {"@sap/cds": "^10"}, "pad": "x" * (2 << 20)}))
    assert detect_kinds(big) == frozenset()  # not read: larger than any real package.json


def _with_kinds(kinds: dict[str, frozenset[str]]) -> list:
    tools = discover()
    return [dataclasses.replace(t, project_kinds=kinds[t.name]) if t.name in kinds else t for t in tools]


def test_a_tool_for_cap_projects_is_listed_only_in_one_but_callable_everywhere() -> None:
    tools = _with_kinds({"get_samples": frozenset({"cap"})})
    for kinds, listed in ((frozenset({"cap"}), True), (frozenset({"ui5"}), False), (frozenset(), False), (None, True)):
        registry = Registry(tools, project_kinds=kinds)
        assert ("get_samples" in {t.name for t in registry.listed("full")}) is listed, kinds
        assert registry.get("get_samples") is not None  # reachable through call_tool and `tools call`
        assert "get_samples" in {t.name for t in registry.operations()}  # and found by search_tools


def test_a_configured_abap_system_lists_the_abap_code_check(tmp_path, monkeypatch) -> None:
    from sap_devs.mcp.session import open_session

    monkeypatch.delenv("SAP_URL", raising=False)
    registry, _ = open_session(cwd=tmp_path, project_kinds=frozenset())
    assert "check_abap_code" not in {t.name for t in registry.listed("full")}
    monkeypatch.setenv("SAP_URL", "https://abap.example.com")
    monkeypatch.setenv("SAP_USER", "DEVELOPER")
    monkeypatch.setenv("SAP_PASSWORD", "secret")
    registry, _ = open_session(cwd=tmp_path, project_kinds=frozenset())
    assert "check_abap_code" in {t.name for t in registry.listed("full")}
