"""What ``sap-devs toolchain install`` can install: components of pinned npm packages.

The pins are the versions the suite runs against (tests/sap_tools/package.json); a new pin is a
deliberate change with its tests. A component whose packages are not open-source licensed is only
installed when the user agrees to the licence named here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Component:
    name: str
    title: str
    packages: dict[str, str]  # npm name -> pinned version
    licence: str
    needs_consent: bool  # the licence is SAP's developer licence: ask before installing
    minimum_node: tuple[int, int]
    used_by: str


COMPONENTS: dict[str, Component] = {
    "cds": Component(
        name="cds",
        title="CDS compiler",
        packages={"@sap/cds-compiler": "7.1.1", "@sap/cds": "10.1.1"},
        licence="SAP Developer License Agreement (@sap/cds-compiler, @sap/cds)",
        needs_consent=True,
        minimum_node=(22, 0),
        used_by="search_cds_model, check_cds",
    ),
    "ui5": Component(
        name="ui5",
        title="UI5 linter",
        packages={"@ui5/linter": "1.23.6", "@ui5/manifest": "1.89.0"},
        licence=(
            "Apache-2.0 (@ui5/linter, @ui5/manifest); the linter depends on @sapui5/types, "
            "which is under the SAP Developer License Agreement"
        ),
        needs_consent=True,
        minimum_node=(20, 11),
        used_by="run_ui5_linter",
    ),
    "abap": Component(
        name="abap",
        title="abaplint",
        packages={"@abaplint/core": "2.120.105"},
        licence="MIT (@abaplint/core)",
        needs_consent=False,
        minimum_node=(22, 0),
        used_by="check_abap_code",
    ),
}

#: npm's platform packages of Node itself (MIT), installed into the toolchain when the machine's
#: Node is missing or older than a component needs; node-<os>-<arch> has the binary as ``bin/node``.
NODE_VERSION = "22.22.2"


def component_of(package: str) -> Component | None:
    for component in COMPONENTS.values():
        if package in component.packages:
            return component
    return None
