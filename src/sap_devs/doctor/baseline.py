"""The versions project checks compare against, taken from the content packs (kept current by sync).

Nothing here is a version remembered in code: the current ``@sap/cds`` release comes from the cap
pack's ``pack.yaml`` ``versions``, the Node.js, JDK and Maven minimums from the ``tools.yaml`` checks
of the packs (base: ``node``; cap: ``java``, ``maven``), the current OpenUI5 and UI5 CLI from the fiori-ui5 pack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sap_devs.doctor.versions import parse_version

if TYPE_CHECKING:
    from sap_devs.knowledge.base import KnowledgeBase


@dataclass(frozen=True)
class Baseline:
    cds: str | None = None
    """Current @sap/cds release, e.g. '10.1.1'."""
    node: str | None = None
    """Node.js the current CAP major needs, as a tools.yaml requirement, e.g. '>=22.0.0'."""
    java: str | None = None
    maven: str | None = None
    ui5: str | None = None
    """Current OpenUI5 release, e.g. '1.152.0'."""
    ui5_cli: str | None = None
    """Current UI5 CLI release, e.g. '4.0.69' (its major is the current ui5.yaml specVersion)."""

    @property
    def cds_major(self) -> int | None:
        parsed = parse_version(self.cds) if self.cds else None
        return parsed[0] if parsed else None


def baseline_from(knowledge: KnowledgeBase) -> Baseline:
    """The first pack (profile order) that declares a version wins, as for every other pack item."""
    versions: dict[str, str] = {}
    for pack in knowledge.packs:
        for name, version in pack.meta.versions.items():
            versions.setdefault(name, version)
    required: dict[str, str] = {}
    for _pack, tool in knowledge.items("tools"):
        required.setdefault(tool.id, tool.required)
    return Baseline(
        cds=versions.get("@sap/cds"),
        node=required.get("node"),
        java=required.get("java"),
        maven=required.get("maven"),
        ui5=versions.get("@openui5/sap.ui.core"),
        ui5_cli=versions.get("@ui5/cli"),
    )
