"""The SAP Cloud SDK documentation (SAP/cloud-sdk, a Docusaurus site): MDX read as the site shows it,
page addresses by Docusaurus' rules, the Node.js and Java flavours, and sync of its tarball."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sap_devs.docs import flavours, store
from sap_devs.docs import sync as docs_sync
from sap_devs.docs.index import build
from sap_devs.docs.ingest import load_source, mdx_blocks, parse_page
from sap_devs.docs.sources import BY_REPO, PRODUCTS, docusaurus_route, is_page
from tests.loopback import Loopback
from tests.test_docs_sync import bases, docs_source, serve_commit, serve_tarball, tarball, use_bundled

SDK = BY_REPO["sap/cloud-sdk"]
TARBALL = Path(__file__).resolve().parent.parent / "data" / "docs" / "SAP+cloud-sdk.tar.gz"
SITE = "https://sap.github.io/cloud-sdk/docs/"

TABS_PAGE = """---
id: http-client
title: HTTP Client
---

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import MvnBadge from '@site/src/sap/sdk-java/MvnBadge';

<MvnBadge />

## General Usage

<Tabs
  groupId="http-client"
  defaultValue="v4"
  values={[
    {label: "Apache Version 4.x", value: "v4"},
    {label: "Apache Version 5.x", value: "v5"}
  ]}>
<TabItem value="v4">

Use the accessor:

```java
HttpClient client = HttpClientAccessor.getHttpClient();
List<String> names = List.of("<TabItem value=\\"x\\">");
```

</TabItem>
<TabItem value="v5" label="Five">

:::caution BETA API

The version 5 API is in beta.

:::

</TabItem>
</Tabs>

<ThemedImage
  alt="General architecture"
  sources={{ light: useBaseUrl('img/a.svg'), dark: useBaseUrl('img/b.svg') }}
/>

:::info **Symptoms**
Requests fail with 407.
:::
"""


def test_mdx_drops_modules_and_components_and_keeps_text_code_and_tab_labels() -> None:
    page = parse_page(SDK, "docs-java/features/connectivity/005-http-client.mdx", TABS_PAGE, {})
    assert page is not None
    text = "\n".join(s.text for s in page.sections)
    for gone in ("import ", "<Tabs", '<TabItem value="v4">', "</TabItem>", "MvnBadge", "ThemedImage", "useBaseUrl"):
        assert gone not in text.replace('List.of("<TabItem value=\\"x\\">")', ""), gone
    # a tab opens with its label, from the Tabs values or its own label attribute
    assert "**Apache Version 4.x:**\n\nUse the accessor:" in text and "**Five:**" in text
    # code inside a tab is a code block, verbatim, even where it looks like JSX
    assert (
        '```java\nHttpClient client = HttpClientAccessor.getHttpClient();\nList<String> names = List.of("<TabItem'
        in text
    )
    # admonitions read as their title and text; a bold title is not bolded twice
    assert "**BETA API:**" in text and "The version 5 API is in beta." in text
    assert "**Symptoms:**" in text and "****" not in text
    assert [s.heading[-1] for s in page.sections] == ["HTTP Client", "General Usage"] or page.sections[-1].heading[
        -1
    ] == "General Usage"


def test_a_tag_that_never_closes_is_text_and_an_import_over_lines_goes() -> None:
    text = "import {\n  Count,\n  Create\n} from './common/operations';\n\nThe value is <Something like this\n\nEnd."
    shown = mdx_blocks(text)
    assert "Count" not in shown and "from './common" not in shown
    assert "The value is <Something like this" in shown and "End." in shown


def _tarball(files: dict[str, str], top: str = "cloud-sdk-" + "a" * 40, sha: str = "a" * 40) -> bytes:
    return tarball(SDK, sha, files, top=top)


PARTIALS = {
    "docs-js/features/odata/v2-client.mdx": (
        "---\nid: v2-client\ntitle: OData v2 Client\n---\n\n"
        "import { Count, GetAll } from './common/operations';\n"
        "import { CustomFields } from './common/entity';\n\n"
        "## Count\n\n<Count />\n\n## Custom Fields\n\n<CustomFields />\n\n## Missing\n\n<GetAll />\n\nAfter.\n"
    ),
    "docs-js/features/odata/common/operations/count.mdx": (
        "import Nested from '../nested.mdx';\n\nUse `count()` to count the entities.\n\n<Nested />\n"
    ),
    "docs-js/features/odata/common/nested.mdx": "A partial inside a partial.\n",
    "docs-js/features/odata/common/entity/custom-fields.mdx": "Set custom fields with `setCustomField()`.\n",
    "docs-js/features/odata/common/entity/orphan.mdx": "No page imports this any more.\n",
    "docs-java/release-notes/release-notes-0-to-14.mdx": "---\ntitle: Old\n---\n\nArchive.\n",
    "docs-java/video/odata-generator.mdx": "---\ntitle: Video\n---\n\nA video.\n",
    "docs-java/features/connectivity/000-overview.mdx": (
        "---\nid: destination-service\ntitle: Connectivity\n---\n\n"
        "See the [HTTP Client](http-client), [OData](../odata/vdm-generator), [Kyma](/docs/java/environments/kubernetes-kyma#x),"
        " [the file](005-http-client.mdx#usage) and [JS](/cloud-sdk/docs/js/overview).\n"
    ),
    "docs-java/features/connectivity/005-http-client.mdx": "---\nid: http-client\ntitle: HTTP Client\n---\n\nClients.\n",
    "README.md": "# The repository\n",
}


def test_partials_are_part_of_the_page_that_imports_them_and_no_pages_of_their_own(tmp_path: Path) -> None:
    tar = tmp_path / "SAP+cloud-sdk.tar.gz"
    tar.write_bytes(_tarball(PARTIALS))
    _, pages, _ = load_source(SDK, str(tar))
    by_path = {p.path: p for p in pages}
    assert sorted(by_path) == [
        "docs-java/features/connectivity/000-overview.mdx",
        "docs-java/features/connectivity/005-http-client.mdx",
        "docs-js/features/odata/v2-client.mdx",
    ]  # partials, the release-notes archive, the videos and the README are no pages
    sections = {s.heading[-1]: s.text for s in by_path["docs-js/features/odata/v2-client.mdx"].sections}
    assert (
        "Use `count()` to count the entities." in sections["Count"]
        and "A partial inside a partial." in sections["Count"]
    )
    assert sections["Custom Fields"] == "Set custom fields with `setCustomField()`."
    assert sections["Missing"] == "After."  # a component whose partial is not in the tarball is left out
    links = by_path["docs-java/features/connectivity/000-overview.mdx"].sections[0].text
    java = f"{SITE}java/features/"
    assert f"[HTTP Client]({java}connectivity/http-client)" in links
    assert f"[OData]({java}odata/vdm-generator)" in links
    assert f"[Kyma]({SITE}java/environments/kubernetes-kyma#x)" in links
    assert f"[the file]({java}connectivity/http-client#usage)" in links
    assert f"[JS]({SITE}js/overview)" in links


def test_a_page_importing_the_folder_of_its_own_name_stays_a_page(tmp_path: Path) -> None:
    # release-notes.mdx imports its notes from ./release-notes (the folder's index.js), not from itself
    files = {
        "docs-java/release-notes.mdx": (
            "---\nid: release-notes\ntitle: Release Notes\n---\n\n"
            "import { ReleaseNotes0To14 } from './release-notes';\n\n"
            "## Should I update?\n\nThe walrus updates often.\n\n<ReleaseNotes0To14 />\n"
        ),
        "docs-java/release-notes/release-notes-0-to-14.mdx": "## 5.0.0\n\nThe archive.\n",
    }
    tar = tmp_path / "SAP+cloud-sdk.tar.gz"
    tar.write_bytes(_tarball(files))
    _, pages, _ = load_source(SDK, str(tar))
    [page] = pages  # the archive is left out, the page itself is no partial of itself
    assert page.url == f"{SITE}java/release-notes"
    text = "\n".join(s.text for s in page.sections)
    assert "The walrus updates often." in text and "The archive." not in text


@pytest.mark.parametrize(
    ("inner", "front", "route"),
    [
        (
            "features/connectivity/001-btp-destination-service.mdx",
            {"id": "btp-destination-service"},
            "features/connectivity/btp-destination-service",
        ),
        ("features/connectivity/006-running-locally.mdx", {}, "features/connectivity/running-locally"),
        ("02-guides/10_upgrade.mdx", {}, "guides/upgrade"),
        ("faq.mdx", {"id": "frequently-asked-questions"}, "frequently-asked-questions"),
        ("features/odata/overview.mdx", {"id": "overview", "slug": "odata"}, "features/odata/odata"),
        ("guides/x.mdx", {"id": "x", "slug": "/upgrade/v4"}, "upgrade/v4"),
        ("guides/index.mdx", {"id": "guides-home"}, "guides"),
        ("guides/README.md", {}, "guides"),
        ("connectivity/connectivity.mdx", {"id": "conn"}, "connectivity"),
        ("2.0-upgrade.mdx", {}, "2.0-upgrade"),
    ],
)
def test_docusaurus_routes(inner: str, front: dict[str, str], route: str) -> None:
    assert docusaurus_route(inner, front) == route


# addresses the published site has (its gh-pages build lists these routes), per docs folder
KNOWN = {
    "docs-java/features/connectivity/001-btp-destination-service.mdx": f"{SITE}java/features/connectivity/btp-destination-service",
    "docs-java/features/connectivity/000-overview.mdx": f"{SITE}java/features/connectivity/destination-service",
    "docs-java/features/connectivity/008-transparent-proxy.mdx": f"{SITE}java/features/connectivity/transparent-proxy",
    "docs-java/features/odata/v2-client.mdx": f"{SITE}java/features/odata/v2-vdm-client",
    "docs-java/features/odata/generic-client.mdx": f"{SITE}java/features/odata/generic-untyped-odata-client",
    "docs-java/environments/kyma.mdx": f"{SITE}java/environments/kubernetes-kyma",
    "docs-java/troubleshooting.mdx": f"{SITE}java/troubleshooting-frequent-problems",
    "docs-java/overview.mdx": f"{SITE}java/overview-cloud-sdk-for-java",
    "docs-java/features/bapi-and-rfc/overview.mdx": f"{SITE}java/features/bapi-and-rfc/overview",
    "docs-java/guides/linux-how-to.mdx": f"{SITE}java/guides/sap-cloud-sdk-linux-how-to",
    "docs-java/guides/tutorial-overview-sdk-java.mdx": f"{SITE}java/guides/tutorial-overview-sdk-java",
    "docs-java/support.mdx": f"{SITE}java/support",
    "docs-java/release-notes.mdx": f"{SITE}java/release-notes",
    "docs-js/features/odata/odata-v2-client.mdx": f"{SITE}js/features/odata/v2-client",
    "docs-js/features/odata/execute-odata-request.mdx": f"{SITE}js/features/odata/execute-request",
    "docs-js/features/openapi/generate-openapi-client.mdx": f"{SITE}js/features/openapi/generate-client",
}


def test_bundled_pages_have_the_addresses_the_site_serves() -> None:
    _, pages, _ = load_source(SDK, str(TARBALL))
    urls = {p.path: p.url for p in pages}
    for path, url in KNOWN.items():
        if path.startswith("docs-js/") and path not in urls:
            continue  # a docs-js page the transcription did not reach
        assert urls.get(path) == url, path
    assert all(u.startswith(SITE + ("java/" if p.startswith("docs-java/") else "js/")) for p, u in urls.items())
    assert len(set(urls.values())) == len(urls)  # no two pages share an address
    assert all(p.product == "cloud-sdk" for p in pages) and "cloud-sdk" in PRODUCTS
    assert not any("release-notes/" in p or "/video/" in p for p in urls)
    assert is_page(SDK, "docs-java/faq.mdx") and not is_page(SDK, "docs-java/release-notes/release-notes-15-to-29.mdx")
    assert not is_page(SDK, "docs-js/features/odata/index.jsx") and not is_page(SDK, "src/pages/index.mdx")


def test_docs_js_pages_are_node_and_docs_java_pages_java(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert flavours.of_page("docs-js/features/connectivity/proxy.mdx", "Proxies", "", ["cap-node"]) == {"cap-node"}
    # a declared flavour settles its axis only: the environment is still read from the page
    assert flavours.of_page("docs-java/environments/kyma.mdx", "Kyma", "", ["cap-java"]) == {"cap-java", "kyma"}
    commit, pages, redirects = load_source(SDK, str(TARBALL))
    index_path = tmp_path / "docs.sqlite"
    build(index_path, [(SDK, commit, pages, "bundled", None, redirects)])
    monkeypatch.setattr(store, "bundled_path", lambda: index_path)
    store.reset()
    try:
        hits, _ = store.current().search("destination http client proxy", product="cloud-sdk", limit=20)
        assert {h.path.split("/", 1)[0] for h in hits} == {"docs-js", "docs-java"}
        for hit in hits:
            assert ("cap-node" if hit.path.startswith("docs-js/") else "cap-java") in hit.flavours
        # a question about Java sets the Node.js pages back (and the other way round)
        java, _ = store.current().search("OData v4 batch request with a changeset in Java", product="cloud-sdk")
        node, _ = store.current().search("OData v4 batch request with a changeset in TypeScript", product="cloud-sdk")
        assert java[0].path == "docs-java/features/odata/v4-client.mdx", [h.path for h in java]
        assert node[0].path == "docs-js/features/odata/odata-v4-client.mdx", [h.path for h in node]
    finally:
        store.reset()


# sync: the tarball GitHub serves for SAP/cloud-sdk, recorded small, from a loopback server
SHA = "b" * 40


@pytest.fixture
def sdk_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(docs_sync, "SOURCES", (SDK,))
    tar = tmp_path / "bundled.tar.gz"
    tar.write_bytes(_tarball({"docs-java/faq.mdx": "---\nid: faq\ntitle: FAQ\n---\n\nThe walrus answers.\n"}))
    _, pages, redirects = load_source(SDK, str(tar))
    yield use_bundled(
        monkeypatch, tmp_path / "bundled" / "docs.sqlite", [(SDK, "a" * 40, pages, "bundled", None, redirects)]
    )
    store.reset()


def _titles(word: str) -> list[str]:
    hits, _ = store.current().search(word, product="cloud-sdk")
    return [h.title for h in hits]


@pytest.fixture
def server():
    with Loopback().running() as srv:
        yield srv


@pytest.mark.anyio
async def test_sync_reads_the_github_tarball_of_the_whole_repository(server, sdk_env) -> None:
    from sap_devs.live.sync import run_sync

    files = dict(PARTIALS)
    files["docs-java/faq.mdx"] = "---\nid: faq\ntitle: FAQ\n---\n\nThe narwhal answers.\n"
    files["static/img/logo.png"] = "\x89PNG"
    files["docs-js/features/odata/index.jsx"] = "export { default as Count } from './count.mdx';\n"
    serve_commit(server, SDK, SHA)
    serve_tarball(server, SDK, SHA, _tarball(files, top=f"SAP-cloud-sdk-{SHA[:7]}", sha=SHA))
    [result] = await run_sync([docs_source()], bases=bases(server), env={}, force=True)
    assert result.status == "ok", result.message
    assert _titles("narwhal") == ["FAQ"] and _titles("walrus") == []
    pages, _ = store.current().pages_of("SAP/cloud-sdk")
    assert len(pages) == 4  # the FAQ, two connectivity pages and the OData page; no partial, no archive


@pytest.mark.anyio
async def test_a_repository_tarball_over_the_download_cap_keeps_the_bundled_copy(server, sdk_env) -> None:
    from sap_devs.live.sync import run_sync

    serve_commit(server, SDK, SHA)
    big = _tarball({**PARTIALS, "static/api.js": os.urandom(150_000).hex()}, top=f"SAP-cloud-sdk-{SHA[:7]}", sha=SHA)
    serve_tarball(server, SDK, SHA, big)
    [result] = await run_sync([docs_source(max_bytes=64 * 1024, retries=0)], bases=bases(server), env={}, force=True)
    assert result.status == "failed" and "SAP/cloud-sdk" in (result.message or "")
    assert _titles("walrus") == ["FAQ"]  # the index in use stays


@pytest.mark.parametrize(
    ("query", "path"),
    [
        (
            "ServiceBindingDestinationLoader for a bound service",
            "docs-java/features/connectivity/003-service-bindings.mdx",
        ),
        (
            "transparent proxy destination on Kyma from Java",
            "docs-java/features/connectivity/008-transparent-proxy.mdx",
        ),
        ("OData v4 batch request with a changeset in TypeScript", "docs-js/features/odata/odata-v4-client.mdx"),
    ],
)
def test_the_bundled_index_answers_from_the_cloud_sdk(query: str, path: str) -> None:
    store.reset()
    index = store.current()
    pages, _ = index.pages_of("SAP/cloud-sdk")
    if not pages:
        pytest.skip("the bundled index was built without the SAP Cloud SDK tarball")
    _, tarball_pages, _ = load_source(SDK, str(TARBALL))
    assert len(pages) == len(tarball_pages)  # every page of the tarball is indexed
    hits, _ = index.search(query, limit=5)
    found = [h for h in hits if h.source == "SAP/cloud-sdk" and h.path == path]
    assert found, [(h.source, h.path) for h in hits]
    doc = index.read(found[0].page_id)
    assert doc.url.startswith(SITE) and doc.source.licence == "Apache-2.0"
