"""The SAP documentation repositories sap-devs indexes, and how each file maps to its public page.

Each source is a public GitHub repository of Markdown. The public address of a page is derived from
the file, never guessed: capire pages by path, SAP-docs pages by the ``loio`` id each page starts
with and the guide (product, deliverable) its folder belongs to, as the repository README lists them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

CC_BY = "CC-BY-4.0"
APACHE = "Apache-2.0"

PRODUCTS = (
    "cap",
    "ui5",
    "fiori-tools",
    "btp",
    "connectivity",
    "bas",
    "hana-cloud",
    "integration-suite",
    "abap",
    "api-style-guide",
    "cloud-sdk",
)


@dataclass(frozen=True)
class DocSource:
    repo: str  # owner/name on GitHub
    product: str
    licence: str
    site: str  # what the pages are, for attribution
    branch: str = "main"
    docs_dir: str = "docs"  # only Markdown below this folder is indexed ("" = the whole repository)
    help_base: str | None = None  # SAP Help Portal base for loio pages: <help_base>/<loio>.html
    folder_bases: dict[str, str] = field(default_factory=dict)  # first folder under docs_dir -> help base
    folder_products: dict[str, str] = field(default_factory=dict)  # first folder -> product, when it differs
    # Sites that are not the Help Portal (the fields below are read for them only):
    on_github: bool = False  # the pages are read on GitHub itself: /blob/<branch>/<path>, GitHub heading anchors
    site_base: str | None = None  # where a static site publishes docs_dir; with site_style the URL rule
    # "mkdocs": <stem>/ (use_directory_urls); "vitepress": <stem>.html; "vitepress-clean": <stem> (cleanUrls);
    # "docusaurus": each first folder (folder_bases) is a docs plugin at site_base + its route base path,
    # the page's address from its front matter (id, slug) as Docusaurus makes it (docusaurus_route)
    site_style: str = ""
    # earlier or alias addresses of site_base (most specific first): a link under one of them means the page
    # of the same path under site_base (read_doc resolves links users and training data hold)
    old_site_bases: tuple[str, ...] = ()
    only: tuple[str, ...] = ()  # when set, the pages: these files, or files under these folders ("x/")
    skip: tuple[str, ...] = ()  # files (or folders, "x/") of docs_dir about the site or project, not the product
    folder_flavours: dict[str, str] = field(default_factory=dict)  # first folder -> the flavour its pages are
    readme_pages: bool = False  # README.md is a page (VitePress serves it as README.html)
    section_level: int = 3  # headings down to this level start sections (Clean ABAP's rules are h4)
    # pages made from data bundled with sap-devs, not from a tarball (the API reference): never synced, and no
    # flavour is read from their text (an OData V4 model class is not a V4-only answer)
    from_package: bool = False
    holder: str = "SAP SE or an SAP affiliate company"  # the copyright line attribution names

    @property
    def name(self) -> str:
        return self.repo.split("/", 1)[1]

    @property
    def owner(self) -> str:
        return self.repo.split("/", 1)[0]

    def attribution(self, url: str) -> str:
        return f"Source: {url}, from {self.site} ({self.repo}), © {self.holder}, licensed under {self.licence}."


HELP = "https://help.sap.com/docs"

SOURCES: tuple[DocSource, ...] = (
    DocSource(
        "capire/docs",
        "cap",
        APACHE,
        "Capire, the CAP documentation",
        docs_dir="",
        site_base="https://cap.cloud.sap/docs/",
        site_style="vitepress-clean",  # capire's VitePress has cleanUrls: guides/x.md is guides/x
    ),
    DocSource("SAP-samples/abap-cheat-sheets", "abap", APACHE, "the ABAP cheat sheets", docs_dir="", on_github=True),
    DocSource("SAP-docs/sapui5", "ui5", CC_BY, "the SAPUI5 documentation"),
    DocSource(
        "SAP-docs/btp-cloud-platform",
        "btp",
        CC_BY,
        "the SAP BTP documentation",
        help_base=f"{HELP}/btp/sap-business-technology-platform",
    ),
    DocSource(
        "SAP-docs/sap-hana-cloud-hana-database",
        "hana-cloud",
        CC_BY,
        "the SAP HANA Cloud, SAP HANA Database documentation",
        folder_bases={
            "sql-ref": f"{HELP}/HANA_CLOUD_DATABASE/c1d3f60099654ecfb3fe36ac93c121bb",
            "di-ref": f"{HELP}/HANA_CLOUD_DATABASE/c2cc2e43458d4abda6788049c58143dc",
            "devguide-for-cf-mta-bas": f"{HELP}/HANA_CLOUD_DATABASE/c2b99f19e9264c4d9ae9221b22f6f589",
            "devguide-for-cf-mta-webide": f"{HELP}/HANA_CLOUD_DATABASE/b9902c314aef4afb8f7a29bf8c5b37b3",
        },
    ),
    DocSource(
        "SAP-docs/btp-integration-suite",
        "integration-suite",
        CC_BY,
        "the SAP Integration Suite documentation",
        folder_bases={
            "ISuite": f"{HELP}/SAP_INTEGRATION_SUITE/51ab953548be4459bfe8539ecaeee98d",
            "apim": f"{HELP}/sap-api-management/sap-api-management",
            "ci": f"{HELP}/cloud-integration/sap-cloud-integration",
            "ISuite_Integrations_APIs": f"{HELP}/integration-suite/isuite-integrations-apis",
            "ISuite_Event_Mesh": f"{HELP}/integration-suite/isuite-event-mesh",
            "ISuite_Integration_Advisor": f"{HELP}/integration-suite/isuite-integration-advisor",
            "ISuite_Trading_Partner_Management": f"{HELP}/integration-suite/isuite-trading-partner-management",
            "ISuite_OData_Provisioning": f"{HELP}/integration-suite/isuite-odata-provisioning",
            "ISuite_Data_Space_Integration": f"{HELP}/integration-suite/isuite-data-space-integration",
            "ISuite_Migration_Assessment": f"{HELP}/integration-suite/migration-assessment",
            "ISuite_Integration_Assessment": f"{HELP}/integration-suite/integration-assessment",
            "ISuite_API_Composition": f"{HELP}/integration-suite/api-composition",
            "ISuite_Edge_Integration_Cell": f"{HELP}/integration-suite/isuite-edge-integration-cell",
        },
    ),
    DocSource(
        "SAP-docs/btp-fiori-tools",
        "fiori-tools",
        CC_BY,
        "the SAP Fiori tools documentation",
        help_base=f"{HELP}/SAP_FIORI_tools/17d50220bcd848aa854c9c182d65b699",
    ),
    DocSource(
        "SAP-docs/btp-business-application-studio",
        "bas",
        CC_BY,
        "the SAP Business Application Studio documentation",
        help_base=f"{HELP}/bas/sap-business-application-studio",
    ),
    DocSource(
        "SAP-docs/btp-developer-guide",
        "btp",
        CC_BY,
        "the SAP BTP Developer's Guide",
        help_base=f"{HELP}/BTP/0c8c1db388f645159e134a005aaabbcf",
    ),
    DocSource(
        "SAP-docs/btp-connectivity",
        "connectivity",
        CC_BY,
        "the SAP BTP Connectivity documentation",
        help_base=f"{HELP}/connectivity/sap-btp-connectivity-cf",
    ),
    DocSource(
        "SAP-docs/btp-credential-store",
        "btp",
        CC_BY,
        "the SAP Credential Store documentation",
        help_base=f"{HELP}/CREDENTIAL_STORE/601525c6e5604e4192451d5e7328fa3c",
    ),
    DocSource(
        "SAP-docs/btp-job-scheduling-service",
        "btp",
        CC_BY,
        "the SAP Job Scheduling service documentation",
        help_base=f"{HELP}/JOB_SCHEDULER/07b57c2f4b944bcd8470d024723a1631",
    ),
    DocSource(
        "SAP-docs/btp-cloud-transport-management",
        "btp",
        CC_BY,
        "the SAP Cloud Transport Management documentation",
        help_base=f"{HELP}/TRANSPORT_MANAGEMENT_SERVICE/7f7160ec0d8546c6b3eab72fb5ad6fd8",
    ),
    DocSource(
        "SAP-docs/btp-continuous-integration-and-delivery",
        "btp",
        CC_BY,
        "the SAP Continuous Integration and Delivery documentation",
        folder_bases={  # the service guide and the three CI/CD overview guides, as the repository README lists them
            "cicd": f"{HELP}/CONTINUOUS_DELIVERY/99c72101f7ee40d0b2deb4df72ba1ad3",
            "cicd-intro": f"{HELP}/CICD_OVERVIEW/ee5a61247061455ab232c19179fe4c3b",
            "cicd-sol": f"{HELP}/CICD_OVERVIEW/8cacec64ed854b2a88e9a0973e0f97a2",
            "cicd-bp": f"{HELP}/CICD_OVERVIEW/3324745951b44b578bd65221d2ff8f9a",
        },
    ),
    DocSource(
        "SAP-docs/btp-cloud-identity-services",
        "btp",
        CC_BY,
        "the SAP Cloud Identity Services documentation",
        help_base=f"{HELP}/cloud-identity-services/cloud-identity-services",
    ),
    DocSource(
        "SAP-docs/sap-artificial-intelligence",
        "btp",
        CC_BY,
        "the SAP AI Core and SAP AI Launchpad documentation",
        folder_bases={  # the two service guides the repository README links (generative AI hub is in AI Core's)
            "sap-ai-core": f"{HELP}/AI_CORE/2d6c5984063c40a59eda62f4a9135bee",
            "sap-ai-launchpad": f"{HELP}/AI_LAUNCHPAD/92d77f26188e4582897b9106b9cb72e0",
        },
    ),
    DocSource(
        "SAP-docs/btp-build-work-zone-advanced",
        "btp",
        CC_BY,
        "the SAP Build Work Zone, advanced edition Developer Guide",
        help_base=f"{HELP}/WZ/7d3b9c7211ca4d7a9630b524205ee836",
    ),
    DocSource(
        "SAP-docs/btp-service-manager",
        "btp",
        CC_BY,
        "the SAP Service Manager documentation",
        help_base=f"{HELP}/SERVICEMANAGEMENT/09cc82baadc542a688176dce601398de",
    ),
    DocSource(
        "SAP-docs/btp-cloud-logging",
        "btp",
        CC_BY,
        "the SAP Cloud Logging documentation",
        help_base=f"{HELP}/cloud-logging/cloud-logging",
    ),
    DocSource(
        "SAP/styleguides",
        "abap",
        "CC-BY-3.0",  # .reuse/dep5: Files: * License: CC-BY-3.0
        "the Clean ABAP style guide and the ABAP code review guide",
        docs_dir="",
        on_github=True,  # the repository README links the guides as its Markdown files; there is no other site
        # English only: the translations (CleanABAP_de.md ...) would answer the same questions a second time
        only=("clean-abap/CleanABAP.md", "clean-abap/sub-sections/", "abap-code-review/ABAPCodeReview.md"),
        section_level=4,  # CleanABAP.md is one page of rules, most of them h4 under an h3 topic
    ),
    DocSource(
        "UI5/cli",  # formerly SAP/ui5-tooling (mkdocs.yml: repo_url https://github.com/UI5/cli)
        "ui5",
        APACHE,
        "the UI5 CLI documentation",
        # The site's default is the released v4: https://ui5.github.io/cli/ sends to stable/, and stable is
        # mike's alias of v4 (the v4 branch's deploy-docs.yml: mike version v4, alias stable, set-default
        # stable; gh-pages' versions.json). The v4 branch's docs/ is MkDocs with directory URLs, its
        # sitemap lists the pages under /cli/v4/. main's docs (VitePress, /cli/v5/ and /cli/next/) are
        # UI5 CLI 5.0.0-alpha, which npm's default install does not give: not this source.
        branch="v4",
        site_base="https://ui5.github.io/cli/v4/",
        site_style="mkdocs",
        # the same pages at the alias and at the addresses of the repository's former name; a link without a
        # version goes to stable/ (the site's 404.html adds it). Other versions' pages (v2, v3, v5) differ.
        old_site_bases=(
            "https://ui5.github.io/cli/stable/",
            "https://ui5.github.io/cli/",
            "https://sap.github.io/ui5-tooling/v4/",
            "https://sap.github.io/ui5-tooling/stable/",
            "https://sap.github.io/ui5-tooling/",
        ),
        skip=("docs/indexJsdoc.md", "docs/Guidelines.md"),  # the JSDoc landing page; the contributors' rules
    ),
    # kyma-project.io is one VitePress site (.vitepress/config.mjs: srcDir docs, base /, no cleanUrls): the
    # kyma repository's docs/ at the root, each module's docs/user/ copied to external-content/<repo>/docs/user/
    # (.github/workflows/deploy.yml); the docs link their pages so, e.g. .../istio/docs/user/troubleshooting/README.html
    DocSource(
        "kyma-project/kyma",
        "btp",
        APACHE,
        "the Kyma documentation",
        site_base="https://kyma-project.io/",
        site_style="vitepress",
        readme_pages=True,
        skip=("docs/vitepress-structure.md",),  # how the site itself is built
    ),
    DocSource(
        "kyma-project/api-gateway",
        "btp",
        APACHE,
        "the Kyma API Gateway module documentation",
        docs_dir="docs/user",
        site_base="https://kyma-project.io/external-content/api-gateway/docs/user/",
        site_style="vitepress",
        readme_pages=True,
    ),
    DocSource(
        "kyma-project/istio",
        "btp",
        APACHE,
        "the Kyma Istio module documentation",
        docs_dir="docs/user",
        site_base="https://kyma-project.io/external-content/istio/docs/user/",
        site_style="vitepress",
        readme_pages=True,
    ),
    DocSource(
        "kyma-project/serverless",
        "btp",
        APACHE,
        "the Kyma Serverless module documentation",
        docs_dir="docs/user",
        site_base="https://kyma-project.io/external-content/serverless/docs/user/",
        site_style="vitepress",
        readme_pages=True,
    ),
    DocSource(
        "kyma-project/telemetry-manager",
        "btp",
        APACHE,
        "the Kyma Telemetry module documentation",
        docs_dir="docs/user",
        site_base="https://kyma-project.io/external-content/telemetry-manager/docs/user/",
        site_style="vitepress",
        readme_pages=True,
    ),
    DocSource(
        "kyma-project/btp-manager",
        "btp",
        APACHE,
        "the Kyma SAP BTP Operator module documentation",
        docs_dir="docs/user",
        site_base="https://kyma-project.io/external-content/btp-manager/docs/user/",
        site_style="vitepress",
        readme_pages=True,
    ),
    DocSource(
        "SAP-docs/btp-application-autoscaler",
        "btp",
        CC_BY,
        "the Application Autoscaler documentation",
        help_base=f"{HELP}/application-autoscaler/application-autoscaler",
    ),
    DocSource(
        "SAP-docs/btp-object-store",
        "btp",
        CC_BY,
        "the SAP BTP Object Store documentation",
        help_base=f"{HELP}/ObjectStore/2ee77ef7ea4648f9ab2c54ee3aef0a29",  # the README's guide, by the ids its pages link
    ),
    DocSource(
        "SAP-docs/btp-custom-domain-service",
        "btp",
        CC_BY,
        "the SAP Custom Domain service documentation",
        folder_bases={  # Custom Domain Manager (cockpit UI) and the CLI-based service, as the repository README lists them
            "cd-ui": f"{HELP}/CUSTOM_DOMAINS/6f35a23466ee4df0b19085c9c52f9c29",
            "cd-cli": f"{HELP}/CUSTOM_DOMAINS/74af813c7ee2457cb5eddca0cc70a0c1",
        },
    ),
    DocSource(
        "SAP-docs/btp-private-link-service",
        "btp",
        CC_BY,
        "the SAP Private Link service documentation",
        help_base=f"{HELP}/PRIVATE_LINK/42acd88cb4134ba2a7d3e0e62c9fe6cf",
    ),
    DocSource(
        "SAP-docs/btp-document-management-service",
        "btp",
        CC_BY,
        "the SAP Document Management service documentation",
        folder_bases={  # the service guide and the applications' user guide, as the repository README lists them
            "service-guide": f"{HELP}/document-management-service/sap-document-management-service",
            "mobile": f"{HELP}/document-management-service/using-sap-document-management-service-applications",
        },
    ),
    DocSource(
        "SAP-docs/btp-best-practices-guide",
        "btp",
        CC_BY,
        "the Best Practices for SAP BTP guide",
        help_base=f"{HELP}/BTP/df50977d8bfa4c9a8a063ddb37113c43",  # the README's deliverable, as its pages link it
    ),
    DocSource(
        "SAP-docs/btp-runtime-comparison-guide",
        "btp",
        CC_BY,
        "the comparison guide of the SAP BTP Kyma and Cloud Foundry runtimes",
        help_base=f"{HELP}/BTP/8cc4e6b957be41d0b7a07680d1d9bb07",
    ),
    DocSource(
        "SAP-docs/btp-ui-theme-designer",
        "btp",
        CC_BY,
        "the UI theme designer documentation",
        folder_bases={  # one guide per environment, as the repository README lists them
            "cf": f"{HELP}/btp/ui-theme-designer",
            "neo": f"{HELP}/btp/ui-theme-designer-for-neo-environment",
            "abap": f"{HELP}/ABAP_PLATFORM_NEW/7b10839d7f5f45b4b2a1a96fc95fd9bb",
        },
    ),
    DocSource(
        "SAP-docs/btp-task-center",
        "btp",
        CC_BY,
        "the SAP Task Center documentation",
        help_base=f"{HELP}/TASK_CENTER/08cbda59b4954e93abb2ec85f1db399d",
    ),
    DocSource(
        "SAP-docs/api-style-guide",
        "api-style-guide",
        CC_BY,
        "the SAP API Style Guide",
        help_base=f"{HELP}/SNG_4_APIDOC/53e39c8b7c924c28a2575be50bc09786",
    ),
    # The SAP Cloud SDK site (docusaurus.config.js: url https://sap.github.io, baseUrl /cloud-sdk/, trailingSlash
    # false) has a docs plugin per SDK: docs-js at routeBasePath docs/js (its current version; v1 lives in
    # docs-js_versioned_docs/), docs-java at docs/java. Pages are .mdx; the release-notes archive and the
    # video pages are left out (data/docs/README.md says why).
    DocSource(
        "SAP/cloud-sdk",
        "cloud-sdk",
        APACHE,
        "the SAP Cloud SDK documentation",
        docs_dir="",
        site_base="https://sap.github.io/cloud-sdk/",
        site_style="docusaurus",
        folder_bases={"docs-js": "docs/js/", "docs-java": "docs/java/"},
        only=("docs-js/", "docs-java/"),
        skip=("docs-java/release-notes/", "docs-java/video/", "docs-js/video/", "docs-js/release-notes/"),
        folder_flavours={"docs-js": "cap-node", "docs-java": "cap-java"},
    ),
)

# One page per symbol of the OpenUI5 API data bundled for get_ui5_api (docs/api_reference.py): built with every
# index, not downloaded; the symbols' JSDoc is OpenUI5's (UI5/openui5, Apache-2.0), read from @openui5/types
API_REFERENCE = DocSource(
    "UI5/openui5",
    "ui5",
    APACHE,
    "the OpenUI5 API reference",
    docs_dir="",
    from_package=True,
    holder="SAP SE or an SAP affiliate company and OpenUI5 contributors",  # as @openui5/types' LICENSE says
)

# capire moved from cap-js/docs; links and query sets written against the old name still mean these pages
REPO_ALIASES = {"cap-js/docs": "capire/docs", "sap/ui5-tooling": "UI5/cli"}
BY_REPO = {s.repo.lower(): s for s in (*SOURCES, API_REFERENCE)}
BY_REPO.update({old: BY_REPO[new.lower()] for old, new in REPO_ALIASES.items()})

# repository files that are about the repository, not the product
_NOT_PAGES = frozenset(
    {"readme.md", "contributing.md", "code_of_conduct.md", "menu.md", "license.md", "changelog.md", "redirects.md"}
)


def page_suffix(source: DocSource, path: str) -> str | None:
    """The Markdown extension ``path`` has for ``source`` (".md"; Docusaurus sites also ".mdx"), else None."""
    if path.endswith(".md"):
        return ".md"
    if source.site_style == "docusaurus" and path.endswith(".mdx"):
        return ".mdx"
    return None


def _listed(path: str, entries: tuple[str, ...]) -> bool:
    return any(path == e or (e.endswith("/") and path.startswith(e)) for e in entries)


def is_page(source: DocSource, path: str) -> bool:
    """Whether ``path`` (relative to the repository root) is a documentation page of ``source``."""
    name = path.rsplit("/", 1)[-1].lower()
    suffix = page_suffix(source, path)
    if suffix is None or (name in _NOT_PAGES and not (source.readme_pages and name == "readme.md")):
        return False
    parts = path.split("/")
    if any(p.startswith(".") for p in parts) or "LICENSES" in parts or _listed(path, source.skip):
        return False
    if source.only and not _listed(path, source.only):
        return False
    return not source.docs_dir or path.startswith(source.docs_dir + "/")


def file_url(source: DocSource, path: str) -> str | None:
    """Where any file of a source published as its GitHub repository can be opened (the cheat sheets link
    their executable example classes, ./src/zcl_demo_abap_*.clas.abap); None for the other sites."""
    if not source.on_github or path.startswith("../") or path.startswith("/"):
        return None
    return f"https://github.com/{source.repo}/blob/{source.branch}/{path}"


def page_url(source: DocSource, path: str, loio: str | None, front: Mapping[str, str] | None = None) -> str | None:
    """The public address of a page, or None when it cannot be derived (the page is then not indexed).
    ``front`` is the page's front matter (a Docusaurus page's id and slug decide its address)."""
    if source.on_github:
        return file_url(source, path)
    if source.site_style == "docusaurus":
        return docusaurus_url(source, path, front or {})
    if source.site_base:
        return site_url(source, path)
    if loio is None:
        return None
    if source.repo == "SAP-docs/sapui5":
        return f"https://ui5.sap.com/#/topic/{loio}"
    base = source.help_base
    if source.folder_bases:
        inner = path[len(source.docs_dir) + 1 :] if source.docs_dir else path
        base = source.folder_bases.get(inner.split("/", 1)[0])
    return f"{base}/{loio}.html" if base else None


_VERSION = re.compile(r"(?:v\d+|stable|next|latest)(?:/|$)")  # a versioned site's version segment


def current_url(url: str) -> str:
    """``url`` at its page's current address when it is a link under one of a source's old or alias bases
    (``https://ui5.github.io/cli/stable/pages/Server/`` -> ``.../cli/v4/pages/Server/``), else unchanged. A
    base without a version never takes a link to another version (``.../cli/v3/...`` stays a v3 link)."""
    for source in SOURCES:
        for old in source.old_site_bases:
            if not source.site_base or not url.startswith(old):
                continue
            rest = url[len(old) :]
            versioned = _VERSION.fullmatch(old.rstrip("/").rsplit("/", 1)[-1] + "/")
            if versioned or not _VERSION.match(rest):
                return source.site_base + rest
    return url


def site_url(source: DocSource, path: str) -> str | None:
    """A page's address on a static site built from docs_dir: MkDocs with directory URLs serves
    ``pages/Server.md`` as ``pages/Server/``, VitePress without cleanUrls as ``pages/Server.html`` and with
    them as ``pages/Server``; an ``index.md`` is its folder's address on all three."""
    inner = path[len(source.docs_dir) + 1 :] if source.docs_dir else path
    stem = inner[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        return f"{source.site_base}{stem[: -len('index')]}"
    if source.site_style == "mkdocs":
        return f"{source.site_base}{stem}/"
    if source.site_style == "vitepress":
        return f"{source.site_base}{stem}.html"
    if source.site_style == "vitepress-clean":
        return f"{source.site_base}{stem}"
    return None


# Docusaurus' default number prefixes ("001-intro.mdx", "02_guides/"): not part of ids or addresses; a
# name that starts like a version or a date ("5.0-upgrade-steps", "2021-01-x") keeps its digits
_NUMBER_PREFIX = re.compile(r"^\d+\s*[-_.]+\s*(?=[^-_.\s])")
_NOT_A_PREFIX = re.compile(r"^\d+[-_.]\d+")


def _unprefixed(name: str) -> str:
    return name if _NOT_A_PREFIX.match(name) else _NUMBER_PREFIX.sub("", name)


def docusaurus_route(inner: str, front: Mapping[str, str]) -> str:
    """A page's route below its docs plugin's base path, as Docusaurus makes it: number prefixes go from
    folder and file names; the front matter ``id`` replaces the file name; a ``slug`` replaces the route
    (relative to the page's folder, or to the base path when it starts with "/"); an index page
    (index, README, or the file named like its folder) is its folder's route."""
    folder, _, file = inner.rpartition("/")
    raw_dirs = [d for d in folder.split("/") if d]
    dirs = [_unprefixed(d) for d in raw_dirs]
    name = file.rsplit(".", 1)[0]
    slug = (front.get("slug") or "").strip()
    if slug:
        route = slug if slug.startswith("/") else "/".join([*dirs, slug])
        return posixpath.normpath("/" + route).strip("/")
    if name.lower() in ("index", "readme") or (raw_dirs and name.lower() == raw_dirs[-1].lower()):
        return "/".join(dirs)
    return "/".join([*dirs, (front.get("id") or "").strip() or _unprefixed(name)])


def docusaurus_url(source: DocSource, path: str, front: Mapping[str, str]) -> str | None:
    """The address of a page of a Docusaurus source: its folder's plugin base plus its route (the site
    has trailingSlash false, so no slash at the end)."""
    inner = path[len(source.docs_dir) + 1 :] if source.docs_dir else path
    plugin, _, rest = inner.partition("/")
    base = source.folder_bases.get(plugin)
    if base is None or not rest or source.site_base is None:
        return None
    return f"{source.site_base}{base}{docusaurus_route(rest, front)}".rstrip("/")
