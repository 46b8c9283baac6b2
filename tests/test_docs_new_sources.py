"""The SAP-docs sources added for issue 29: each page's Help Portal address, checked on the bundled tarballs."""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import pytest

from sap_devs.docs import store
from sap_devs.docs.build import tarball_name
from sap_devs.docs.ingest import load_source
from sap_devs.docs.sources import BY_REPO

TARBALLS = Path(__file__).resolve().parent.parent / "data" / "docs"

# Pages whose public address is known independently of the rule: links to them found in public pages
# (product / deliverable / loio as the Help Portal serves them, and as each repository's README links its guide).
KNOWN = {
    "SAP-docs/btp-credential-store": {
        "docs/admin-and-ops/create-edit-and-delete-a-credential-2a5423f.md": (
            "https://help.sap.com/docs/CREDENTIAL_STORE/601525c6e5604e4192451d5e7328fa3c/"
            "2a5423fc9ccb4ff3847cc6bd6c05b445.html"
        ),
        "docs/rest-api/credential-management-example-node-js-decad8f.md": (
            "https://help.sap.com/docs/CREDENTIAL_STORE/601525c6e5604e4192451d5e7328fa3c/"
            "decad8fa526c40138d2a6843fb6a82bb.html"
        ),
        "docs/admin-and-ops/create-download-and-delete-a-service-key-7502e17.md": (
            "https://help.sap.com/docs/CREDENTIAL_STORE/601525c6e5604e4192451d5e7328fa3c/"
            "7502e1780e5b46f7982f8cc2a37a0080.html"
        ),
    },
    "SAP-docs/btp-cloud-transport-management": {
        "docs/what-is-sap-cloud-transport-management-5fef9d6.md": (
            "https://help.sap.com/docs/TRANSPORT_MANAGEMENT_SERVICE/7f7160ec0d8546c6b3eab72fb5ad6fd8/"
            "5fef9d6b1cb047b2b18d9eb57aa15352.html"
        ),
        "docs/20-configure-landscape/create-transport-nodes-f71a4d5.md": (
            "https://help.sap.com/docs/TRANSPORT_MANAGEMENT_SERVICE/7f7160ec0d8546c6b3eab72fb5ad6fd8/"
            "f71a4d5550cd453ea824d5b5c677969d.html"
        ),
        "docs/10-initial-setup/configuring-entitlements-to-sap-cloud-transport-management-13894be.md": (
            "https://help.sap.com/docs/TRANSPORT_MANAGEMENT_SERVICE/7f7160ec0d8546c6b3eab72fb5ad6fd8/"
            "13894bed9e2d4b25aa34d03d002707f9.html"
        ),
    },
    "SAP-docs/btp-continuous-integration-and-delivery": {  # one Help Portal guide per top folder
        "docs/cicd/enabling-the-service-c8ed09d.md": (
            "https://help.sap.com/docs/CONTINUOUS_DELIVERY/99c72101f7ee40d0b2deb4df72ba1ad3/"
            "c8ed09df9ebd4556ae2375feac829c24.html"
        ),
        "docs/cicd-intro/continuous-integration-and-delivery-introduction-guide-7fc38a8.md": (
            "https://help.sap.com/docs/CICD_OVERVIEW/ee5a61247061455ab232c19179fe4c3b/"
            "7fc38a80cda446ef856c01f748dbede8.html"
        ),
        "docs/cicd-sol/sap-solutions-for-continuous-integration-and-delivery-e9fa320.md": (
            "https://help.sap.com/docs/CICD_OVERVIEW/8cacec64ed854b2a88e9a0973e0f97a2/"
            "e9fa320181124fa9808d4446a1bf69dd.html"
        ),
        "docs/cicd-bp/continuous-integration-and-delivery-best-practices-guide-1ae37c7.md": (
            "https://help.sap.com/docs/CICD_OVERVIEW/3324745951b44b578bd65221d2ff8f9a/"
            "1ae37c7c7ad343589e2bd2fd424c9105.html"
        ),
    },
    "SAP-docs/btp-job-scheduling-service": {
        "docs/what-is-sap-job-scheduling-service-22c2df4.md": (
            "https://help.sap.com/docs/JOB_SCHEDULER/07b57c2f4b944bcd8470d024723a1631/"
            "22c2df4d22cb4a05af4c9502a67597ae.html"
        ),
        "docs/40---Using-JOB-SCHDULR-TITLE/service-behavior-d09664b.md": (
            "https://help.sap.com/docs/JOB_SCHEDULER/07b57c2f4b944bcd8470d024723a1631/"
            "d09664b7ae9d453e8b8a3a6e09449916.html"
        ),
        "docs/50---Security/credential-rotation-ed3bf28.md": (
            "https://help.sap.com/docs/JOB_SCHEDULER/07b57c2f4b944bcd8470d024723a1631/"
            "ed3bf285065e4d42b95926589c36d39a.html"
        ),
    },
    "SAP-docs/sap-artificial-intelligence": {  # two guides; the generative AI hub pages belong to AI Core's
        "docs/sap-ai-core/what-is-sap-ai-core-d029a32.md": (
            "https://help.sap.com/docs/AI_CORE/2d6c5984063c40a59eda62f4a9135bee/d029a32c22fb45fbb607e6a2c48c8a0e.html"
        ),
        "docs/sap-ai-core/auditing-and-logging-information-e19844a.md": (
            "https://help.sap.com/docs/AI_CORE/2d6c5984063c40a59eda62f4a9135bee/e19844a7724f4ec2b6bcc4002f3fd95c.html"
        ),
        "docs/sap-ai-core/generativeAI/orchestration-workflow-v1-deprecated-b233648.md": (
            "https://help.sap.com/docs/AI_CORE/2d6c5984063c40a59eda62f4a9135bee/b233648e0696461984410c38448fc81b.html"
        ),
        "docs/sap-ai-launchpad/what-is-sap-ai-launchpad-760889a.md": (
            "https://help.sap.com/docs/AI_LAUNCHPAD/92d77f26188e4582897b9106b9cb72e0/"
            "760889ab809841c8a8905ca492f902cb.html"
        ),
        "docs/sap-ai-launchpad/set-resource-group-0c07728.md": (
            "https://help.sap.com/docs/AI_LAUNCHPAD/92d77f26188e4582897b9106b9cb72e0/"
            "0c077289f29d4147921fb07ab0f68b7f.html"
        ),
    },
    "SAP-docs/btp-build-work-zone-advanced": {
        "docs/what-is-sap-build-work-zone-advanced-edition-5c0103b.md": (
            "https://help.sap.com/docs/WZ/7d3b9c7211ca4d7a9630b524205ee836/5c0103b130de411fb2a4b5416e36d767.html"
        ),
        "docs/10-Setup/creating-a-destination-to-the-sap-build-work-zone-advanced-edition-content-repository-4a90162.md": (
            "https://help.sap.com/docs/WZ/7d3b9c7211ca4d7a9630b524205ee836/4a90162810014b9396dd0edd00b9bc78.html"
        ),
    },
    "SAP-docs/btp-service-manager": {
        "docs/Service-Consumption/SAP-Service-Manager/sap-service-manager-3a27b85.md": (
            "https://help.sap.com/docs/SERVICEMANAGEMENT/09cc82baadc542a688176dce601398de/"
            "3a27b85a47fc4dff99184dd5bf181e14.html"
        ),
        "docs/Service-Consumption/SAP-Service-Manager/creating-service-keys-in-cloud-foundry-6fcac08.md": (
            "https://help.sap.com/docs/SERVICEMANAGEMENT/09cc82baadc542a688176dce601398de/"
            "6fcac08409db4b0f9ad55a6acd4d31c5.html"
        ),
        "docs/Service-Consumption/SAP-Service-Manager/managing-services-using-the-sap-btp-cockpit-cdce096.md": (
            "https://help.sap.com/docs/SERVICEMANAGEMENT/09cc82baadc542a688176dce601398de/"
            "cdce096d411242bcbfb9644d0860fd0f.html"
        ),
    },
    # its README names the guide by product and deliverable slugs only; the address follows that rule
    "SAP-docs/btp-application-autoscaler": {
        "docs/what-is-application-autoscaler-45341f3.md": (
            "https://help.sap.com/docs/application-autoscaler/application-autoscaler/"
            "45341f37cf6e4738a4b7cd20f18350de.html"
        ),
    },
    "SAP-docs/btp-object-store": {  # as the guide's own pages link each other
        "docs/auto-expiration-of-blobs-and-blob-versions-4162969.md": (
            "https://help.sap.com/docs/ObjectStore/2ee77ef7ea4648f9ab2c54ee3aef0a29/"
            "4162969be1bd4b15987c0145fe8bcb6f.html"
        ),
        "docs/configure-object-store-to-use-gcp-687cd27.md": (
            "https://help.sap.com/docs/ObjectStore/2ee77ef7ea4648f9ab2c54ee3aef0a29/"
            "687cd27b9383425fb0f64e9b0ea53a2c.html"
        ),
        "docs/retrieve-parameters-configured-on-service-instance-8b617c6.md": (
            "https://help.sap.com/docs/ObjectStore/2ee77ef7ea4648f9ab2c54ee3aef0a29/"
            "8b617c6ba2ba4660bd488927a64ffdfb.html"
        ),
    },
    "SAP-docs/btp-custom-domain-service": {  # the Custom Domain Manager guide and the CLI guide
        "docs/cd-ui/10-Initial/what-is-custom-domain-4f4c3ff.md": (
            "https://help.sap.com/docs/CUSTOM_DOMAINS/6f35a23466ee4df0b19085c9c52f9c29/"
            "4f4c3ff62fd2413089dce8a973620167.html"
        ),
        "docs/cd-cli/10-Initial/what-is-custom-domain-4414cc4.md": (
            "https://help.sap.com/docs/CUSTOM_DOMAINS/74af813c7ee2457cb5eddca0cc70a0c1/"
            "4414cc43db2d4229b27b232a5590e253.html"
        ),
        "docs/cd-cli/10-Initial/prerequisites-48cdbe7.md": (
            "https://help.sap.com/docs/CUSTOM_DOMAINS/74af813c7ee2457cb5eddca0cc70a0c1/"
            "48cdbe7a64f3475586dc2f4d11c5603c.html"
        ),
    },
    "SAP-docs/btp-private-link-service": {
        "docs/what-is-sap-private-link-service-3eb3bc7.md": (
            "https://help.sap.com/docs/PRIVATE_LINK/42acd88cb4134ba2a7d3e0e62c9fe6cf/"
            "3eb3bc7aa5db4b5da9dcdbf8ee478e52.html"
        ),
        "docs/using-sap-private-link-service/azure-automation-8064b46.md": (
            "https://help.sap.com/docs/PRIVATE_LINK/42acd88cb4134ba2a7d3e0e62c9fe6cf/"
            "8064b46e99d140d8b38c1ac7f12aa513.html"
        ),
        "docs/initial-setup-f2dce1d.md": (
            "https://help.sap.com/docs/PRIVATE_LINK/42acd88cb4134ba2a7d3e0e62c9fe6cf/"
            "f2dce1d43acb4771beee7304b464041e.html"
        ),
    },
    # the service guide and the applications' user guide, by the slugs the README names them with
    "SAP-docs/btp-document-management-service": {
        "docs/service-guide/what-is-document-management-service-27e742e.md": (
            "https://help.sap.com/docs/document-management-service/sap-document-management-service/"
            "27e742e062924d72a9f1cb94a8c8346c.html"
        ),
        "docs/service-guide/cap-plugin-65128a9.md": (
            "https://help.sap.com/docs/document-management-service/sap-document-management-service/"
            "65128a9038054fea98e427e753764350.html"
        ),
        "docs/mobile/sap-document-management-service-user-guide-66b5e76.md": (
            "https://help.sap.com/docs/document-management-service/using-sap-document-management-service-applications/"
            "66b5e76dd5d4459b8afff34d3ab6d011.html"
        ),
    },
    "SAP-docs/btp-best-practices-guide": {  # the README's deliverable, as the guide's pages link it
        "docs/deploy-and-deliver/data-backups-managed-by-sap-6c1e071.md": (
            "https://help.sap.com/docs/BTP/df50977d8bfa4c9a8a063ddb37113c43/6c1e071845dd4db2829b413a05154a7c.html"
        ),
    },
    "SAP-docs/btp-runtime-comparison-guide": {
        "docs/comparison-sap-btp-kyma-runtime-and-sap-btp-cloud-foundry-runtime-de5c964.md": (
            "https://help.sap.com/docs/BTP/8cc4e6b957be41d0b7a07680d1d9bb07/de5c964bd17443409e11c55f4f5dacb7.html"
        ),
    },
    "SAP-docs/btp-ui-theme-designer": {  # three guides; the Neo one addresses some pages by their copy id
        "docs/abap/what-is-ui-theme-designer-da5decc.md": (
            "https://help.sap.com/docs/ABAP_PLATFORM_NEW/7b10839d7f5f45b4b2a1a96fc95fd9bb/"
            "da5decc9979944fa8dccaa04aa88594a.html"
        ),
        "docs/abap/Use-Case-Scenarios/integrating-sap-btp-cloud-foundry-themes-with-sap-s-4hana-3ccb78c.md": (
            "https://help.sap.com/docs/ABAP_PLATFORM_NEW/7b10839d7f5f45b4b2a1a96fc95fd9bb/"
            "3ccb78c6f0704016b420cf0d0fc82fa4.html"
        ),
        "docs/cf/what-is-ui-theme-designer-935325f.md": (
            "https://help.sap.com/docs/btp/ui-theme-designer/935325fb130d41449362181fb6020dd0.html"
        ),
        "docs/neo/About-Themes/what-is-a-theme-0989497.md": (
            "https://help.sap.com/docs/btp/ui-theme-designer-for-neo-environment/0989497d60fe4d5db2b3b22be38e9473.html"
        ),
    },
    "SAP-docs/btp-task-center": {
        "docs/10-what-is/what-is-sap-task-center-9693186.md": (
            "https://help.sap.com/docs/TASK_CENTER/08cbda59b4954e93abb2ec85f1db399d/"
            "9693186f1fe54cbe801085d6bdfe8287.html"
        ),
        "docs/40-administration/repopulate-the-task-cache-e93aa71.md": (
            "https://help.sap.com/docs/TASK_CENTER/08cbda59b4954e93abb2ec85f1db399d/"
            "e93aa718721444f7aa7e8385a3253a41.html"
        ),
    },
    "SAP-docs/api-style-guide": {  # the README links the guide under /products/, the same page under /docs/
        "docs/sap-api-style-guide-01e4b09.md": (
            "https://help.sap.com/docs/SNG_4_APIDOC/53e39c8b7c924c28a2575be50bc09786/"
            "01e4b09a0bb24235b3618deb0618e1af.html"
        ),
    },
}
# Two guides the README links by their current product/deliverable names, while other SAP pages still link
# their pages under the older product code: the same loio names the same page under either.
README_BASE_KNOWN_LOIO = {
    "SAP-docs/btp-cloud-identity-services": {
        "docs/tenants-93160eb.md": (
            "https://help.sap.com/docs/IDENTITY_AUTHENTICATION/6d6d63354d1242d185ab4830fc04feb1/"
            "93160ebd2dcb40e98aadcbb9a970f2b9.html"
        ),
        "docs/Monitoring-and-Reporting/logging-openid-connect-oidc-tokens-b6c42b5.md": (
            "https://help.sap.com/docs/IDENTITY_AUTHENTICATION/6d6d63354d1242d185ab4830fc04feb1/"
            "b6c42b53518b46de8b4dffd8c4c52ed7.html"
        ),
        "docs/Operation-Guide/configure-identity-federation-c029bbb.md": (
            "https://help.sap.com/docs/IDENTITY_AUTHENTICATION/6d6d63354d1242d185ab4830fc04feb1/"
            "c029bbbaefbf4350af15115396ba14e2.html"
        ),
    },
    "SAP-docs/btp-cloud-logging": {
        "docs/ingest-via-opentelemetry-api-endpoint-fdc78af.md": (
            "https://help.sap.com/docs/SAP_CLOUD_LOGGING/d82d23dc499c44079e1e779c1d3a5191/"
            "fdc78af7c69246bc87315d90a061b321.html"
        ),
    },
}
README_BASES = {
    "SAP-docs/btp-cloud-identity-services": "https://help.sap.com/docs/cloud-identity-services/cloud-identity-services",
    "SAP-docs/btp-cloud-logging": "https://help.sap.com/docs/cloud-logging/cloud-logging",
}
# a page republished from another guide starts with copy<id> instead of loio<id>, as ingest reads it
# the smaller guides, whole: every page of the repository (index.md aside)
PAGES_AT_LEAST = {
    "SAP-docs/btp-application-autoscaler": 14,
    "SAP-docs/btp-private-link-service": 38,
    "SAP-docs/btp-best-practices-guide": 44,
    "SAP-docs/btp-runtime-comparison-guide": 12,
}
_LOIO = re.compile(r"<!--\s*(?:loio|copy)([0-9a-f]{32})\s*-->")


def _tarball(repo: str) -> Path:
    path = TARBALLS / tarball_name(BY_REPO[repo.lower()])
    if not path.is_file():
        pytest.skip(f"{path.name} is not in this checkout")
    return path


@pytest.mark.parametrize("repo", sorted(KNOWN))
def test_new_sap_docs_pages_have_their_exact_help_portal_address(repo: str) -> None:
    source = BY_REPO[repo.lower()]
    _, pages, _ = load_source(source, str(_tarball(repo)))
    urls = {p.path: p.url for p in pages}
    for path, url in KNOWN[repo].items():
        assert urls.get(path) == url, path
    assert {p.product for p in pages} == {source.product}
    assert len(pages) >= PAGES_AT_LEAST.get(repo, 50)  # the whole guide, not a few pages


@pytest.mark.parametrize("repo", sorted(KNOWN) + sorted(README_BASE_KNOWN_LOIO))
def test_every_new_page_is_addressed_by_the_loio_it_starts_with(repo: str) -> None:
    source = BY_REPO[repo.lower()]
    _, pages, _ = load_source(source, str(_tarball(repo)))
    with tarfile.open(_tarball(repo)) as tar:
        heads = {
            m.name.split("/", 1)[1]: tar.extractfile(m).read(300).decode()  # type: ignore[union-attr]
            for m in tar.getmembers()
            if m.isfile() and m.name.endswith(".md")
        }
    for page in pages:
        loio = _LOIO.search(heads[page.path])
        assert loio, page.path
        base = source.folder_bases[page.path.split("/")[1]] if source.folder_bases else source.help_base
        assert page.url == f"{base}/{loio.group(1)}.html"
    # a guide's index.md has no loio: it is no page of its own, every other Markdown file is, unless it
    # holds nothing but headings and related links (a few placeholder pages: nothing to show or find)
    skipped = {path for path in heads if path.startswith("docs/")} - {p.path for p in pages}
    assert skipped and all(path.endswith("/index.md") or _no_prose(_tarball(repo), path) for path in skipped)


_LINK_ONLY = re.compile(r"^\s*(\*\*Related Information\*\*|\[[^\]]*\]\([^)]*\)\s*)\s*$")


def _no_prose(tarball: Path, path: str) -> bool:
    with tarfile.open(tarball) as tar:
        member = next(m for m in tar.getmembers() if m.name.split("/", 1)[1] == path)
        text = tar.extractfile(member).read().decode()  # type: ignore[union-attr]
    lines = _LOIO.sub("", text).splitlines()
    return not [line for line in lines if line.strip() and not line.startswith("#") and not _LINK_ONLY.match(line)]


@pytest.mark.parametrize("repo", sorted(README_BASE_KNOWN_LOIO))
def test_pages_linked_under_an_older_product_code_keep_their_loio_under_the_readme_guide(repo: str) -> None:
    _, pages, _ = load_source(BY_REPO[repo.lower()], str(_tarball(repo)))
    urls = {p.path: p.url for p in pages}
    for path, link in README_BASE_KNOWN_LOIO[repo].items():
        assert urls.get(path) == f"{README_BASES[repo]}/{link.rsplit('/', 1)[1]}", path
    assert {p.product for p in pages} == {"btp"}
    assert len(pages) >= 25  # the whole guide, not a few pages


needs_bundled = pytest.mark.skipif(
    not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install` (hatch_build.py)"
)


@needs_bundled
@pytest.mark.parametrize(
    ("query", "repo", "page"),
    [
        ("extend the validity of an expiring credential store binding", "SAP-docs/btp-credential-store", "a5fc84d"),
        ("update job run log of an asynchronous job", "SAP-docs/btp-job-scheduling-service", "e85da40"),
        ("upload MTA extension descriptor to import queue", "SAP-docs/btp-cloud-transport-management", "0c7a672"),
        (
            "webhook between GitLab and continuous integration",
            "SAP-docs/btp-continuous-integration-and-delivery",
            "e452155",
        ),
        (
            "rotate the signing certificate of an OpenID Connect application",
            "SAP-docs/btp-cloud-identity-services",
            "bb4eee1",
        ),
        (
            "restrict which models an orchestration deployment may use",
            "SAP-docs/sap-artificial-intelligence",
            "4d499ee",
        ),
        (
            "destination to the Work Zone advanced content repository for deploying cards",
            "SAP-docs/btp-build-work-zone-advanced",
            "4a90162",
        ),
        (
            "migrate from svcat service catalog to the SAP BTP service operator",
            "SAP-docs/btp-service-manager",
            "ec7f5c7",
        ),
        ("ingest OpenTelemetry traces into SAP Cloud Logging", "SAP-docs/btp-cloud-logging", "fdc78af"),
        ("schedule more app instances during business hours", "SAP-docs/btp-application-autoscaler", "204e423"),
        (
            "stop s3 bucket from being deleted together with the service instance",
            "SAP-docs/btp-object-store",
            "8c3c66d",
        ),
        ("share a custom domain with another cloud foundry org", "SAP-docs/btp-custom-domain-service", "8ecabca"),
        ("kyma pod cannot resolve private endpoint hostname", "SAP-docs/btp-private-link-service", "72a3646"),
        (
            "store attachments of a cap app in document management",
            "SAP-docs/btp-document-management-service",
            "65128a9",
        ),
        ("which btp services does sap back up automatically", "SAP-docs/btp-best-practices-guide", "6c1e071"),
        ("grpc and http2 support kyma versus cloud foundry", "SAP-docs/btp-runtime-comparison-guide", "3fcdd4d"),
        ("custom css in a theme created with ui theme designer", "SAP-docs/btp-ui-theme-designer", "895a4b0"),
        ("task not available in the task center task list of a user", "SAP-docs/btp-task-center", "2f26551"),
        ("how to document a deprecated method with javadoc", "SAP-docs/api-style-guide", "7fa712a"),
    ],
)
def test_the_bundled_index_answers_from_each_new_source(query: str, repo: str, page: str) -> None:
    store.reset()
    index = store.current()
    pages, _ = index.pages_of(repo)
    _, tarball_pages, _ = load_source(BY_REPO[repo.lower()], str(_tarball(repo)))
    assert len(pages) == len(tarball_pages)  # every page of the tarball is indexed
    hits, _ = index.search(query, product=BY_REPO[repo.lower()].product, limit=5)
    found = [h for h in hits if h.source == repo and h.path.endswith(f"-{page}.md")]
    assert found, [h.path for h in hits]
    doc = index.read(found[0].page_id)
    assert doc.url == found[0].url and doc.url.startswith("https://help.sap.com/docs/")
    assert doc.source.licence == "CC-BY-4.0" and doc.product == BY_REPO[repo.lower()].product
