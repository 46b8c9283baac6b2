"""Product hints: a question that names an SAP product ("... in CPI", "CAP", "Kyma", "IAS") is about that
product's documentation, even when the product's own pages never repeat its name (capire rarely writes
"CAP", the Integration Suite guide rarely "CPI").

Each documentation source is known by the names developers give its product: official names and the
standard SAP abbreviations. A question holding one of them steers the ranking towards that source's
pages; it does not filter, so a question that names two products ("call S/4HANA from CAP through the
Cloud Connector") is steered to both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sap_devs.search.analysis import analyze

# source repository -> the names of its product (analysed like the question before matching)
NAMES: dict[str, tuple[str, ...]] = {
    "capire/docs": ("CAP", "capire", "Cloud Application Programming Model"),
    "SAP/styleguides": ("Clean ABAP", "ABAP code review"),
    "UI5/cli": ("UI5 CLI", "UI5 Tooling"),
    "SAP-docs/sap-hana-cloud-hana-database": ("HANA", "HDI", "SQLScript"),
    "SAP-docs/btp-integration-suite": ("Integration Suite", "Cloud Integration", "CPI", "iFlow", "API Management"),
    "SAP-docs/btp-fiori-tools": ("Fiori tools",),
    "SAP-docs/btp-business-application-studio": ("Business Application Studio", "BAS"),
    "SAP-docs/btp-connectivity": ("Cloud Connector", "Connectivity service", "Destination service"),
    "SAP-docs/btp-credential-store": ("Credential Store",),
    "SAP-docs/btp-job-scheduling-service": ("Job Scheduling", "Job Scheduler", "jobscheduler", "JSS"),
    "SAP-docs/btp-cloud-transport-management": (
        "Cloud Transport Management",
        "Transport Management service",
        "Transport Management",
        "CTMS",
        "TMS",
    ),
    "SAP-docs/btp-continuous-integration-and-delivery": ("Continuous Integration and Delivery", "CI/CD"),
    "SAP-docs/btp-cloud-identity-services": (
        "Cloud Identity Services",
        "Identity Authentication",
        "IAS",
        "Identity Provisioning",
        "IPS",
    ),
    "SAP-docs/sap-artificial-intelligence": (
        "AI Core",
        "AI Launchpad",
        "generative AI hub",
        "genAI hub",
        "gen AI hub",
        "orchestration",  # the orchestration service of the generative AI hub
    ),
    "SAP-docs/btp-build-work-zone-advanced": ("Work Zone",),
    # the SAP BTP service operator (Kubernetes) is set up from the Service Manager guide; smctl is its CLI
    "SAP-docs/btp-service-manager": ("Service Manager", "service operator", "BTP operator", "smctl"),
    "SAP-docs/btp-cloud-logging": ("Cloud Logging",),
    "SAP-docs/btp-application-autoscaler": ("Autoscaler",),
    "SAP-docs/btp-object-store": ("Object Store",),
    "SAP-docs/btp-custom-domain-service": ("Custom Domain",),
    "SAP-docs/btp-private-link-service": ("Private Link",),
    "SAP-docs/btp-document-management-service": ("Document Management service", "Document Management", "SDM"),
    "SAP-docs/btp-ui-theme-designer": ("Theme Designer",),
    "SAP-docs/btp-task-center": ("Task Center",),
    "SAP-docs/api-style-guide": ("API Style Guide",),
    "kyma-project/api-gateway": ("API Gateway", "APIRule"),
    "kyma-project/istio": ("Istio",),
    "kyma-project/serverless": ("Serverless",),
    "kyma-project/telemetry-manager": ("Telemetry", "LogPipeline", "TracePipeline", "MetricPipeline"),
    "kyma-project/btp-manager": ("BTP Operator", "service operator"),
    # "SDK for JavaScript", "JS SDK", "sdk java": the SDK named by its language ("sap-cloud-sdk" is "Cloud SDK")
    "SAP/cloud-sdk": (
        "Cloud SDK",
        "SDK for JavaScript",
        "SDK for Java",
        "JS SDK",
        "TS SDK",
        "Java SDK",
        "SDK JS",
        "SDK Java",
    ),
}


@lru_cache(maxsize=1)
def _analysed() -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """(analysed name, the sources known by it), longest names first."""
    by_name: dict[tuple[str, ...], set[str]] = {}
    for repo, names in NAMES.items():
        for name in names:
            terms = tuple(analyze(name))
            if terms:
                by_name.setdefault(terms, set()).add(repo.lower())
    return tuple(sorted(((n, frozenset(s)) for n, s in by_name.items()), key=lambda x: -len(x[0])))


def of_query(terms: Sequence[str]) -> frozenset[str]:
    """The sources (lower-cased repositories) whose product the analysed question ``terms`` names."""
    found: set[str] = set()
    for name, repos in _analysed():
        n = len(name)
        if any(tuple(terms[i : i + n]) == name for i in range(len(terms) - n + 1)):
            found |= repos
    return frozenset(found)
