"""What the prompts know about SAP products: the names a user picks and the pack that covers each."""

from __future__ import annotations

# product a user names -> the pack with its context (docs products of search_docs plus the pack ids)
PRODUCT_PACKS: dict[str, str] = {
    "cap": "cap",
    "abap": "abap",
    "rap": "abap",
    "ui5": "fiori-ui5",
    "fiori": "fiori-ui5",
    "fiori-tools": "fiori-ui5",
    "btp": "btp",
    "connectivity": "btp",
    "bas": "btp",
    "hana-cloud": "hana-cloud",
    "integration-suite": "integration-suite",
    "build": "build",
}
# product -> the search_docs product filter, where the documentation index has one
DOCS_PRODUCTS: dict[str, str] = {
    "cap": "cap",
    "abap": "abap",
    "rap": "abap",
    "ui5": "ui5",
    "fiori": "ui5",
    "fiori-tools": "fiori-tools",
    "btp": "btp",
    "connectivity": "connectivity",
    "bas": "bas",
    "hana-cloud": "hana-cloud",
    "integration-suite": "integration-suite",
}
PRODUCTS = tuple(PRODUCT_PACKS)
