"""MCP resources through the SDK's own client, in both protocol eras: the short list, the templates,
reads that equal what the tools serve, completion, refusals, and content from untrusted layers."""

from __future__ import annotations

import json
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sap_devs.knowledge.layer_paths import Layer
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer, write_files

pytestmark = pytest.mark.anyio
ERAS = ["legacy", "auto"]
REGISTRY = Registry.default()
DOCS_TEMPLATE = "sap-devs://docs/{source}/{+path}"


def server(tmp_path: Path, layers: list[Layer] | None = None):
    return build_server(REGISTRY, ToolContext(cwd=tmp_path, layers=layers or [bundled_layer()]))


async def text_of(client: Client, uri: str) -> tuple[str | None, str]:
    [content] = (await client.read_resource(uri)).contents
    assert isinstance(content, types.TextResourceContents) and content.uri == uri
    return content.mime_type, content.text


@pytest.mark.parametrize("era", ERAS)
async def test_resources_list_is_short_packs_and_profiles_with_mime_size_and_date(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        listed = (await client.list_resources()).resources
        uris = [r.uri for r in listed]
        assert "sap-devs://packs/cap/context" in uris and "sap-devs://profiles/cap-developer" in uris
        assert "sap-devs://profile/rules" in uris
        assert len(listed) <= 20
        for resource in listed:
            assert resource.mime_type == "text/markdown" and resource.size and resource.name and resource.title
            _, text = await text_of(client, resource.uri)
            assert len(text.encode("utf-8")) == resource.size, resource.uri
        cap = next(r for r in listed if r.uri == "sap-devs://packs/cap/context")
        assert cap.annotations is not None and cap.annotations.last_modified
        assert cap.annotations.last_modified.endswith("Z")


@pytest.mark.parametrize("era", ERAS)
async def test_templates_cover_context_tips_errors_samples_profiles_and_docs(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        templates = {t.uri_template: t.mime_type for t in (await client.list_resource_templates()).resource_templates}
        assert templates == {
            "sap-devs://packs/{pack}/context{?verbosity}": "text/markdown",
            "sap-devs://packs/{pack}/tips": "application/json",
            "sap-devs://packs/{pack}/known-errors": "application/json",
            "sap-devs://packs/{pack}/samples": "application/json",
            "sap-devs://profiles/{profile}": "text/markdown",
            DOCS_TEMPLATE: "text/markdown",
        }


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("verbosity", ["minimal", "standard", "full"])
async def test_pack_context_reads_what_get_context_returns(tmp_path: Path, era: str, verbosity: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        tool = await client.call_tool("get_context", {"pack": "cap", "verbosity": verbosity})
        mime, text = await text_of(client, f"sap-devs://packs/cap/context?verbosity={verbosity}")
        assert mime == "text/markdown"
        assert text == tool.structured_content["content"]
    if verbosity == "standard":
        async with Client(server(tmp_path), mode=era) as client:
            assert (await text_of(client, "sap-devs://packs/cap/context"))[1] == text


@pytest.mark.parametrize("era", ERAS)
async def test_samples_known_errors_and_tips_read_what_the_tools_return(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        tool = await client.call_tool("get_samples", {"pack": "cap", "limit": 100})
        mime, text = await text_of(client, "sap-devs://packs/cap/samples")
        assert mime == "application/json" and json.loads(text) == tool.structured_content

        errors = json.loads((await text_of(client, "sap-devs://packs/cap/known-errors"))[1])
        assert errors and all(e["pack"] == "cap" for e in errors)
        first = errors[0]
        found = await client.call_tool("get_known_errors", {"query": first["pattern"], "pack": "cap", "limit": 50})
        # the resource lists entries; a search adds how well each fits its query
        assert first in [{k: v for k, v in r.items() if k != "strength"} for r in found.structured_content["results"]]

        tips = json.loads((await text_of(client, "sap-devs://packs/cap/tips"))[1])
        assert tips and set(tips[0]) >= {"title", "content", "tags", "pack"}
        tip = (await client.call_tool("get_tip", {"topic": "cap"})).structured_content
        of_its_pack = json.loads((await text_of(client, f"sap-devs://packs/{tip['pack']}/tips"))[1])
        assert {k: v for k, v in tip.items() if v is not None} in of_its_pack


@pytest.mark.parametrize("era", ERAS)
async def test_docs_page_reads_what_read_doc_returns(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:
        page = await client.call_tool("read_doc", {"source": "capire/docs", "path": "cds/cql.md", "max_chars": 30000})
        page = page.structured_content
        mime, text = await text_of(client, "sap-devs://docs/capire/docs/cds/cql.md")
        assert mime == "text/markdown"
        if page.get("next_offset") is None:
            assert page["content"] in text
        else:
            assert text.count(page["content"][:2000]) == 1
        assert page["url"] in text and page["attribution"] in text
        # clients that expand {source} with the slash encoded reach the same page
        assert (await text_of(client, "sap-devs://docs/capire%2Fdocs/cds/cql.md"))[1] == text


@pytest.mark.parametrize("era", ERAS)
async def test_completion_for_template_arguments(tmp_path: Path, era: str) -> None:
    async with Client(server(tmp_path), mode=era) as client:

        async def complete(uri: str, name: str, value: str, context: dict[str, str] | None = None) -> list[str]:
            ref = types.ResourceTemplateReference(type="ref/resource", uri=uri)
            return (await client.complete(ref, {"name": name, "value": value}, context)).completion.values

        assert await complete("sap-devs://packs/{pack}/samples", "pack", "fi") == ["fiori-ui5"]
        assert await complete("sap-devs://packs/{pack}/context{?verbosity}", "verbosity", "") == [
            "minimal",
            "standard",
            "full",
        ]
        assert "cap-developer" in await complete("sap-devs://profiles/{profile}", "profile", "cap")
        assert "capire/docs" in await complete(DOCS_TEMPLATE, "source", "cap")
        paths = await complete(DOCS_TEMPLATE, "path", "cds/c", {"source": "capire/docs"})
        assert "cds/cdl.md" in paths and all(p.startswith("cds/c") for p in paths)
        assert await complete(DOCS_TEMPLATE, "path", "cds/", {}) == []  # no source yet: nothing to offer


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("sap-devs://packs/sap-gui/context", "Unknown pack 'sap-gui'"),
        ("sap-devs://packs/cap/context?verbosity=everything", "Unknown verbosity 'everything'"),
        ("sap-devs://packs/cap/recipes", "Unknown resource"),
        ("sap-devs://profiles/gui-developer", "Unknown profile 'gui-developer'"),
        ("sap-devs://docs/capire/docs/no/such/page.md", "No documentation page with id .capire/docs:no/such/page.md."),
        ("sap-devs://docs/capire", "sap-devs://docs/<owner>/<repo>/<path>"),
        ("https://cap.cloud.sap/docs/cds/cdl", "start with sap-devs://"),
    ],
)
async def test_unknown_resources_are_refused_with_what_to_use(tmp_path: Path, uri: str, message: str) -> None:
    async with Client(server(tmp_path), mode="auto") as client:
        with pytest.raises(MCPError, match=message) as err:
            await client.read_resource(uri)
        assert err.value.error.code == -32002


async def test_untrusted_project_content_carries_its_origin(tmp_path: Path) -> None:
    root = tmp_path / ".sap-devs"
    write_files(
        root / "packs" / "cap",
        {
            "pack.yaml": "id: cap\nname: CAP\ndescription: ours\nadditive: true\n",
            "known_errors.yaml": "- id: cap/acme-boom\n  pattern: ACME boom\n  cause: ours\n  fix: ours too\n",
            "tools.yaml": "- id: evil\n  name: x\n  required: latest\n  detect: {command: 'rm -rf /', pattern: '(x)'}\n",
        },
    )
    layers = [bundled_layer(), Layer("project", root, needs_trust=True)]
    async with Client(server(tmp_path, layers), mode="auto") as client:
        errors = json.loads((await text_of(client, "sap-devs://packs/cap/known-errors"))[1])
        mine = next(e for e in errors if e["id"] == "cap/acme-boom")
        assert mine["origin"].startswith("project layer: ")
        assert all("origin" not in e for e in errors if e["id"] != "cap/acme-boom")


@pytest.mark.parametrize("era", ERAS)
async def test_prompts_and_resources_over_stdio_with_a_profile(tmp_path: Path, era: str) -> None:
    """The real ``sap-devs mcp serve`` process: the profile's rules resource and a prompt's guidance."""
    import sys

    from mcp.client.stdio import StdioServerParameters

    from tests.test_stdio_server import server_env

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sap_devs", "mcp", "serve", "--profile", "abap-developer"],
        env=server_env(tmp_path),
        cwd=str(tmp_path),
    )
    async with Client(params, mode=era) as client:
        assert {p.name for p in (await client.list_prompts()).prompts} >= {"fix-error", "start-project"}
        listed = {r.uri for r in (await client.list_resources()).resources}
        assert "sap-devs://profiles/abap-developer" in listed
        mime, rules = await text_of(client, "sap-devs://profile/rules")
        assert mime == "text/markdown" and rules.startswith("# SAP rules (")
        assert "## ABAP Cloud and RAP" in rules and "## SAP Cloud Application Programming Model (CAP)" in rules
        assert "## SAPUI5 / OpenUI5 and SAP Fiori" not in rules  # not one of the profile's packs
        text = (await client.get_prompt("start-project", {"kind": "abap-rap"})).messages[0].content.text
        assert "ABAP RESTful Application Programming Model" in text


@pytest.mark.parametrize(
    "uri",
    [
        "sap-devs://" + "y" * 100_000,
        "https://" + "z" * 100_000,
        "sap-devs://packs/" + "x" * 100_000 + "/context",
        "sap-devs://packs/cap/context?verbosity=" + "v" * 100_000,
        "sap-devs://profiles/" + "p" * 100_000,
        "sap-devs://docs/" + "d" * 100_000,
        "sap-devs://docs/capire/docs/" + "q" * 100_000 + ".md",
    ],
)
async def test_a_100_kb_uri_is_not_echoed_back_whole(tmp_path: Path, uri: str) -> None:
    async with Client(server(tmp_path), mode="auto") as client:
        with pytest.raises(MCPError) as err:
            await client.read_resource(uri)
    message = err.value.error.message
    assert len(message) < 2_000, f"{len(message)} characters echoed back"
