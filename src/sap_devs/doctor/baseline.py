"""The versions project checks compare against, taken from the content packs (kept current by sync).

Nothing here is a version remembered in code. From the packs' ``pack.yaml`` ``versions``: the current
``@sap/cds`` and the ``@sap/xssec`` majors each CDS major works with, the JDK and Maven each CAP Java
major needs (cap pack), the current ``@sap/approuter`` (btp pack), the current OpenUI5 and UI5 CLI and
the SAPUI5 long-term maintenance versions (fiori-ui5 pack). From the ``tools.yaml`` checks: the
Node.js, JDK and Maven minimums (base: ``node``; cap: ``java``, ``maven``).

Entries that relate two packages are named ``"<package> for <other package> <major>"``, e.g.
``"@sap/xssec for @sap/cds 9": "^4"`` or ``"jdk for cds-services 5": ">=21"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sap_devs.doctor.versions import parse_version

if TYPE_CHECKING:
    from sap_devs.knowledge.base import KnowledgeBase

_PER_MAJOR = re.compile(r"^(?P<what>\S+) for (?P<of>\S+) (?P<major>\d{1,4})$")
_MINOR = re.compile(r"^(\d{1,3})\.(\d{1,4})$")


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
    approuter: str | None = None
    """Current @sap/approuter release, e.g. '23.0.0'."""
    xssec_for_cds: dict[int, str] = field(default_factory=dict)
    """CDS major -> the npm range of @sap/xssec majors it works with, e.g. {9: '^4'}."""
    jdk_for_cap_java: dict[int, str] = field(default_factory=dict)
    """CAP Java (cds-services) major -> the JDK it needs, e.g. {5: '>=21'}."""
    maven_for_cap_java: dict[int, str] = field(default_factory=dict)
    ui5_lts: tuple[tuple[int, int], ...] = ()
    """SAPUI5 (major, minor) versions in long-term maintenance, oldest first."""

    @property
    def cds_major(self) -> int | None:
        parsed = parse_version(self.cds) if self.cds else None
        return parsed[0] if parsed else None


def _per_major(versions: dict[str, str], what: str, of: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for key, value in versions.items():
        match = _PER_MAJOR.match(key.strip())
        if match and match["what"] == what and match["of"] == of:
            out[int(match["major"])] = value.strip()
    return out


def _minors(text: str | None) -> tuple[tuple[int, int], ...]:
    """'1.71 1.96, 1.108' -> ((1, 71), (1, 96), (1, 108)); entries that are no major.minor are skipped."""
    found = {(int(m[1]), int(m[2])) for m in (_MINOR.match(t) for t in re.split(r"[\s,]+", text or "")) if m}
    return tuple(sorted(found))


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
        approuter=versions.get("@sap/approuter"),
        xssec_for_cds=_per_major(versions, "@sap/xssec", "@sap/cds"),
        jdk_for_cap_java=_per_major(versions, "jdk", "cds-services"),
        maven_for_cap_java=_per_major(versions, "maven", "cds-services"),
        ui5_lts=_minors(versions.get("SAPUI5 long-term maintenance")),
    )
