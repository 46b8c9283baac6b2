"""The sources of issue 29 that are not Help Portal guides: each page's address by its site's rule,
checked on the bundled tarballs against addresses the sites and repositories themselves give."""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import pytest

from sap_devs.docs import store
from sap_devs.docs.build import tarball_name
from sap_devs.docs.ingest import load_source, mkdocs_blocks, mkdocs_ids
from sap_devs.docs.sources import BY_REPO, DocSource, current_url, is_page, page_url
from sap_devs.mcp.tools.docs.search_docs import section_url

TARBALLS = Path(__file__).resolve().parent.parent / "data" / "docs"


def _tarball(repo: str) -> Path:
    path = TARBALLS / tarball_name(BY_REPO[repo.lower()])
    if not path.is_file():
        pytest.skip(f"{path.name} is not in this checkout")
    return path


def _raw(repo: str, inner: str) -> str:
    with tarfile.open(_tarball(repo)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.split("/", 1)[-1] == inner:
                return tar.extractfile(member).read().decode()  # type: ignore[union-attr]
    raise AssertionError(f"{inner} is not in the tarball of {repo}")


# --- SAP/styleguides: read on GitHub, as the repository README links its two guides --------------


def test_clean_abap_pages_are_their_github_files_in_english_only() -> None:
    source = BY_REPO["sap/styleguides"]
    _, pages, _ = load_source(source, str(_tarball("SAP/styleguides")))
    urls = {p.path: p.url for p in pages}
    # the README's "Style Guides" list links clean-abap/CleanABAP.md and abap-code-review/ABAPCodeReview.md
    assert urls["clean-abap/CleanABAP.md"] == "https://github.com/SAP/styleguides/blob/main/clean-abap/CleanABAP.md"
    assert (
        urls["abap-code-review/ABAPCodeReview.md"]
        == "https://github.com/SAP/styleguides/blob/main/abap-code-review/ABAPCodeReview.md"
    )
    assert all(url == f"https://github.com/SAP/styleguides/blob/main/{path}" for path, url in urls.items())
    assert len([p for p in urls if p.startswith("clean-abap/sub-sections/")]) >= 7
    # the translations and the cheat sheet's download list are no pages of their own
    assert not is_page(source, "clean-abap/CleanABAP_de.md")
    assert not is_page(source, "clean-abap/cheat-sheet/CheatSheet.md")
    assert {p.product for p in pages} == {"abap"} and source.licence == "CC-BY-3.0"


def test_every_clean_abap_rule_is_a_section_with_the_anchor_the_guide_links() -> None:
    _, pages, _ = load_source(BY_REPO["sap/styleguides"], str(_tarball("SAP/styleguides")))
    page = next(p for p in pages if p.path == "clean-abap/CleanABAP.md")
    raw = _raw("SAP/styleguides", "clean-abap/CleanABAP.md")
    contents = raw[raw.index("## Content") : raw.index("\n## How to\n")]
    linked = set(re.findall(r"\]\(#([^)]+)\)", contents))  # GitHub's heading ids, as the guide's own outline uses them
    anchors = [s.anchor for s in page.sections[1:]]
    assert len(anchors) > 150 and set(anchors) <= linked
    by_heading = {s.heading[-1]: s for s in page.sections}
    rule = by_heading["FINAL if not designed for inheritance"]  # an h4 rule under "Classes > Scope"
    assert rule.heading == ["Clean ABAP", "Classes", "Scope", "FINAL if not designed for inheritance"]
    assert rule.anchor == "final-if-not-designed-for-inheritance"
    assert "[Content](#content)" not in rule.text  # the outline breadcrumb is not content
    url = section_url("SAP/styleguides", page.url, rule.anchor)
    assert url == (
        "https://github.com/SAP/styleguides/blob/main/clean-abap/CleanABAP.md#final-if-not-designed-for-inheritance"
    )


def test_links_between_clean_abap_pages_lead_to_github() -> None:
    _, pages, _ = load_source(BY_REPO["sap/styleguides"], str(_tarball("SAP/styleguides")))
    text = "\n".join(s.text for p in pages if p.path == "clean-abap/CleanABAP.md" for s in p.sections)
    assert "(https://github.com/SAP/styleguides/blob/main/clean-abap/sub-sections/Exceptions.md)" in text


# --- static sites: MkDocs (directory URLs) and VitePress (no cleanUrls) ---------------------------


def test_site_rules_for_mkdocs_and_vitepress() -> None:
    mkdocs = DocSource("o/m", "ui5", "x", "m", site_base="https://example.org/m/", site_style="mkdocs")
    vitepress = DocSource(
        "o/v", "btp", "x", "v", docs_dir="docs/user", site_base="https://example.org/v/", site_style="vitepress"
    )
    assert page_url(mkdocs, "docs/pages/Server.md", None) == "https://example.org/m/pages/Server/"
    assert page_url(mkdocs, "docs/index.md", None) == "https://example.org/m/"
    assert page_url(vitepress, "docs/user/tutorials/README.md", None) == "https://example.org/v/tutorials/README.html"
    assert page_url(vitepress, "docs/user/a/index.md", None) == "https://example.org/v/a/"
    assert page_url(DocSource("o/x", "btp", "x", "x", site_base="https://example.org/"), "docs/a.md", None) is None


# Pages of each site as the sites' own pages link them (absolute links in the repositories' Markdown).
KNOWN = {
    "UI5/cli": {  # the v4 branch's MkDocs build, as the site's v4/sitemap.xml (gh-pages) lists its pages
        "docs/index.md": "https://ui5.github.io/cli/v4/",
        "docs/pages/Configuration.md": "https://ui5.github.io/cli/v4/pages/Configuration/",
        "docs/pages/Server.md": "https://ui5.github.io/cli/v4/pages/Server/",
        "docs/pages/FAQ.md": "https://ui5.github.io/cli/v4/pages/FAQ/",
        "docs/updates/migrate-v3.md": "https://ui5.github.io/cli/v4/updates/migrate-v3/",
        "docs/updates/migrate-v4.md": "https://ui5.github.io/cli/v4/updates/migrate-v4/",
        "docs/pages/extensibility/CustomTasks.md": "https://ui5.github.io/cli/v4/pages/extensibility/CustomTasks/",
        "docs/pages/extensibility/ProjectShims.md": "https://ui5.github.io/cli/v4/pages/extensibility/ProjectShims/",
    },
    "kyma-project/kyma": {  # the troubleshooting README links its pages so
        "docs/04-operation-guides/troubleshooting/01-k3d-fails-on-linux.md": (
            "https://kyma-project.io/04-operation-guides/troubleshooting/01-k3d-fails-on-linux.html"
        ),
        "docs/04-operation-guides/troubleshooting/security/sec-01-certificates-gardener.md": (
            "https://kyma-project.io/04-operation-guides/troubleshooting/security/sec-01-certificates-gardener.html"
        ),
        "docs/README.md": "https://kyma-project.io/README.html",  # the site's "Documentation" link, /README
    },
    "kyma-project/api-gateway": {  # docs/user/ copied to external-content/api-gateway/docs/user/ (deploy.yml)
        "docs/user/troubleshooting-guides/README.md": (  # as kyma's troubleshooting README links it
            "https://kyma-project.io/external-content/api-gateway/docs/user/troubleshooting-guides/README.html"
        ),
        "docs/user/expose-workloads/significance-of-rule-path-and-method-order.md": (  # as its own pages link it
            "https://kyma-project.io/external-content/api-gateway/docs/user/expose-workloads/"
            "significance-of-rule-path-and-method-order.html"
        ),
    },
    "kyma-project/istio": {
        "docs/user/troubleshooting/README.md": (
            "https://kyma-project.io/external-content/istio/docs/user/troubleshooting/README.html"
        ),
    },
    "kyma-project/serverless": {
        "docs/user/troubleshooting-guides/README.md": (
            "https://kyma-project.io/external-content/serverless/docs/user/troubleshooting-guides/README.html"
        ),
    },
    "kyma-project/telemetry-manager": {
        "docs/user/troubleshooting.md": (
            "https://kyma-project.io/external-content/telemetry-manager/docs/user/troubleshooting.html"
        ),
    },
    "kyma-project/btp-manager": {
        "docs/user/troubleshooting/README.md": (
            "https://kyma-project.io/external-content/btp-manager/docs/user/troubleshooting/README.html"
        ),
    },
}


@pytest.mark.parametrize("repo", sorted(KNOWN))
def test_site_pages_have_the_address_their_site_links_them_by(repo: str) -> None:
    source = BY_REPO[repo.lower()]
    _, pages, _ = load_source(source, str(_tarball(repo)))
    urls = {p.path: p.url for p in pages}
    for path, url in KNOWN[repo].items():
        assert urls.get(path) == url, path
    prefix = source.site_base
    assert prefix and all(u.startswith(prefix) for u in urls.values())
    assert len(set(urls.values())) == len(urls)  # no two pages share an address
    assert all("{docsify" not in p.title for p in pages)  # Kyma's old docsify markers are no part of a title


def test_ui5_cli_keeps_the_samples_in_its_tabs_and_admonitions_as_code() -> None:
    _, pages, _ = load_source(BY_REPO["ui5/cli"], str(_tarball("UI5/cli")))
    server = next(p for p in pages if p.path == "docs/pages/GettingStarted.md")
    headings = [s.heading[-1] for s in server.sections]
    assert not any(h.startswith(("Global", "In your project")) for h in headings)  # "# Global" in a tab's sample
    text = "\n".join(s.text for s in server.sections)
    assert "```sh\n# Global installation to have the command available\nnpm install --global @ui5/cli" in text
    assert "!!!" not in text and '=== "' not in text
    # the repository was renamed: ids and links written with the old name still find its pages
    assert BY_REPO["sap/ui5-tooling"] is BY_REPO["ui5/cli"]


def test_ui5_cli_pages_are_the_sites_pages_and_nothing_else() -> None:
    source = BY_REPO["ui5/cli"]
    with tarfile.open(_tarball("UI5/cli")) as tar:
        files = [m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()]
    _, pages, _ = load_source(source, str(_tarball("UI5/cli")))
    paths = {p.path for p in pages}
    # the pages of the site's navigation (mkdocs.yml nav, less the generated CLI page) and Privacy
    assert {"docs/pages/Workspace.md", "docs/pages/extensibility/CustomServerMiddleware.md"} <= paths
    assert {"docs/updates/migrate-v1.md", "docs/pages/Privacy.md", "docs/pages/ESSupport.md"} <= paths
    # in the tarball, but no page: the contributors' guidelines, the JSDoc landing stub, the repository README
    for other in ("docs/Guidelines.md", "docs/indexJsdoc.md", "README.md"):
        assert other in files and other not in paths and not is_page(source, other)
    assert len(paths) == len([f for f in files if f.endswith(".md")]) - 3


def test_ui5_cli_sections_have_the_anchors_of_the_sites_headings() -> None:
    _, pages, _ = load_source(BY_REPO["ui5/cli"], str(_tarball("UI5/cli")))
    anchors = {(p.path, s.heading[-1]): s.anchor for p in pages for s in p.sections}
    # ids as the v4 build's HTML has them (gh-pages v4/pages/*/index.html): Python-Markdown's toc slugs
    assert anchors["docs/pages/Configuration.md", "Validation / IDE support"] == "validation-ide-support"
    assert anchors["docs/pages/FAQ.md", "Why package.json? / Why npm?"] == "why-packagejson-why-npm"
    assert anchors["docs/pages/GettingStarted.md", "⚡️ Quick Start: OpenUI5 Sample App"] == (
        "quick-start-openui5-sample-app"
    )
    assert anchors["docs/index.md", "💻 UI5 CLI"] == "ui5-cli_1"  # the page's title took "ui5-cli"
    hit = "https://ui5.github.io/cli/v4/pages/Configuration/"
    assert section_url("UI5/cli", hit, "validation-ide-support") == hit + "#validation-ide-support"


def test_mkdocs_ids_number_repeated_headings_as_python_markdown_does() -> None:
    anchor = mkdocs_ids()
    assert anchor("Own", "paths") == "paths"  # an id the page gives counts as taken
    assert [anchor(h) for h in ("Excludes", "Paths", "Excludes", "Excludes", "Excludes_1", "?!")] == [
        "excludes",
        "paths_1",
        "excludes_1",
        "excludes_2",
        "excludes_3",
        "_1",
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("https://ui5.github.io/cli/stable/pages/Server/", "https://ui5.github.io/cli/v4/pages/Server/"),
        ("https://ui5.github.io/cli/stable/", "https://ui5.github.io/cli/v4/"),
        ("https://ui5.github.io/cli/pages/Builder/#minify", "https://ui5.github.io/cli/v4/pages/Builder/#minify"),
        ("https://sap.github.io/ui5-tooling/stable/pages/FAQ/", "https://ui5.github.io/cli/v4/pages/FAQ/"),
        (
            "https://sap.github.io/ui5-tooling/v4/updates/migrate-v4/",
            "https://ui5.github.io/cli/v4/updates/migrate-v4/",
        ),
        ("https://sap.github.io/ui5-tooling/pages/Project/", "https://ui5.github.io/cli/v4/pages/Project/"),
        # the current address, other versions' pages (their text differs) and other sites stay as they are
        ("https://ui5.github.io/cli/v4/pages/Server/", "https://ui5.github.io/cli/v4/pages/Server/"),
        ("https://ui5.github.io/cli/v3/pages/Server/", "https://ui5.github.io/cli/v3/pages/Server/"),
        ("https://ui5.github.io/cli/v5/pages/Server", "https://ui5.github.io/cli/v5/pages/Server"),
        ("https://ui5.github.io/cli/next/pages/Server", "https://ui5.github.io/cli/next/pages/Server"),
        ("https://sap.github.io/ui5-tooling/v3/pages/Server/", "https://sap.github.io/ui5-tooling/v3/pages/Server/"),
        ("https://cap.cloud.sap/docs/cds/cdl", "https://cap.cloud.sap/docs/cds/cdl"),
    ],
)
def test_old_and_alias_addresses_of_the_ui5_cli_pages_are_their_current_ones(old: str, new: str) -> None:
    assert current_url(old) == new


def test_mkdocs_tabs_and_admonitions_nest_and_leave_other_markdown_alone() -> None:
    page = "\n".join(
        [
            "Title",
            "=====",  # a setext underline is no tab
            '=== "module"',
            "    !!! info",
            "        Since v3.5.0.",
            "    ```yaml",
            "    builder: {}",
            "    ```",
            "",
            "After the tab.",
            "```sh",
            '=== "not a tab inside code"',
            "```",
        ]
    )
    assert mkdocs_blocks(page).split("\n") == [
        "Title",
        "=====",
        "**module:**",
        "**Info:**",
        "Since v3.5.0.",
        "```yaml",
        "builder: {}",
        "```",
        "",
        "After the tab.",
        "```sh",
        '=== "not a tab inside code"',
        "```",
    ]


needs_bundled = pytest.mark.skipif(
    not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install` (hatch_build.py)"
)


@needs_bundled
@pytest.mark.parametrize(
    ("query", "product", "repo", "path", "section"),
    [
        (
            "should I use lv_ and lt_ prefixes for ABAP variable names",
            "abap",
            "SAP/styleguides",
            "clean-abap/CleanABAP.md",
            "Avoid encodings, esp. Hungarian notation and prefixes",
        ),
        (
            "exclude a file from Component-preload.js in ui5.yaml",
            "ui5",
            "UI5/cli",
            "docs/pages/Configuration.md",
            "Component Preload Generation",
        ),
        (
            "k3d cluster create fails cannot bind to reserved port 80",
            "btp",
            "kyma-project/kyma",
            "docs/04-operation-guides/troubleshooting/01-k3d-fails-on-linux.md",
            "",
        ),
        (
            "why do I get CORS errors after applying APIRule v2",
            "btp",
            "kyma-project/api-gateway",
            "docs/user/custom-resources/apirule/04-70-changes-in-apirule-v2.md",
            "CORS Policy Is Not Applied by Default",
        ),
    ],
)
def test_the_bundled_index_answers_from_each_site_source(
    query: str, product: str, repo: str, path: str, section: str
) -> None:
    store.reset()
    index = store.current()
    pages, _ = index.pages_of(repo)
    _, tarball_pages, _ = load_source(BY_REPO[repo.lower()], str(_tarball(repo)))
    assert len(pages) == len(tarball_pages)  # every page of the tarball is indexed
    hits, _ = index.search(query, product=product, limit=5)
    found = [h for h in hits if h.source == repo and h.path == path]
    assert found, [(h.source, h.path) for h in hits]
    assert found[0].section.endswith(section)
    doc = index.read(found[0].page_id)
    assert doc.url == found[0].url and doc.source.licence == BY_REPO[repo.lower()].licence


@needs_bundled
@pytest.mark.anyio
async def test_read_doc_finds_a_ui5_cli_page_by_the_links_users_hold() -> None:
    from sap_devs.mcp.dispatch import invoke
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry
    from tests.conftest import bundled_layer

    registry = Registry.default()
    ctx = ToolContext(cwd=Path.cwd(), layers=[bundled_layer()])
    for link in (
        "https://ui5.github.io/cli/v4/pages/Server/",
        "https://ui5.github.io/cli/stable/pages/Server/#ssl-certificates",
        "https://sap.github.io/ui5-tooling/stable/pages/Server/",
    ):
        outcome = await invoke(registry.get("read_doc"), {"url": link, "max_chars": 500}, ctx)  # type: ignore[arg-type]
        assert not outcome.is_error, outcome.text
        assert outcome.structured["path"] == "docs/pages/Server.md"  # type: ignore[index]
        assert outcome.structured["url"] == "https://ui5.github.io/cli/v4/pages/Server/"  # type: ignore[index]
    # a section's address carries the heading id the site gives it
    server = "https://ui5.github.io/cli/stable/pages/Server/"
    section = await invoke(registry.get("read_doc"), {"url": server, "section": "SSL Certificates"}, ctx)  # type: ignore[arg-type]
    assert section.structured["url"] == "https://ui5.github.io/cli/v4/pages/Server/#ssl-certificates"  # type: ignore[index]
    # a v5 page is not the v4 page of the same path: no answer rather than another version's text
    outcome = await invoke(registry.get("read_doc"), {"url": "https://ui5.github.io/cli/v5/pages/Server"}, ctx)  # type: ignore[arg-type]
    assert outcome.is_error and "No documentation page" in outcome.text
