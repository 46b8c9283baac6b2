"""Record what the npm registry says about every package the bundled packs state a version of.

tests/test_version_facts.py checks the packs' version facts (current versions in ``pack.yaml``,
minimums and npm install commands in ``tools.yaml``) against tests/data/registry/npm.json, so that
drift is found by the suite instead of by users; the test never touches the network. Run this
script when the registry moves on (or when a pack names a new package; the test says so), then fix
what the test reports:

    python scripts/refresh_registry_snapshot.py          # rewrites tests/data/registry/npm.json
    python scripts/refresh_registry_snapshot.py --check  # lists the packages without writing

Per package the snapshot keeps what the test needs of ``npm view <package> --json``: the latest
version, its ``engines``, and per major the newest version with its ``engines``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from sap_devs.core import paths
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer

SNAPSHOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "registry" / "npm.json"
NPM_NAME = re.compile(r"^(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*$")
# "npm install -g mbt", "npm install --global @ui5/cli", "npm i -g npm@10"
NPM_GLOBAL_INSTALL = re.compile(
    r"\bnpm\s+(?:install|i)\s+(?:-g|--global)\s+((?:@[\w.-]+/)?[\w.-]+)(?:@([\w.^~<>=-]+))?"
)
PER_MAJOR = re.compile(r"^(\S+) for (\S+) \d+$")
# the npm packages tools.yaml checks under another id (the tool's command, not its package)
TOOL_PACKAGES = {"cds-dk": "@sap/cds-dk", "ui5-cli": "@ui5/cli", "yeoman": "yo", "hana-cli": "hana-cli", "node": None}
TIMEOUT = 60


def bundled() -> KnowledgeBase:
    return KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)])


def packages_named_by_packs(kb: KnowledgeBase) -> list[str]:
    """npm packages whose versions the packs state: pack.yaml version keys that are package names
    (both sides of ``X for Y N``), and tools.yaml tools installed or known as npm packages."""
    names: set[str] = set()
    for pack in kb.packs:
        for key in pack.meta.versions:
            per_major = PER_MAJOR.match(key)
            for name in per_major.groups() if per_major else (key,):
                if NPM_NAME.match(name) and (name.startswith("@") or name == key):
                    names.add(name)
    for _pack, tool in kb.items("tools"):
        for command in tool.install.values():
            match = NPM_GLOBAL_INSTALL.search(command or "")
            if match:
                names.add(match.group(1))
        package = TOOL_PACKAGES.get(tool.id)
        if package:
            names.add(package)
    return sorted(n for n in names if NPM_NAME.match(n))


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is not on PATH")
    return npm


def _view_json(spec: str, *fields: str) -> dict:
    proc = subprocess.run([_npm(), "view", spec, *fields, "--json"], capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise SystemExit(f"npm view {spec} failed: {proc.stderr.strip()[-300:]}")
    text = proc.stdout.strip()
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {fields[0]: value}


def view(package: str) -> dict:
    """The trimmed ``npm view --json`` of one package (all versions' engines come from the packument)."""
    meta = _view_json(package, "versions", "dist-tags", "engines")
    versions = [v for v in meta.get("versions", []) if re.fullmatch(r"\d+\.\d+\.\d+", v)]
    newest: dict[int, tuple[int, int, int]] = {}
    for version in versions:
        parts = tuple(int(p) for p in version.split("."))
        if parts[0] not in newest or parts > newest[parts[0]]:
            newest[parts[0]] = parts  # type: ignore[assignment]
    majors = {}
    for major, parts in sorted(newest.items())[-4:]:  # the last four majors are all a pack ever names
        version = ".".join(map(str, parts))
        majors[str(major)] = {"version": version, "engines": _view_json(f"{package}@{version}", "engines") or {}}
    latest = meta.get("dist-tags", {}).get("latest")
    return {"latest": latest, "engines": meta.get("engines") or {}, "majors": majors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list the packages, write nothing")
    args = parser.parse_args()
    packages = packages_named_by_packs(bundled())
    if args.check:
        print("\n".join(packages))
        return
    snapshot = {
        "recorded": dt.date.today().isoformat(),
        "source": "npm view <package> --json (registry.npmjs.org), trimmed by scripts/refresh_registry_snapshot.py",
        "packages": {},
    }
    for package in packages:
        print(f"npm view {package}", file=sys.stderr)
        snapshot["packages"][package] = view(package)
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    tmp = SNAPSHOT.with_suffix(".tmp")
    tmp.write_text(json.dumps(snapshot, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, SNAPSHOT)
    print(f"wrote {SNAPSHOT} ({len(packages)} packages)", file=sys.stderr)


if __name__ == "__main__":
    main()
