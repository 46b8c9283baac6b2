"""Which developer tools a detected project needs, so `sap-devs check` reports only those.

A CAP Node.js project does not need a JDK, Maven, Helm or the Fiori generator; listing them as
missing buries the findings that matter. The tool ids are those of the packs' tools.yaml.
"""

from __future__ import annotations

from sap_devs.doctor.project.model import Detection

NODE = frozenset({"node", "npm"})
BY_TYPE: dict[str, frozenset[str]] = {
    "CAP (Node.js)": NODE | {"cds-dk"},
    "CAP (Java)": frozenset({"java", "maven"}),
    "MTA": frozenset({"mbt", "cf", "cf-multiapps-plugin", "btp"}),
    "Kyma / Helm": frozenset({"kubectl", "helm", "btp"}),
    "SAPUI5 / Fiori": NODE | {"ui5-cli"},
    "App router": NODE,
    "Node.js": NODE,
}
ALWAYS = frozenset({"git"})
# what every project kind above lists; the rest (python, yeoman ...) only with --tools all
DESCRIBED = ", ".join(sorted(BY_TYPE))


def needed_tools(det: Detection) -> frozenset[str]:
    """Tool ids this project needs: by its kinds, plus hana-cli where it deploys to SAP HANA."""
    needed = set(ALWAYS) if det.types else set()
    for kind in det.types:
        needed |= BY_TYPE.get(kind, frozenset())
    if det.database == "hana":
        needed.add("hana-cli")
    return frozenset(needed)
