"""The SAP documentation: ingestion, the index, and the search_docs / read_doc tools on the bundled index."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from sap_devs.docs import store
from sap_devs.docs.build import build_from, tarball_name
from sap_devs.docs.index import DocsIndex
from sap_devs.docs.ingest import clean, flatten_tables, load_source, parse_page
from sap_devs.docs.sources import API_REFERENCE, BY_REPO, SOURCES, page_url
from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from tests.conftest import bundled_layer

pytestmark = pytest.mark.anyio
REGISTRY = Registry.default()
CONNECTIVITY = BY_REPO["sap-docs/btp-connectivity"]
CAPIRE = BY_REPO["capire/docs"]
LOIO = "2b8ee62d19db43649365f82f78b185a0"


def test_public_urls_follow_each_site() -> None:
    assert page_url(CAPIRE, "guides/deployment/to-cf.md", None) == "https://cap.cloud.sap/docs/guides/deployment/to-cf"
    assert page_url(CAPIRE, "guides/index.md", None) == "https://cap.cloud.sap/docs/guides/"
    assert page_url(CONNECTIVITY, "docs/x/a-2b8ee62.md", LOIO) == (
        f"https://help.sap.com/docs/connectivity/sap-btp-connectivity-cf/{LOIO}.html"
    )
    hana = BY_REPO["sap-docs/sap-hana-cloud-hana-database"]
    assert page_url(hana, "docs/sql-ref/x/create-table-abc1234.md", LOIO) == (
        f"https://help.sap.com/docs/HANA_CLOUD_DATABASE/c1d3f60099654ecfb3fe36ac93c121bb/{LOIO}.html"
    )
    assert page_url(BY_REPO["sap-docs/sapui5"], "docs/a.md", LOIO) == f"https://ui5.sap.com/#/topic/{LOIO}"
    assert page_url(CONNECTIVITY, "docs/no-loio.md", None) is None  # no address: not indexed


SAP_DOCS_PAGE = f"""<!-- loio{LOIO} -->

# Create a Destination

<link rel="stylesheet" type="text/css" href="../css/sap-icons.css"/>

<a name="loio{LOIO}__section_x"/>

## Procedure

1.  Open the cockpit and choose *Destinations*\\(if shown\\).

<table>
<tr>
<th>

Property

</th>
<th>

Value

</th>
</tr>
<tr>
<td>

`ProxyType`

</td>
<td>

```
OnPremise
```

</td>
</tr>
</table>

See [Principal Propagation](principal-propagation-abcdef0.md "How users are passed").

**Related Information**

[Other Page](other-1234567.md "Something")

[Another Page](another-7654321.md)
"""


def test_sap_docs_pages_lose_their_markup_and_keep_content() -> None:
    links = {"docs/principal-propagation-abcdef0.md": "https://help.sap.com/docs/x/y/abcdef0.html"}
    page = parse_page(CONNECTIVITY, "docs/create-a-destination-2b8ee62.md", SAP_DOCS_PAGE, links)
    assert page is not None and page.title == "Create a Destination"
    assert page.url.endswith(f"/{LOIO}.html") and page.product == "connectivity"
    text = "\n".join(s.text for s in page.sections)
    assert "loio" not in text and "<a name" not in text and "<td>" not in text
    assert "stylesheet" not in text and "sap-icons.css" not in text  # Fiori tools pages start with one
    assert "| `ProxyType` | ` OnPremise ` |" in text
    assert "*Destinations*(if shown)" in text  # SAP-docs' escaped parentheses read as written
    assert "[Principal Propagation](https://help.sap.com/docs/x/y/abcdef0.html)" in text
    assert "Related Information" not in text and "Other Page" not in text
    assert [s.heading for s in page.sections] == [["Create a Destination", "Procedure"]]


CAPIRE_PAGE = """---
synopsis: >
  Learn how to serve
  OData.
status: released
---

# Serving OData {.foo}

{{ $frontmatter.synopsis }}

[[toc]]

## Associations { #assocs }

::: tip Use managed associations
They are simpler.
:::

```cds
entity A { b : Association to B on b.id = id; } // {.not-an-attribute}
```
"""


def test_capire_pages_lose_vitepress_syntax_and_keep_anchors_and_code() -> None:
    page = parse_page(CAPIRE, "advanced/odata.md", CAPIRE_PAGE)
    assert page is not None and page.title == "Serving OData"
    intro, assocs = page.sections
    assert intro.text == "Learn how to serve OData."
    assert assocs.heading == ["Serving OData", "Associations"] and assocs.anchor == "assocs"
    assert "**Use managed associations:**" in assocs.text and ":::" not in assocs.text
    assert "entity A { b : Association to B on b.id = id; } // {.not-an-attribute}" in assocs.text
    assert "[[toc]]" not in intro.text


def test_tables_inside_code_blocks_stay_as_written() -> None:
    code = "```html\n<table><tr><td>x</td></tr></table>\n```"
    assert flatten_tables(code) == code
    assert clean("Back to [Top](#top)\ntext") == "text"


def _tarball(tmp: Path, source_repo: str, files: dict[str, str], commit: str = "abc1234def") -> Path:
    source = BY_REPO[source_repo.lower()]
    path = tmp / tarball_name(source)
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{source.name}-{commit}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture
def small_index(tmp_path: Path) -> DocsIndex:
    cap = _tarball(
        tmp_path,
        "capire/docs",
        {
            "guides/deployment/to-cf.md": "# Deploy to Cloud Foundry\n\nRun `cf push` after `mbt build`.\n",
            "cds/cdl.md": "# CDL\n\n## Associations {#assocs}\n\nUnmanaged associations have an on condition.\n",
            "README.md": "# Not a page\n",
        },
    )
    conn = _tarball(
        tmp_path,
        "SAP-docs/btp-connectivity",
        {"docs/cloud-connector-2b8ee62.md": f"<!-- loio{LOIO} -->\n\n# Cloud Connector\n\nReach on-premise systems.\n"},
    )
    out = tmp_path / "docs.sqlite"
    counts = build_from(
        {"capire/docs": (cap, "bundled", None), "SAP-docs/btp-connectivity": (conn, "synced", "t")}, out
    )
    assert counts == {"pages": 3, "sections": 3}
    return DocsIndex(out)


def test_search_meets_synonyms_typos_and_filters(small_index: DocsIndex) -> None:
    hits, total = small_index.search("deploy to CF")
    assert hits[0].path == "guides/deployment/to-cf.md" and total >= 1
    assert small_index.search("asociations on condition")[0][0].path == "cds/cdl.md"  # a typo still finds it
    assert small_index.search("cloud connector", product="cap")[0] == []
    hit = small_index.search("on premise cloud connector")[0][0]
    assert hit.url == f"https://help.sap.com/docs/connectivity/sap-btp-connectivity-cf/{LOIO}.html"
    assert len(hit.snippet) <= 300 and "on-premise" in hit.snippet
    commits = {s.repo: (s.commit, s.origin) for s in small_index.sources()}
    assert commits["capire/docs"] == ("abc1234def", "bundled") and commits["SAP-docs/btp-connectivity"][1] == "synced"


def test_a_synced_index_wins_and_a_broken_one_falls_back(tmp_path: Path, small_index: DocsIndex, caplog) -> None:
    store.reset()
    synced = store.synced_path()
    synced.parent.mkdir(parents=True)
    synced.write_bytes(small_index.path.read_bytes())
    assert store.current().counts() == (3, 3)
    synced.write_bytes(b"not a database")
    store.reset()
    assert store.current().path == store.bundled_path()
    assert "documentation index" in caplog.text
    store.reset()


# --- the bundled index and the tools ---------------------------------------------------------------

needs_bundled = pytest.mark.skipif(
    not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install` (hatch_build.py)"
)


async def call(name: str, **arguments: object) -> tuple[bool, str, dict | None]:
    ctx = ToolContext(cwd=Path.cwd(), layers=[bundled_layer()])
    outcome = await invoke(REGISTRY.get(name), arguments, ctx)  # type: ignore[arg-type]
    return outcome.is_error, outcome.text, outcome.structured


@needs_bundled
def test_the_bundled_index_holds_all_ten_sources() -> None:
    store.reset()
    index = store.current()
    assert {s.repo for s in index.sources()} == {s.repo for s in SOURCES} | {API_REFERENCE.repo}
    pages, sections = index.counts()
    assert pages > 9000 and sections > 30000


@needs_bundled
@pytest.mark.parametrize(
    ("query", "product", "source"),
    [
        ("managed association on condition in CDL", "cap", "capire/docs"),
        ("internal table secondary key", "abap", "SAP-samples/abap-cheat-sheets"),
        # the guides or the API page of the V4 model's list binding (sap.ui.model.odata.v4.ODataListBinding)
        ("OData V4 model list binding", "ui5", None),
        ("subaccount entitlements", "btp", None),
        ("HDI container grant privileges", "hana-cloud", "SAP-docs/sap-hana-cloud-hana-database"),
        ("iflow HTTP receiver adapter", "integration-suite", "SAP-docs/btp-integration-suite"),
        ("application generator list report", "fiori-tools", "SAP-docs/btp-fiori-tools"),
        ("dev space extensions", "bas", "SAP-docs/btp-business-application-studio"),
        ("cloud connector principal propagation", "connectivity", "SAP-docs/btp-connectivity"),
    ],
)
async def test_search_docs_answers_from_every_product(query: str, product: str, source: str | None) -> None:
    is_error, text, result = await call("search_docs", query=query, product=product, limit=3)
    assert not is_error, text
    assert result["count"] >= 1 and result["hint"].startswith("Call read_doc")  # type: ignore[index]
    first = result["results"][0]  # type: ignore[index]
    assert first["product"] == product and (source is None or first["source"] == source)
    assert first["url"].startswith("https://") and len(first["snippet"]) <= 300
    assert first["id"] == f"{first['source']}:{first['path']}"


@needs_bundled
async def test_read_doc_gives_text_url_licence_and_attribution_and_pages_through() -> None:
    is_error, text, page = await call("read_doc", id="capire/docs:cds/cdl.md", max_chars=2000)
    assert not is_error, text
    assert page["url"] == "https://cap.cloud.sap/docs/cds/cdl" and page["licence"] == "Apache-2.0"  # type: ignore[index]
    assert "SAP SE" in page["attribution"] and len(page["commit"]) == 40  # type: ignore[index]
    assert page["next_offset"] and len(page["content"]) <= 2000  # type: ignore[index]
    _, _, more = await call("read_doc", id="capire/docs:cds/cdl.md", offset=page["next_offset"], max_chars=2000)  # type: ignore[index]
    assert more["offset"] == page["next_offset"] and more["content"] != page["content"]  # type: ignore[index]
    _, _, section = await call("read_doc", url="https://cap.cloud.sap/docs/cds/cdl", section="Associations")
    assert section["content"].startswith("## Associations") and section["url"].endswith("#associations")  # type: ignore[index]
    # a link from before capire moved pages (and repositories) still finds the page
    _, _, moved = await call("read_doc", url="https://cap.cloud.sap/docs/guides/deployment/to-cf", max_chars=500)
    assert moved["url"] == "https://cap.cloud.sap/docs/guides/deploy/to-cf"  # type: ignore[index]
    _, _, old_id = await call("read_doc", id="cap-js/docs:advanced/odata.md", max_chars=500)
    assert old_id["path"] == "guides/protocols/odata.md"  # type: ignore[index]
    is_error, text, _ = await call("read_doc", id="capire/docs:cds/cdl.md", section="Nothing like this")
    assert is_error and "has no section" in text and "Associations" in text
    is_error, text, _ = await call("read_doc", id="capire/docs:nope.md")
    assert is_error and "No documentation page" in text
    is_error, text, _ = await call("read_doc")
    assert is_error and "exactly one of" in text


@needs_bundled
async def test_read_doc_for_sap_docs_pages_credits_cc_by() -> None:
    _, _, found = await call("search_docs", query="destination on premise proxy type", product="connectivity", limit=1)
    hit = found["results"][0]  # type: ignore[index]
    is_error, text, page = await call("read_doc", source=hit["source"], path=hit["path"])
    assert not is_error, text
    assert page["licence"] == "CC-BY-4.0" and page["url"] == hit["url"]  # type: ignore[index]
    assert hit["url"] in page["attribution"]  # type: ignore[index]


def test_loading_a_tarball_skips_repository_files(tmp_path: Path) -> None:
    tar = _tarball(
        tmp_path, "capire/docs", {"README.md": "# r", ".github/x.md": "# x", "about/index.md": "# About\n\nx"}
    )
    commit, pages, redirects = load_source(CAPIRE, str(tar))
    assert redirects == []
    assert commit == "abc1234def" and [p.path for p in pages] == ["about/index.md"]
    assert pages[0].url == "https://cap.cloud.sap/docs/about/"


def test_a_source_carries_over_unchanged_into_a_new_index(tmp_path: Path, small_index: DocsIndex) -> None:
    pages, redirects = small_index.pages_of("capire/docs")
    source = BY_REPO["capire/docs"]
    out = tmp_path / "again.sqlite"
    from sap_devs.docs.index import build

    assert build(out, [(source, "abc1234def", pages, "bundled", None, redirects)]) == {"pages": 2, "sections": 2}
    again = DocsIndex(out)
    assert again.search("deploy to CF")[0][0].path == "guides/deployment/to-cf.md"
    assert again.pages_of("capire/docs")[0][0].sections == pages[0].sections


def test_a_synced_index_from_another_version_gives_way_to_the_bundled_one(
    tmp_path: Path, small_index: DocsIndex, monkeypatch
) -> None:
    import sap_devs

    store.reset()
    synced = store.synced_path()
    synced.parent.mkdir(parents=True)
    synced.write_bytes(small_index.path.read_bytes())
    bundled = tmp_path / "bundled.sqlite"
    bundled.write_bytes(small_index.path.read_bytes())
    monkeypatch.setattr(store, "bundled_path", lambda: bundled)
    assert store.current().path == synced  # written by this version: the synced copy serves
    store.reset()
    monkeypatch.setattr(sap_devs, "package_version", lambda: "99.0.0")  # the package was upgraded since
    assert store.current().path == bundled
    store.reset()
    bundled.unlink()
    assert store.current().path == synced  # nothing newer: the old synced copy still serves
    store.reset()


@pytest.fixture
def wording_index(tmp_path: Path) -> DocsIndex:
    """Pages whose words a developer writes differently: joined, camelCased, or on a deprecated page."""
    filler = {f"guides/api-{n}.md": f"# API {n}\n\nEvery API call sends a key.\n" for n in range(3)}
    cap = _tarball(
        tmp_path,
        "capire/docs",
        {
            **filler,
            "guides/verify-api-key.md": "# Verify API Key\n\nReject a call whose API key is missing.\n",
            "guides/rejected.md": "# Rejected Calls\n\nA call can be rejected for many reasons.\n",
            "guides/manifest.md": "# Manifest Settings\n\nSet `minUI5Version` in the manifest.\n",
            "guides/model.md": "# OData V4 Model\n\nThe model binds lists.\n",
            "guides/old-model.md": "# OData V4 Model Binding Lists (deprecated)\n\nThe OData V4 model binds lists.\n",
        },
    )
    out = tmp_path / "docs.sqlite"
    build_from({"capire/docs": (cap, "bundled", None)}, out)
    return DocsIndex(out)


def test_words_written_differently_still_find_their_page(wording_index: DocsIndex) -> None:
    def titles(query: str) -> list[str]:
        return [hit.title for hit in wording_index.search(query)[0]]

    assert titles("reject calls without apikey")[0] == "Verify API Key"  # one word in the query, two in the docs
    assert "Manifest Settings" in titles("raise the min ui5 version")  # minUI5Version reads as its words
    assert titles("odata v4 model binding lists")[0] == "OData V4 Model"  # the deprecated page gives way ...
    assert titles("deprecated odata v4 model binding lists")[0].endswith("(deprecated)")  # ... unless asked for


def test_character_references_read_as_the_page_shows_them() -> None:
    """SAP-docs write placeholders as ``&lt;tenant&gt;``: an agent reads ``<tenant>``; code keeps its text."""
    body = (
        f"<!-- loio{LOIO} -->\n\n# Open the Cockpit\n\n"
        "Go to https://cockpit.btp.cloud.sap/cockpit/?idp=&lt;tenant&gt;.accounts.ondemand.com &rarr; Security.\n\n"
        "Type `&lt;kbd&gt;` literally&nbsp;here; a query such as ?a=1&copy=2 stays.\n\n"
        "```xml\n<entry>&amp;</entry>\n```\n"
    )
    page = parse_page(CONNECTIVITY, "docs/open-the-cockpit-2b8ee62.md", body, {})
    assert page is not None
    text = "\n".join(s.text for s in page.sections)
    assert "?idp=<tenant>.accounts.ondemand.com → Security." in text
    assert "Type `&lt;kbd&gt;` literally here; a query such as ?a=1&copy=2 stays." in text
    assert "<entry>&amp;</entry>" in text


def test_a_heading_that_is_a_link_reads_as_its_text() -> None:
    """capire links reference headings (``### [cds. Service](core-services) {.class}``): the breadcrumb and
    the anchor come from the text, as on the site, not from the link target."""
    body = (
        '# Facade\n\n## [OASIS Vocabularies](https://github.com/oasis-tcs/x#y) { target="_blank"}\n\nSee there.\n\n'
        "### [cds. Service](core-services#core-services) {.class}\n\nThe base class.\n"
    )
    page = parse_page(CAPIRE, "node.js/cds-facade.md", body)
    assert page is not None
    assert [(s.heading, s.anchor) for s in page.sections] == [
        (["Facade", "OASIS Vocabularies"], "oasis-vocabularies"),
        (["Facade", "OASIS Vocabularies", "cds. Service"], "cds-service"),
    ]


@needs_bundled
@pytest.mark.parametrize(
    ("given", "product"),
    [
        ("SAPUI5", "ui5"),
        ("Integration Suite", "integration-suite"),
        ("CPI", "integration-suite"),
        ("HANA", "hana-cloud"),
    ],
)
async def test_search_docs_takes_the_product_names_agents_use(given: str, product: str) -> None:
    is_error, text, result = await call("search_docs", query="table", product=given, limit=2)
    assert not is_error, text
    assert {r["product"] for r in result["results"]} == {product}  # type: ignore[index]


async def test_an_unknown_or_ambiguous_product_lists_the_choices() -> None:
    is_error, text, _ = await call("search_docs", query="table", product="fiori")
    assert is_error and "'fiori-tools'" in text and "'ui5'" in text and 'got "fiori"' in text


def test_comments_in_a_sample_nested_in_a_list_are_not_headings() -> None:
    """SAP-docs nest most steps' samples in list items, so their fences are indented: a shell or properties
    comment inside ("# create a k8s secret") is code, not a section of the page, and a step's sample stays
    in its step's section."""
    body = (
        f"<!-- loio{LOIO} -->\n\n# Deploy\n\n## Procedure\n\n"
        "1.  Create the secret:\n\n    ```bash\n    # create a k8s secret\n    kubectl create secret x\n    ```\n\n"
        "2.  An indented line is list text:\n\n        # not a heading either\n\n## Results\n\nDone.\n"
    )
    page = parse_page(CONNECTIVITY, "docs/deploy-2b8ee62.md", body, {})
    assert page is not None
    assert [s.heading for s in page.sections] == [["Deploy", "Procedure"], ["Deploy", "Results"]]
    assert "# create a k8s secret" in page.sections[0].text and "kubectl create secret x" in page.sections[0].text


def test_anchors_are_made_from_the_heading_as_shown() -> None:
    """An underscore emphasis is not part of the anchor; a code span keeps its underscores (capire's
    "Things You _Must_ Fix" is #things-you-must-fix on the site)."""
    body = "# Upgrade\n\n## Things You _Must_ Fix\n\nA.\n\n## Changed: `up_` as Managed Association\n\nB.\n"
    page = parse_page(CAPIRE, "releases/upgrade.md", body)
    assert page is not None
    assert [s.anchor for s in page.sections] == ["things-you-must-fix", "changed-up_-as-managed-association"]


@needs_bundled
def test_value_help_is_one_sap_term_not_the_word_value() -> None:
    """'help' is a stop word, so 'value help' (F4 help) searched for 'value' alone and found no value help page."""
    store.reset()
    hits, _ = store.current().search("value help for a field in a fiori elements list report", limit=3)
    assert any(
        "value help" in f"{h.title} {h.section} {h.snippet}".lower() or "valuelist" in h.title.lower() for h in hits
    )


def test_links_between_capire_pages_become_public_urls() -> None:
    """capire links its pages without .md; an agent can read or cite the site's address, not ../guides/..."""
    links = {
        "guides/security/authentication.md": "https://cap.cloud.sap/docs/guides/security/authentication",
        "guides/security/index.md": "https://cap.cloud.sap/docs/guides/security/",
    }
    body = (
        "# Events\n\nSee [XSUAA](../guides/security/authentication#xsuaa-auth), [security](../guides/security/)"
        " and [elsewhere](../no/such/page) or [a site](https://example.org/x).\n"
    )
    page = parse_page(CAPIRE, "node.js/events.md", body, links)
    assert page is not None
    assert page.sections[0].text == (
        "See [XSUAA](https://cap.cloud.sap/docs/guides/security/authentication#xsuaa-auth), "
        "[security](https://cap.cloud.sap/docs/guides/security/) and [elsewhere](../no/such/page) "
        "or [a site](https://example.org/x)."
    )


def _sap_docs_text(body: str) -> str:
    """The ingested text of one SAP-docs page (its first section)."""
    page = parse_page(CONNECTIVITY, "docs/some-page-2b8ee62.md", f"<!-- loio{LOIO} -->\n\n{body}", {})
    assert page is not None
    return page.sections[0].text


def test_images_keep_what_their_alt_text_says() -> None:
    """An icon's alt text can be a table cell's only content ("Yes"); a file name or a boilerplate alt is noise."""
    text = _sap_docs_text(
        "# Support\n\n"
        "| Feature | Supported |\n| --- | --- |\n| Drafts | ![Yes](images/yes_icon_1234567.png) |\n\n"
        "Choose ![](images/plus_icon_9031137.png) (Add).\n\n"
        '![This graphic is explained in the accompanying text.](images/flow_b835ff9.png "The build flow")\n\n'
        "![This screenshot is explained in the accompanying text.](images/shot_1111111.png)\n\n"
        "Use `![x](y.png)` in Markdown.\n"
    )
    assert "| Drafts | Yes |" in text and "Choose  (Add)." in text and "The build flow" in text
    assert ".png" not in text.replace("`![x](y.png)`", "") and "accompanying text" not in text


def test_code_samples_inside_a_blockquote_stay_as_written() -> None:
    """SAP-docs put samples in "> ```" fences: a UI5 view's <Table> and an escaped &lt; are code, not markup."""
    text = _sap_docs_text(
        "# Creating an Entity\n\n> ### Example:\n> **View**\n>\n> ```\n>\n"
        '> <SimpleForm id="form">\n>     <Table id="items" items="{path : \'SO_2_SOITEM\'}">\n'
        ">          <ColumnListItem/>\n>     </Table>\n> <!-- a comment --> a &lt; b\n> </SimpleForm>\n> ```\n\n"
        "After the <b>sample</b>.\n"
    )
    assert '>     <Table id="items" items="{path : \'SO_2_SOITEM\'}">\n' in text and ">     </Table>\n" in text
    assert "> <!-- a comment --> a &lt; b" in text
    assert "After the sample." in text


def test_links_are_made_public_in_prose_only() -> None:
    """``handlers[0](index)`` in a sample is code, though ``index`` names a page of the folder."""
    links = {"node.js/index.md": "https://cap.cloud.sap/docs/node.js/"}
    body = "# Events\n\nSee [the SDK](index).\n\n```js\nconst done = handlers[0](index)\n```\n"
    page = parse_page(CAPIRE, "node.js/events.md", body, links)
    assert page is not None
    text = page.sections[0].text
    assert "[the SDK](https://cap.cloud.sap/docs/node.js/)" in text and "handlers[0](index)" in text


def test_github_alerts_read_as_labelled_notes() -> None:
    """The cheat sheets use GitHub's alert syntax; outside GitHub it reads as a bracketed code word."""
    text = clean("> [!NOTE]\n> Types are visible.\n\n```md\n> [!TIP]\n```")
    assert text.startswith("> **Note:**\n> Types are visible.") and "> [!TIP]" in text


def test_cheat_sheet_links_to_example_classes_open_on_github() -> None:
    """The cheat sheets point to their executable example classes: an agent gets the class on GitHub."""
    cheat_sheets = BY_REPO["sap-samples/abap-cheat-sheets"]
    links = {"02_Structures.md": "https://github.com/SAP-samples/abap-cheat-sheets/blob/main/02_Structures.md"}
    body = (
        "# Internal Tables\n\nRun [the example class](./src/zcl_demo_abap_internal_tables.clas.abap), see "
        "[structures](02_Structures.md#creating) and the [disclaimer](./README.md#disclaimer).\n"
    )
    page = parse_page(cheat_sheets, "01_Internal_Tables.md", body, links)
    assert page is not None
    blob = "https://github.com/SAP-samples/abap-cheat-sheets/blob/main/"
    assert page.sections[0].text == (
        f"Run [the example class]({blob}src/zcl_demo_abap_internal_tables.clas.abap), see "
        f"[structures]({blob}02_Structures.md#creating) and the [disclaimer]({blob}README.md#disclaimer)."
    )
