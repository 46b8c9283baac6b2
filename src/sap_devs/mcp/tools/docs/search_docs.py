"""search_docs: the official SAP documentation (CAP, UI5, BTP, HANA Cloud, Integration Suite, ABAP ...), offline."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from sap_devs.docs.sources import API_REFERENCE, PRODUCTS
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field
from sap_devs.mcp.tools._bounds import QUERY_MAX

# the products of the bundled sources, one list (docs/sources.py) for the index and this filter
Product = Literal[PRODUCTS]  # type: ignore[valid-type]


# names agents pass for a product (they read them in the question); ambiguous ones ("fiori": Fiori tools
# or Fiori elements in the UI5 docs) are left to the error, which lists the choices
PRODUCT_NAMES = {
    "sapui5": "ui5",
    "openui5": "ui5",
    "fiori-elements": "ui5",
    "fiori-tool": "fiori-tools",
    "sap-fiori-tools": "fiori-tools",
    "capire": "cap",
    "sap-cap": "cap",
    "sap-btp": "btp",
    "cloud-foundry": "btp",
    "cf": "btp",
    "kyma": "btp",
    "cloud-connector": "connectivity",
    "destination": "connectivity",
    "destinations": "connectivity",
    "business-application-studio": "bas",
    "sap-business-application-studio": "bas",
    "hana": "hana-cloud",
    "sap-hana-cloud": "hana-cloud",
    "hana-db": "hana-cloud",
    "hdi": "hana-cloud",
    "cpi": "integration-suite",
    "cloud-integration": "integration-suite",
    "sap-integration-suite": "integration-suite",
    "abap-cloud": "abap",
    "rap": "abap",
    "ui5-cli": "ui5",
    "ui5-tooling": "ui5",
    "clean-abap": "abap",
    "api-style": "api-style-guide",
    "sap-api-style-guide": "api-style-guide",
    "sap-cloud-sdk": "cloud-sdk",
    "cloudsdk": "cloud-sdk",
    "cloud-sdk-js": "cloud-sdk",
    "cloud-sdk-java": "cloud-sdk",
}


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX,
        description="The question in your own words, e.g. 'CDS association with on condition', 'HDI grant to another schema'.",
    )
    product: Product | None = Field(None, description="Only pages of this product.")
    limit: int = limit_field(SEARCH_LIMIT, "pages")

    @field_validator("product", mode="before")
    @classmethod
    def _product_name(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        name = "-".join(value.strip().lower().replace("_", " ").split())
        return PRODUCT_NAMES.get(name, name)


class DocHit(BaseModel):
    id: str = Field(description="Page id for read_doc: 'owner/repo:path'.")
    source: str = Field(description="GitHub repository of the page, owner/repo.")
    path: str = Field(description="File path of the page inside that repository.")
    title: str
    section: str = Field(description="Heading path of the best-matching section.")
    url: str = Field(description="Public URL of the page; cite it.")
    product: str
    sections: list[str] = Field(
        description="The sections that answer, to pass to read_doc as sections: the best one, and its neighbour "
        "when the match spans the two."
    )
    snippet: str = Field(description="The best-matching passage of the best section (at most ~300 characters).")
    match: Literal["strong", "partial", "weak"] = Field(
        description="How much of the question the sections and the page title hold (a weak hit is a guess)."
    )
    strength: float = Field(description="The share of the question's terms they hold, 0 to 1.")
    flavours: list[str] = Field(
        description="What the page is specific to, when it is: odata-v2/odata-v4 (and Fiori elements on them), "
        "cap-node/cap-java, abap-cloud/abap-standard, cloud-foundry/kyma/neo. Pages of another flavour than the "
        "question names are ranked lower."
    )
    also_at: list[str] = Field(
        default_factory=list,
        description="The same page published at other URLs too (another guide or repository): one result for all.",
    )


Output = Envelope[DocHit]

# sites whose section anchors are the heading ids sap-devs knows (capire's {#id}, GitHub's heading slugs, the
# UI5 CLI's MkDocs toc ids)
_ANCHORED = ("capire/docs", "SAP-samples/abap-cheat-sheets", "SAP/styleguides", "UI5/cli")


def section_url(source: str, url: str, anchor: str | None) -> str:
    if source == API_REFERENCE.repo:
        from sap_devs.knowledge.ui5_api.catalog import with_section

        return with_section(url, anchor)
    return f"{url}#{anchor}" if anchor and source in _ANCHORED else url


def doc_hit(h: Any) -> DocHit:
    """A search hit of the documentation index (``docs.index.Hit``) as the tools show it."""
    return DocHit(
        id=f"{h.source}:{h.path}",
        source=h.source,
        path=h.path,
        title=h.title,
        section=h.section,
        url=section_url(h.source, h.url, h.anchor),
        product=h.product,
        sections=list(h.sections),
        snippet=h.snippet,
        match=h.match,
        strength=h.strength,
        flavours=list(h.flavours),
        also_at=[url for _, _, url in h.also],
    )


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.docs.store import current

    index = current()
    hits, total = index.search(params.query, product=params.product, limit=params.limit)
    items = [doc_hit(h) for h in hits]
    hint = None
    if items:
        hint = "Call read_doc with a result's id and sections for the passage that answers; cite the url."
    envelope = Output.build(
        items, limit=params.limit, entity="documentation pages", query=params.query, hint=hint, total=total
    )
    if not items and params.product:
        envelope.add_note("Try without the product filter.")
    return envelope


TOOL = Tool(
    name="search_docs",
    title="Search the SAP documentation",
    description=(
        "Look up how to do or configure something in the official SAP documentation, offline (CAP/capire, SAPUI5 and "
        "Fiori elements, Fiori tools, SAP BTP, Connectivity and destinations, Business Application Studio, HANA Cloud "
        "SQL/HDI, Integration Suite, ABAP cheat sheets): pages best first with the matched passage and the public URL."
    ),
    category="docs",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "Use search_docs before answering an SAP how-to question from memory, then read_doc for the details; "
        "cite the page url."
    ),
    example={"query": "CDS association with an on condition", "product": "cap", "limit": 5},
)
