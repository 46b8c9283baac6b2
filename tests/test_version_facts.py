"""The packs' version facts agree with the npm registry, as recorded in tests/data/registry/npm.json
by scripts/refresh_registry_snapshot.py (issue 28, item 5): drift is found by the suite, not by users.

Checked, without the network: every current version in a ``pack.yaml`` that names an npm package is
that package's latest; every ``X for Y N`` range names majors X has and a major N that Y has; every
``tools.yaml`` npm install command installs a version that meets the tool's own minimum and whose
``engines.node`` accepts the Node.js the packs require; a tool installed another way is one npm
cannot bring to its minimum; the Node.js minimum is what the current @sap/cds declares. Version keys
that are no npm fact are listed with where their truth lives, and a new key fails until it is classified.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from sap_devs.doctor.versions import parse_version
from sap_devs.knowledge.base import KnowledgeBase
from tests.conftest import bundled_layer

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = json.loads((ROOT / "tests" / "data" / "registry" / "npm.json").read_text(encoding="utf-8"))
PACKAGES: dict[str, dict] = SNAPSHOT["packages"]
KB = KnowledgeBase.load(layers=[bundled_layer()])


def _script():
    spec = importlib.util.spec_from_file_location(
        "refresh_registry_snapshot", ROOT / "scripts" / "refresh_registry_snapshot.py"
    )
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


SCRIPT = _script()
NOT_ON_NPM = {
    "jdk for cds-services": "Maven Central / capire java/versions (tests/test_check_cmd_jdk.py)",
    "maven for cds-services": "capire java/versions",
    "SAPUI5 long-term maintenance": "ui5.sap.com/versionoverview.html",
}


def in_range(version: str, spec: str) -> bool:
    """npm semver ranges as engines and pack ranges use them: ``||``, ``^``, ``~``, comparators, x-ranges."""
    have = parse_version(version)
    assert have is not None, version
    for alternative in spec.split("||"):
        comparators = re.findall(r"(\^|~|>=|<=|>|<|=)?\s*v?(\d+(?:\.(?:\d+|x|\*))*)", alternative)
        if comparators and all(_meets(have, op, number) for op, number in comparators):
            return True
    return False


def _meets(have: tuple[int, int, int], op: str, number: str) -> bool:
    given = [p for p in number.split(".") if p not in ("x", "*")]
    want = tuple(int(p) for p in given) + (0,) * (3 - len(given))
    if op in ("", "=") and len(given) < 3:  # "22" or "22.x": that major (minor)
        return have[: len(given)] == want[: len(given)]
    if op == "^":
        first = next((i for i, p in enumerate(want) if p), 2)
        upper = list(want[: first + 1])
        upper[-1] += 1
        return have >= want and have[: first + 1] < tuple(upper)
    if op == "~":
        keep = 2 if len(given) >= 2 else 1
        return have >= want and have[:keep] == want[:keep]
    return {">=": have >= want, "<=": have <= want, ">": have > want, "<": have < want, "=": have == want}[op or "="]


def test_the_range_reader_reads_npm_ranges() -> None:
    assert in_range("22.22.2", "^22.22.2 || ^24.15.0 || >=26.0.0") and not in_range("22.0.0", "^22.22.2 || ^24.15.0")
    assert in_range("22.0.0", ">=22") and not in_range("21.9.9", ">=22") and in_range("3.6.2", "^3 || ^4")
    assert in_range("22.9.0", "^20.17.0 || >=22.9.0") and not in_range("22.8.0", "^20.17.0 || >=22.9.0")
    assert not in_range("5.0.0", "^4") and in_range("0.3.2", "~0.3") and not in_range("0.4.0", "^0.3.2")


def node_minimum() -> str:
    required = {t.id: t.required for _, t in KB.items("tools")}["node"]
    assert required.startswith(">="), required
    return required[2:]


def test_the_snapshot_covers_every_package_the_packs_name() -> None:
    missing = set(SCRIPT.packages_named_by_packs(KB)) - set(PACKAGES)
    assert not missing, f"run python scripts/refresh_registry_snapshot.py: {sorted(missing)} not recorded"


def test_current_versions_are_the_registrys_latest() -> None:
    unclassified, stale = [], []
    for pack in KB.packs:
        for key, value in pack.meta.versions.items():
            per_major = SCRIPT.PER_MAJOR.match(key)
            if key in PACKAGES:
                if value != PACKAGES[key]["latest"]:
                    stale.append(f"{pack.id}: {key} {value}, npm latest {PACKAGES[key]['latest']}")
            elif per_major and per_major.group(1) in PACKAGES and per_major.group(2) in PACKAGES:
                continue  # the ranges test below
            elif not any(key.startswith(k) for k in NOT_ON_NPM):
                unclassified.append(f"{pack.id}: {key}")
    assert not unclassified, f"classify these version keys (an npm package, or add to NOT_ON_NPM): {unclassified}"
    assert not stale, stale


def test_per_major_ranges_name_majors_that_exist() -> None:
    checked = 0
    for pack in KB.packs:
        for key, value in pack.meta.versions.items():
            match = re.match(r"^(\S+) for (\S+) (\d+)$", key)
            if not match or match.group(1) not in PACKAGES:
                continue
            what, of, major = match.groups()
            assert major in PACKAGES[of]["majors"], f"{key}: {of} has no major {major} on npm"
            allowed = [m for m, info in PACKAGES[what]["majors"].items() if in_range(info["version"], value)]
            assert allowed, f"{key}: {value!r} allows no published {what} major"
            checked += 1
    assert checked >= 4


def _npm_installs() -> list[tuple[str, str, str, str | None]]:
    found = []
    for _pack, tool in KB.items("tools"):
        for command in tool.install.values():
            match = SCRIPT.NPM_GLOBAL_INSTALL.search(command or "")
            if match:
                found.append((tool.id, tool.required, match.group(1), match.group(2)))
    return found


def _installed_version(package: str, spec: str | None) -> dict:
    info = PACKAGES[package]
    if spec in (None, "latest"):
        return {"version": info["latest"], "engines": info["engines"]}
    assert spec.isdigit(), f"{package}@{spec}: pin a major (or latest) so the check can read it"
    assert spec in info["majors"], f"{package} has no major {spec} on npm"
    return info["majors"][spec]


@pytest.mark.parametrize(("tool", "required", "package", "spec"), _npm_installs(), ids=lambda v: str(v))
def test_an_npm_install_command_reaches_the_minimum_on_the_packs_node(
    tool: str, required: str, package: str, spec: str | None
) -> None:
    installed = _installed_version(package, spec)
    if required.startswith(">="):
        assert parse_version(installed["version"]) >= parse_version(required[2:]), (
            f"{tool}: npm install of {package}@{spec or 'latest'} gives {installed['version']}, below {required}"
        )
    engines = installed["engines"].get("node")
    if engines:
        assert in_range(node_minimum(), engines), (
            f"{tool}: {package}@{installed['version']} needs Node.js {engines}; the packs accept Node.js "
            f"{node_minimum()} (tools.yaml node)"
        )


def test_there_are_npm_install_commands_to_check() -> None:
    assert {"npm", "cds-dk", "mbt", "ui5-cli", "yeoman"} <= {t for t, *_ in _npm_installs()}


def test_a_tool_installed_another_way_is_one_npm_cannot_bring_to_its_minimum() -> None:
    npm_installed = {t for t, *_ in _npm_installs()}
    for _pack, tool in KB.items("tools"):
        package = SCRIPT.TOOL_PACKAGES.get(tool.id)
        if package and tool.id not in npm_installed and tool.required.startswith(">="):
            latest = PACKAGES[package]["latest"]
            assert parse_version(latest) < parse_version(tool.required[2:]), (
                f"{tool.id}: npm has {package} {latest}, which meets {tool.required}: say npm install -g {package}"
            )


def test_the_node_minimum_is_what_the_current_cds_declares() -> None:
    engines = PACKAGES["@sap/cds"]["engines"]["node"]
    assert in_range(node_minimum(), engines), f"@sap/cds {PACKAGES['@sap/cds']['latest']} needs Node.js {engines}"
    declared = parse_version(re.sub(r"^>=\s*", "", engines))
    assert parse_version(node_minimum())[0] == declared[0], "the Node.js minimum lags the @sap/cds major's"
