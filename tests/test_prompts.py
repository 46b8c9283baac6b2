"""MCP prompts through the SDK's own client, in both protocol eras: list, get, refusals, completion,
and prompts that packs add (content only, with their origin) under the trust rules."""

from __future__ import annotations

import re
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sap_devs.knowledge.layer_paths import Layer
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.prompts import Catalog, discover
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer, write_files

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]
REGISTRY = Registry.default()
BUILTIN = ["abap-cloud-readiness", "explain-sap-concept", "fix-error", "review-project", "start-project"]

VALID: dict[str, dict[str, str]] = {
    "fix-error": {"message": "SQL error 258: insufficient privilege: Not authorized", "pack": "cap"},
    "review-project": {"path": "/tmp/project", "profile": "cap-developer"},
    "explain-sap-concept": {"topic": "CDS associations", "product": "cap", "depth": "full"},
    "abap-cloud-readiness": {"objects": "mara, BAPI_PO_CREATE1\n/DMO/FLIGHT", "target": "private"},
    "start-project": {"kind": "abap-rap", "name": "travel"},
}
INVALID: dict[str, tuple[dict[str, str], str]] = {
    "fix-error": ({}, "message: required"),
    "review-project": ({"path": "relative/dir"}, "must be an absolute path"),
    "explain-sap-concept": ({"topic": "CDS", "product": "sap-gui"}, "product: Input should be"),
    "abap-cloud-readiness": ({"objects": "MARA, rm -rf"}, "not ABAP object names: -RF|not ABAP object names: -rf"),
    "start-project": ({"kind": "java"}, "kind: Input should be 'cap', 'fiori', 'abap-rap' or 'ui5-ts'"),
}


def server(tmp_path: Path, mode: str = "full", layers: list[Layer] | None = None):
    ctx = ToolContext(cwd=tmp_path, layers=layers or [bundled_layer()])
    return build_server(REGISTRY, ctx, mode=mode)


def test_every_builtin_prompt_is_discovered_and_has_valid_and_invalid_cases() -> None:
    names = [p.name for p in discover()]
    assert names == BUILTIN
    assert set(VALID) == set(INVALID) == set(names)


def test_prompt_texts_name_only_tools_that_exist(tmp_path: Path) -> None:
    catalog = Catalog(ToolContext(cwd=tmp_path, layers=[bundled_layer()]))
    every = {t.name for t in Registry.default(system=True, writes=True, data=True, transports=True)}
    for name, arguments in VALID.items():
        _, text = catalog.get(name, arguments)
        named = set(re.findall(r"\b([a-z]+(?:_[a-z]+)+)\b", text)) - {"max_chars", "next_offset"}
        calls = {n for n in named if n.startswith(("get_", "search_", "check_", "read_", "list_", "run_", "syntax_"))}
        assert calls <= every, f"{name} names unknown tools: {calls - every}"


@pytest.mark.parametrize("era", ERAS)
async def test_prompts_list_and_capabilities(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        caps = client.server_capabilities
        assert caps.prompts is not None and caps.resources is not None and caps.completions is not None
        assert caps.tools is not None
        listed = {p.name: p for p in (await client.list_prompts()).prompts}
        assert sorted(listed) == BUILTIN
        fix = listed["fix-error"]
        assert fix.title and fix.description
        args = {a.name: a.required for a in fix.arguments or []}
        assert args == {"message": True, "pack": False}
        assert {a.name for a in listed["start-project"].arguments or []} == {"kind", "name"}


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("name", BUILTIN)
async def test_every_prompt_renders_with_valid_arguments(tmp_path: Path, era: str, name: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        result = await client.get_prompt(name, VALID[name])
        assert result.description
        [message] = result.messages
        assert message.role == "user" and isinstance(message.content, types.TextContent)
        assert len(message.content.text) > 200
        assert "call_tool" not in message.content.text  # full mode: the tools are listed directly


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("name", BUILTIN)
async def test_every_prompt_refuses_invalid_arguments_clearly(tmp_path: Path, era: str, name: str) -> None:
    arguments, expected = INVALID[name]
    async with Client(server(tmp_path), mode=era) as client:
        with pytest.raises(MCPError) as err:
            await client.get_prompt(name, arguments)
        assert err.value.error.code == types.INVALID_PARAMS
        assert f"Invalid arguments for prompt {name}" in err.value.error.message
        assert re.search(expected, err.value.error.message), err.value.error.message


async def test_unknown_prompt_and_unknown_argument_are_refused(tmp_path: Path) -> None:
    async with Client(server(tmp_path), mode="auto") as client:
        with pytest.raises(MCPError, match=r"Unknown prompt 'fix'.*fix-error"):
            await client.get_prompt("fix", {})
        with pytest.raises(MCPError, match="colour: not an argument of this prompt"):
            await client.get_prompt("start-project", {"kind": "cap", "colour": "blue"})
        with pytest.raises(MCPError, match=r"Unknown pack 'sap-gui'.*cap"):
            await client.get_prompt("fix-error", {"message": "boom boom", "pack": "sap-gui"})
        with pytest.raises(MCPError, match="Unknown profile 'gui-developer'"):
            await client.get_prompt("review-project", {"profile": "gui-developer"})


async def test_arguments_shape_the_text_and_blank_optionals_are_omitted(tmp_path: Path) -> None:
    async with Client(server(tmp_path), mode="auto") as client:
        text = (await client.get_prompt("abap-cloud-readiness", VALID["abap-cloud-readiness"])).messages[0].content.text
        assert 'names=["MARA", "BAPI_PO_CREATE1", "/DMO/FLIGHT"]' in text and "target='private'" in text
        assert "clean core levels" in text  # the abap pack's guidance
        text = (await client.get_prompt("start-project", {"kind": "cap", "name": ""})).messages[0].content.text
        assert "get_samples with pack='cap'" in text and "cds init" in text
        assert "ABAP RESTful" not in text  # only the kind's pack and base add guidance
        text = (await client.get_prompt("fix-error", {"message": "x```y``` z"})).messages[0].content.text
        assert "````text\nx```y``` z\n````" in text


@pytest.mark.parametrize("era", ERAS)
async def test_completion_offers_known_values(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:

        async def complete(prompt: str, argument: str, value: str) -> list[str]:
            ref = types.PromptReference(type="ref/prompt", name=prompt)
            return (await client.complete(ref, {"name": argument, "value": value})).completion.values

        assert await complete("start-project", "kind", "") == ["cap", "fiori", "abap-rap", "ui5-ts"]
        assert await complete("start-project", "kind", "UI") == ["ui5-ts"]
        assert await complete("fix-error", "pack", "ca") == ["cap"]
        assert "cap-developer" in await complete("review-project", "profile", "")
        assert await complete("explain-sap-concept", "product", "hana") == ["hana-cloud"]
        assert await complete("abap-cloud-readiness", "target", "") == ["cloud", "private", "btp"]
        assert await complete("fix-error", "message", "SQL") == []  # free text: nothing to offer
        assert await complete("no-such-prompt", "x", "") == []


@pytest.mark.parametrize("era", ERAS)
async def test_progressive_mode_keeps_prompts_resources_and_says_how_to_call(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path, mode="progressive"), mode=era) as client:
        caps = client.server_capabilities
        assert caps.experimental == {"libraryDiscovery": {"version": "0.1.0"}}
        assert caps.prompts is not None and caps.resources is not None and caps.completions is not None
        text = (await client.get_prompt("start-project", {"kind": "fiori"})).messages[0].content.text
        assert "call_tool" in text
        assert (await client.list_resources()).resources


PACK_PROMPTS = """
- id: company-release-check
  title: Company release check
  description: Checks a transport against our release rules.
  arguments:
    - name: transport
      description: Transport request id.
      required: true
    - name: landscape
      description: Target landscape.
      values: [qa, prod]
  text: |
    Check transport {transport} for {landscape} against the ACME release rules.
- id: fix-error
  text: At ACME, also search the internal wiki for {message}.
"""


def company_layers(tmp_path: Path, *, trusted: bool) -> list[Layer]:
    root = tmp_path / "company"
    write_files(
        root / "packs" / "acme",
        {
            "pack.yaml": "id: acme\nname: ACME\ndescription: ACME rules\n",
            "prompts.yaml": PACK_PROMPTS,
        },
    )
    if trusted:
        from sap_devs.knowledge import trust

        trust.trust(root)
    return [bundled_layer(), Layer("company", root, needs_trust=True)]


@pytest.mark.parametrize("era", ERAS)
async def test_an_untrusted_company_pack_adds_prompts_with_their_origin(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path, layers=company_layers(tmp_path, trusted=False)), mode=era) as client:
        listed = {p.name: p for p in (await client.list_prompts()).prompts}
        assert sorted(listed) == sorted([*BUILTIN, "company-release-check"])  # fix-error is not replaced
        mine = listed["company-release-check"]
        assert "(from the company layer, pack acme)" in (mine.description or "")
        assert [(a.name, a.required) for a in mine.arguments or []] == [("transport", True), ("landscape", False)]

        text = (
            (await client.get_prompt("company-release-check", {"transport": "A4HK900123", "landscape": "qa"}))
            .messages[0]
            .content.text
        )
        assert text.startswith("> From the company layer (")
        assert "Check transport A4HK900123 for qa against the ACME release rules." in text

        fix = (await client.get_prompt("fix-error", {"message": "ORA-1 boom"})).messages[0].content.text
        assert fix.startswith("Fix this SAP error.")  # the built-in text stays first
        assert "> From the company layer (" in fix and "internal wiki for ORA-1 boom" in fix

        with pytest.raises(MCPError, match="needs the argument 'transport'"):
            await client.get_prompt("company-release-check", {})
        with pytest.raises(MCPError, match="has no argument 'colour'"):
            await client.get_prompt("company-release-check", {"transport": "X", "colour": "red"})

        ref = types.PromptReference(type="ref/prompt", name="company-release-check")
        assert (await client.complete(ref, {"name": "landscape", "value": "p"})).completion.values == ["prod"]


def test_a_pack_prompt_may_not_use_undeclared_arguments(make_pack) -> None:
    from sap_devs.knowledge.base import KnowledgeBase

    bad = "- id: bad\n  arguments: [{name: whom, description: Who.}]\n  text: Hello {who}\n"
    root = make_pack("acme", {"prompts.yaml": bad})
    kb = KnowledgeBase.load(layers=[Layer("user", root)])
    assert any("undeclared arguments: who" in p for p in kb.problems)


def test_placeholders_are_only_substituted_never_evaluated(tmp_path: Path) -> None:
    catalog = Catalog(ToolContext(cwd=tmp_path, layers=company_layers(tmp_path, trusted=False)))
    _, text = catalog.get("company-release-check", {"transport": "{landscape} {0.__class__}", "landscape": "qa"})
    assert "Check transport {landscape} {0.__class__} for qa" in text


def test_prompts_reference_is_current() -> None:
    from sap_devs.mcp.docs import render_prompts_markdown

    committed = (Path(__file__).resolve().parents[1] / "docs" / "PROMPTS.md").read_text(encoding="utf-8")
    assert committed == render_prompts_markdown(), "docs/PROMPTS.md is stale: run `python -m sap_devs.mcp.docs prompts`"


def test_abap_cloud_readiness_uses_the_live_system_when_one_is_configured(tmp_path: Path) -> None:
    from sap_devs.adt.config import AdtConfig

    without = Catalog(ToolContext(cwd=tmp_path, layers=[bundled_layer()]))
    assert "No ABAP system is configured" in without.get("abap-cloud-readiness", {"objects": "MARA"})[1]
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()])
    ctx.adt_config = object.__new__(AdtConfig)  # only its presence matters to the prompt
    text = Catalog(ctx).get("abap-cloud-readiness", {"objects": "MARA"})[1]
    assert "get_api_release_state" in text and "No ABAP system" not in text
    every = {t.name for t in Registry.default(system=True, writes=True, data=True, transports=True)}
    assert {"get_api_release_state", "get_object_info", "get_class", "get_table", "run_atc"} <= every
