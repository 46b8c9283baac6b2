"""Hosts that bundled and synced content may link to: official SAP sites and the projects SAP builds on.

A link outside this list is a content error; it keeps guessed or third-party URLs out of what
agents cite.
"""

from __future__ import annotations

from urllib.parse import urlsplit

DOC_HOSTS = frozenset(
    {
        # SAP
        "help.sap.com",
        "cap.cloud.sap",
        "developers.sap.com",
        "community.sap.com",
        "blogs.sap.com",
        "learning.sap.com",
        "discovery-center.cloud.sap",
        "api.sap.com",
        "hub.sap.com",
        "ui5.sap.com",
        "sapui5.hana.ondemand.com",
        "openui5.org",
        "sdk.openui5.org",
        "tools.hana.ondemand.com",
        "www.sap.com",
        "sap.github.io",
        "ui5.github.io",  # UI5 CLI and tooling docs (UI5 organisation)
        "pages.community.sap.com",
        "events.sap.com",
        "account.hana.ondemand.com",
        "sap.com",
        # open-source projects SAP development depends on
        "abapgit.org",
        "docs.abapgit.org",
        "kyma-project.io",
        "docs.cloudfoundry.org",
        "nodejs.org",
        "docs.npmjs.com",
        "www.npmjs.com",
        "git-scm.com",
        "www.python.org",
        "kubernetes.io",
        "helm.sh",
        "maven.apache.org",
        "adoptium.net",
        "yeoman.io",
        "eslint.org",
        "www.typescriptlang.org",
        "docs.spring.io",
        "spring.io",
        "www.youtube.com",  # SAP Developers channel and playlists
    }
)

# Single repositories outside those organisations that SAP documentation itself points to.
GITHUB_REPOS = frozenset({"int128/kubelogin"})  # the oidc-login plugin SAP BTP Kyma kubeconfigs run

GITHUB_OWNERS = frozenset(
    {
        "sap",
        "sap-samples",
        "sap-tutorials",
        "sap-docs",
        "cap-js",
        "cap-js-community",
        "ui5",
        "ui5-community",
        "abapgit",
        "cloudfoundry",
        "kyma-project",
        "sap-archive",
    }
)


def link_problem(url: str) -> str | None:
    """Why ``url`` may not be used in content, or None when it is fine."""
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        return "must be an absolute https:// URL"
    host = parts.hostname.lower()
    if host in ("github.com", "raw.githubusercontent.com"):
        segments = parts.path.strip("/").split("/")
        owner = segments[0].lower()
        if owner in GITHUB_OWNERS or "/".join(segments[:2]).lower() in GITHUB_REPOS:
            return None
        return f"GitHub owner '{owner}' is not an official SAP or project organisation"
    if host in DOC_HOSTS:
        return None
    return f"host '{host}' is not on the allow-list of official documentation hosts (sap_devs/knowledge/hosts.py)"
