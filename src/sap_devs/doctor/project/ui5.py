"""SAPUI5 / Fiori apps: manifest.json, ui5.yaml, deprecated libraries, TypeScript types, the component namespace."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project.detect import is_cap_root
from sap_devs.doctor.project.model import Detection, Finding, shorten_path
from sap_devs.doctor.project.reader import Reader, as_list, clean_range, dependencies_of, line_of, quoted
from sap_devs.doctor.versions import parse_version


def _served_by_cap(root: Path, app_root: Path, reader: Reader) -> bool:
    """Is the app in the app/ folder of a CAP project (here or in a monorepo's subfolder)?

    'cds watch' and the CAP server serve <project>/app statically; such apps need no ui5.yaml."""
    folder = app_root.parent
    while True:
        if folder.name == "app" and is_cap_root(folder.parent, reader):
            return True
        if folder == root or root not in folder.parents:
            return False
        folder = folder.parent


def app_findings(root: Path, reader: Reader, det: Detection, baseline: Baseline | None = None) -> list[Finding]:
    out = []
    for app in det.ui5_apps:
        app_root = root / app
        manifest_path = app_root / "webapp" / "manifest.json"
        ui5_yaml = app_root / "ui5.yaml"
        has_manifest = reader.is_file(manifest_path)
        label = reader.rel(manifest_path) if has_manifest else None
        if has_manifest:
            manifest = reader.json(manifest_path)
            if manifest is not None:
                sap_app = manifest.get("sap.app") if isinstance(manifest.get("sap.app"), dict) else None
                if sap_app is None or not sap_app.get("id"):
                    out.append(
                        Finding(
                            "ui5",
                            "error",
                            f"{label} has no 'sap.app'/'id'; the app cannot be loaded or deployed.",
                            fix='Add "sap.app": {"id": "<namespace>.<app>", ...} matching the component namespace.',
                            file=label,
                        )
                    )
                sap_ui5 = manifest.get("sap.ui5") if isinstance(manifest.get("sap.ui5"), dict) else {}
                deps = sap_ui5.get("dependencies") if isinstance(sap_ui5.get("dependencies"), dict) else {}
                out += _min_ui5_findings(deps.get("minUI5Version"), label, reader.text(manifest_path), baseline)
        if not reader.is_file(ui5_yaml):
            if _served_by_cap(root, app_root, reader):
                continue
            out.append(
                Finding(
                    "ui5",
                    "warning",
                    f"UI5 app '{app}' has no ui5.yaml, so UI5 Tooling (ui5 serve / ui5 build) cannot run it.",
                    fix="Run 'npx @ui5/cli init' in the app folder, or generate the app with SAP Fiori tools.",
                    file=f"{app}/ui5.yaml" if app != "." else "ui5.yaml",
                )
            )
        else:
            data = reader.yaml(ui5_yaml)
            spec = data.get("specVersion") if isinstance(data, dict) else None
            cli = parse_version(baseline.ui5_cli) if baseline and baseline.ui5_cli else None
            have = parse_version(str(spec)[:20]) if isinstance(spec, (str, int, float)) else None
            if cli and have and have[0] < cli[0] - 1:
                out.append(
                    Finding(
                        "ui5",
                        "info",
                        f"{reader.rel(ui5_yaml)} declares specVersion {quoted(str(spec))}, written for UI5 Tooling "
                        f"{have[0] if have[0] else 'before 1'}; UI5 CLI {cli[0]} uses '{cli[0]}.0'.",
                        fix=f'Set specVersion: "{cli[0]}.0" after reading the UI5 CLI migration guides.',
                        file=reader.rel(ui5_yaml),
                        line=line_of(reader.text(ui5_yaml), "specVersion"),
                    )
                )
            if isinstance(data, dict) and not data.get("specVersion"):
                out.append(
                    Finding(
                        "ui5",
                        "error",
                        f"{reader.rel(ui5_yaml)} has no 'specVersion'.",
                        fix='Add specVersion: "3.0" (or newer) at the top of ui5.yaml.',
                        file=reader.rel(ui5_yaml),
                    )
                )
    return out


def _min_ui5_findings(wanted: Any, label: str | None, text: str | None, baseline: Baseline | None) -> list[Finding]:
    """minUI5Version below every SAPUI5 version in long-term maintenance (the fiori-ui5 pack's list)."""
    lts = baseline.ui5_lts if baseline else ()
    if not isinstance(wanted, str) or not wanted or not lts:
        return []
    min_version = parse_version(wanted[:60])
    if min_version is None or min_version[:2] >= lts[0]:
        return []
    maintained = ", ".join(f"{major}.{minor}" for major, minor in lts)
    newest = "{}.{}".format(*lts[-1])
    return [
        Finding(
            "ui5",
            "warning",
            f"{label} targets minUI5Version {shorten_path(wanted, 60)}, older than every SAPUI5 version in "
            f"long-term maintenance ({maintained}): it gets no fixes, and the SAPUI5 CDN removes such versions.",
            fix=f"Raise sap.ui5/dependencies/minUI5Version to a maintained version ({newest} is the newest "
            "long-term one) and test the app on it.",
            file=label,
            line=line_of(text, '"minUI5Version"'),
        )
    ]


# SAPUI5 documentation, "Deprecated Themes and Libraries"
# (https://ui5.sap.com/#/topic/a87ca843bcee469f82a9072927a7dcdb, bundled in data/docs)
_DEPRECATED_LIBS = {
    "sap.ui.commons": "sap.m, sap.ui.unified and sap.tnt",
    "sap.ui.ux3": "sap.uxap and sap.ui.layout",
    "sap.makit": "sap.viz (VizFrame)",
    "sap.me": "sap.ui.unified and sap.m",
    "sap.ca.ui": "sap.m controls and sap.ui.core.format formats",
    "sap.ui.suite": None,
    "sap.landvisz": None,
    "sap.ui.vtm": None,
    "sap.zen.commons": None,
    "sap.zen.crosstab": None,
    "sap.zen.dsh": None,
    "sap.apf": None,
    "sap.ui.webc.common": None,
    "sap.ui.webc.fiori": None,
    "sap.ui.webc.main": None,
}


def _deprecated(lib: str) -> tuple[bool, str | None]:
    if lib in _DEPRECATED_LIBS:
        return True, _DEPRECATED_LIBS[lib]
    if lib.startswith("sap.ca."):
        return True, _DEPRECATED_LIBS["sap.ca.ui"]
    return False, None


_UI5_TYPES = ("@types/openui5", "@sapui5/types", "@openui5/types", "@sapui5/ts-types", "@openui5/ts-types")
_UI5_TYPES += ("@sapui5/ts-types-esm", "@openui5/ts-types-esm")


def source_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    """Deprecated libraries, TypeScript apps without UI5 types."""
    out: list[Finding] = []
    for app in det.ui5_apps:
        app_root = root / app
        manifest_path = app_root / "webapp" / "manifest.json"
        manifest = reader.json(manifest_path) if reader.is_file(manifest_path) else None
        if manifest is not None:
            sap_ui5 = manifest.get("sap.ui5") if isinstance(manifest.get("sap.ui5"), dict) else {}
            deps = sap_ui5.get("dependencies") if isinstance(sap_ui5.get("dependencies"), dict) else {}
            libs = deps.get("libs") if isinstance(deps.get("libs"), dict) else {}
            text = reader.text(manifest_path)
            for lib in list(libs)[:200]:
                deprecated, successor = _deprecated(lib)
                if not deprecated:
                    continue
                out.append(
                    Finding(
                        "ui5",
                        "warning",
                        f"{reader.show(manifest_path)} loads the deprecated library {quoted(lib)}: it gets no new "
                        "features and is removed in UI5 2.",
                        fix=f"Move to {successor}, then remove it from sap.ui5/dependencies/libs."
                        if successor
                        else "Remove it from sap.ui5/dependencies/libs and replace its controls (see the SAPUI5 "
                        "documentation, 'Deprecated Themes and Libraries').",
                        file=reader.rel(manifest_path),
                        line=line_of(text, f'"{lib}"'),
                    )
                )
        pkg_path = app_root / "package.json"
        pkg = reader.json(pkg_path) if reader.is_file(pkg_path) else None
        if pkg is None:
            continue
        deps_, dev = dependencies_of(pkg)
        names = {*deps_, *dev}
        typescript = "typescript" in names or reader.is_file(app_root / "tsconfig.json")
        transpiled = any(n.startswith("ui5-tooling-transpile") or n == "typescript" for n in names)
        if typescript and transpiled and not any(t in names for t in _UI5_TYPES) and _imports_ui5(app_root, reader):
            out.append(
                Finding(
                    "ui5",
                    "warning",
                    f"{reader.show(pkg_path)}: a TypeScript UI5 app without UI5 type definitions, so "
                    "every UI5 import is 'any' and type errors go unnoticed (or tsc fails).",
                    fix="npm add -D @sapui5/types (or @openui5/types), and list it under compilerOptions.types "
                    "in tsconfig.json.",
                    file=reader.rel(pkg_path),
                )
            )
    return out


_UI5_IMPORT = re.compile(r"""(from\s*|import\s*\(\s*|require\s*\(\s*)["']sap/""")
_MAX_SOURCES = 50


def _imports_ui5(app_root: Path, reader: Reader) -> bool:
    """Does the app's TypeScript import UI5 modules ('sap/...')? A first tutorial step whose index.ts
    only calls alert() needs no UI5 types. True when unsure (unreadable, or a budget ran out)."""
    import itertools
    import os

    queue, read = [app_root / "webapp"], 0
    while queue and read < _MAX_SOURCES:
        if not reader.check():
            return True
        folder = queue.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(itertools.islice(listing, 500), key=lambda e: e.name)
        except OSError:
            return True
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".") and len(queue) < 50:
                queue.append(Path(entry.path))
            elif entry.name.endswith(".ts") and read < _MAX_SOURCES:
                read += 1
                text = reader.text(Path(entry.path))
                if text is None or _UI5_IMPORT.search(text[:200_000]):
                    return True
    return read >= _MAX_SOURCES  # more sources than looked at: assume they do


_EXTEND = re.compile(r"""\.extend\(\s*["']([\w.$-]{1,200})\.Component["']""")
_TS_NAMESPACE = re.compile(r"@namespace\s+([\w.$-]{1,200})")


def _declared(component: Path, reader: Reader) -> tuple[str, int] | None:
    """The namespace the Component declares and its line, when it declares one plainly."""
    text = reader.text(component)
    if not text:
        return None
    pattern = _TS_NAMESPACE if component.suffix == ".ts" else _EXTEND
    match = pattern.search(text[:200_000])
    if not match:
        return None
    return match.group(1), text.count("\n", 0, match.start()) + 1


def namespace_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    out: list[Finding] = []
    for app in det.ui5_apps:
        webapp = (root / app) / "webapp"
        manifest = reader.json(webapp / "manifest.json") if reader.is_file(webapp / "manifest.json") else None
        sap_app = manifest.get("sap.app") if manifest is not None else None
        app_id = sap_app.get("id") if isinstance(sap_app, dict) else None
        if not isinstance(app_id, str) or not app_id:
            continue  # a missing id is its own finding
        sap_ui5 = manifest.get("sap.ui5") if manifest is not None else None
        # an app variant names the component it varies in sap.ui5/componentName
        variant_of = sap_ui5.get("componentName") if isinstance(sap_ui5, dict) else None
        for name in ("Component.ts", "Component.js"):
            component = webapp / name
            if not reader.is_file(component):
                continue
            declared = _declared(component, reader)
            if declared is None or declared[0] in (app_id, variant_of):
                break
            namespace, line = declared
            what = f"@namespace {namespace}" if name.endswith(".ts") else f"'{namespace}.Component'"
            out.append(
                Finding(
                    "ui5",
                    "warning",
                    f"{reader.show(component)} declares {quoted(what)[1:-1]}, but manifest.json sap.app.id is "
                    f"{quoted(app_id)}; UI5 requires the two to match: the launchpad and the HTML5 application "
                    f"repository address the app as '{app_id}' and do not find the resources of "
                    f"'{namespace}'.",
                    fix=f"Use one name for both: set sap.app.id to '{namespace}', or rename the Component (and the "
                    f"namespace of its views and controllers) to '{app_id}'.",
                    file=reader.rel(component),
                    line=line,
                )
            )
            break
    return out


# Libraries only SAPUI5 ships (OpenUI5, the open-source subset, has none of them).
_SAPUI5_ONLY = ("sap.fe.", "sap.ui.comp", "sap.ui.generic.", "sap.suite.", "sap.ushell", "sap.viz", "sap.gantt")
_SAPUI5_ONLY_EXACT = frozenset({"sap.fe", "sap.suite", "sap.ui.generic"})
_MAX_ROUTES = 500


def _sapui5_only(lib: str) -> bool:
    return lib in _SAPUI5_ONLY_EXACT or lib.startswith(_SAPUI5_ONLY)


def _framework(data: Any) -> str | None:
    framework = data.get("framework") if isinstance(data, dict) else None
    name = framework.get("name") if isinstance(framework, dict) else None
    return name if isinstance(name, str) else None


def _route_targets(route: Any) -> list[str]:
    target = route.get("target") if isinstance(route, dict) else None
    if isinstance(target, str):
        return [target]
    if isinstance(target, list):
        return [t for t in target if isinstance(t, str)]
    if isinstance(target, dict) and isinstance(target.get("name"), str):
        return [target["name"]]
    return []


def routing_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    """Routes whose target is not defined under sap.ui5/routing/targets: navigating there fails at runtime."""
    out: list[Finding] = []
    for app in det.ui5_apps:
        manifest_path = root / app / "webapp" / "manifest.json"
        manifest = reader.json(manifest_path) if reader.is_file(manifest_path) else None
        sap_ui5 = manifest.get("sap.ui5") if isinstance(manifest, dict) else None
        routing = sap_ui5.get("routing") if isinstance(sap_ui5, dict) else None
        if not isinstance(routing, dict):
            continue
        targets = routing.get("targets") if isinstance(routing.get("targets"), dict) else {}
        routes = routing.get("routes")
        routes = list(routes.values()) if isinstance(routes, dict) else as_list(routes)
        text = reader.text(manifest_path)
        for route in routes[:_MAX_ROUTES]:
            for target in _route_targets(route):
                if target in targets:
                    continue
                name = route.get("name") if isinstance(route, dict) else None
                out.append(
                    Finding(
                        "ui5",
                        "error",
                        f"{reader.show(manifest_path)}: route {quoted(name)} targets {quoted(target)}, which is not "
                        "defined under sap.ui5/routing/targets: navigating to it fails.",
                        fix=f"Add a target named {quoted(target)} under routing/targets, or point the route at one "
                        f"of: {', '.join(sorted(targets)[:8]) or 'no targets are defined'}.",
                        file=reader.rel(manifest_path),
                        line=line_of(text, '"target"', f'"{target}"') or line_of(text, f'"{target}"'),
                    )
                )
    return out


def framework_findings(root: Path, reader: Reader, det: Detection, baseline: Baseline | None = None) -> list[Finding]:
    """SAPUI5-only libraries in an app that ui5.yaml builds with OpenUI5, and an old @ui5/cli major."""
    out: list[Finding] = []
    cli = parse_version(baseline.ui5_cli) if baseline and baseline.ui5_cli else None
    for app in det.ui5_apps:
        app_root = root / app
        ui5_yaml = app_root / "ui5.yaml"
        manifest_path = app_root / "webapp" / "manifest.json"
        data = reader.yaml(ui5_yaml) if reader.is_file(ui5_yaml) else None
        manifest = reader.json(manifest_path) if reader.is_file(manifest_path) else None
        if _framework(data) == "OpenUI5" and isinstance(manifest, dict):
            sap_ui5 = manifest.get("sap.ui5") if isinstance(manifest.get("sap.ui5"), dict) else {}
            deps = sap_ui5.get("dependencies") if isinstance(sap_ui5.get("dependencies"), dict) else {}
            libs = deps.get("libs") if isinstance(deps.get("libs"), dict) else {}
            sapui5 = [lib for lib in list(libs)[:200] if isinstance(lib, str) and _sapui5_only(lib)]
            if sapui5:
                out.append(
                    Finding(
                        "ui5",
                        "error",
                        f"{reader.show(manifest_path)} loads {', '.join(quoted(lib) for lib in sapui5[:4])}, which only "
                        f"SAPUI5 has, but {reader.show(ui5_yaml)} builds the app with OpenUI5: ui5 serve and ui5 "
                        "build cannot find the library.",
                        fix="Set framework/name to SAPUI5 in ui5.yaml (with a SAPUI5 version), or remove the "
                        "SAPUI5-only libraries.",
                        file=reader.rel(ui5_yaml),
                        line=line_of(reader.text(ui5_yaml), "name:", "OpenUI5"),
                    )
                )
        pkg_path = app_root / "package.json"
        pkg = reader.json(pkg_path) if reader.is_file(pkg_path) else None
        if pkg is None or cli is None:
            continue
        deps_, dev = dependencies_of(pkg)
        spec = dev.get("@ui5/cli") or deps_.get("@ui5/cli")
        have = parse_version(clean_range(spec)[:40]) if isinstance(spec, str) else None
        if have and have[0] < cli[0]:
            out.append(
                Finding(
                    "ui5",
                    "warning" if have[0] < cli[0] - 1 else "info",
                    f"{reader.show(pkg_path)} pins @ui5/cli {quoted(spec)}; the current UI5 CLI is {cli[0]} "
                    f"({baseline.ui5_cli if baseline else ''}), and older majors get no fixes.",
                    fix=f"npm add -D @ui5/cli@^{cli[0]} (read the UI5 CLI migration guide for each major in between).",
                    file=reader.rel(pkg_path),
                    line=line_of(reader.text(pkg_path), '"@ui5/cli"'),
                )
            )
    return out
