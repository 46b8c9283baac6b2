"""The configuration mistakes that break SAP projects, checked from the project's files alone.

Severity follows docs/CHECKS.md: ``error`` when it will not build, deploy or start, or is a security
hole; ``warning`` when it is likely to hurt soon; ``info`` for a suggestion. Versions come from the
packs (:class:`Baseline`), never from this code; the facts below that are not versions name the
documentation page they come from.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project import (
    Detection,
    Finding,
    _as_list,
    _deps,
    _line_of,
    _Reader,
    _show,
    shorten_path,
)
from sap_devs.doctor.versions import parse_version

# --- CAP Node.js: cds configuration ---------------------------------------------------------------

_UNSAFE_AUTH = {"mocked": "error", "dummy": "error", "basic": "warning"}
_UNSAFE_AUTH |= {f"{kind}-auth": severity for kind, severity in _UNSAFE_AUTH.items()}  # the older names
# capire guides/databases/new-dbs.md: "You don't need to - and should not - add direct dependencies
# to driver packages, like hdb or sqlite3"; the @cap-js packages replace them (GA with CDS 8)
_LEGACY_DRIVERS = {"sqlite3": "@cap-js/sqlite", "hdb": "@cap-js/hana", "@sap/hana-client": "@cap-js/hana"}


def _kind(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        kind = value.get("kind") or value.get("impl")
        return kind if isinstance(kind, str) else None
    return None


def _profile_entry(config: dict[str, Any], service: str, profile: str) -> tuple[Any, bool]:
    """cds.requires.<service> for ``profile``, in the three places cds.env accepts it; (value, found)."""
    requires = config.get("requires") if isinstance(config.get("requires"), dict) else {}
    key = f"[{profile}]"
    block = config.get(key)
    if isinstance(block, dict) and isinstance(block.get("requires"), dict) and service in block["requires"]:
        return block["requires"][service], True
    scoped = requires.get(key)
    if isinstance(scoped, dict) and service in scoped:
        return scoped[service], True
    entry = requires.get(service)
    if isinstance(entry, dict) and key in entry:
        return entry[key], True
    return None, False


def _plain_entry(config: dict[str, Any], service: str) -> Any:
    """cds.requires.<service> without any profile: it applies to every profile, production included."""
    requires = config.get("requires") if isinstance(config.get("requires"), dict) else {}
    entry = requires.get(service)
    if isinstance(entry, dict) and any(k.startswith("[") for k in entry):
        plain = {k: v for k, v in entry.items() if not k.startswith("[")}
        return plain or None
    return entry


def cds_configs(root: Path, reader: _Reader, pkg: dict[str, Any] | None) -> list[tuple[str, dict[str, Any]]]:
    """The cds configuration sources of a project root: package.json 'cds' and .cdsrc.json."""
    out: list[tuple[str, dict[str, Any]]] = []
    if pkg is not None and isinstance(pkg.get("cds"), dict):
        out.append(("package.json", pkg["cds"]))
    if reader.is_file(root / ".cdsrc.json"):
        cdsrc = reader.json(root / ".cdsrc.json")
        if cdsrc is not None:
            out.append((".cdsrc.json", cdsrc))
    return out


def production_findings(root: Path, reader: _Reader, det: Detection, pkg: dict[str, Any] | None) -> list[Finding]:
    """Mocked or dummy authentication, or SQLite, in what runs in production."""
    out: list[Finding] = []
    deployed = bool(det.deployment)
    for file, config in cds_configs(root, reader, pkg):
        text = reader.text(root / file)
        auth, explicit = _profile_entry(config, "auth", "production")
        if not explicit:
            auth = _plain_entry(config, "auth")
        kind = _kind(auth)
        if kind in _UNSAFE_AUTH:
            where = "the [production] profile" if explicit else "cds.requires.auth for every profile"
            out.append(
                Finding(
                    "security",
                    _UNSAFE_AUTH[kind],  # type: ignore[arg-type]
                    f"{file}: {where} uses '{kind}' authentication, so the deployed app accepts the "
                    "built-in test users (alice, bob ...) or no login at all.",
                    fix="Use 'xsuaa' or 'ias' in production; keep mocked users under '[development]' "
                    '(e.g. "auth": {"[development]": {"kind": "mocked"}, "[production]": {"kind": "xsuaa"}}).',
                    file=file,
                    line=_line_of(text, f'"{kind}"'),
                )
            )
        db, explicit = _profile_entry(config, "db", "production")
        if not explicit and deployed:
            db = _plain_entry(config, "db")
        kind = _kind(db)
        if kind in ("sqlite", "@cap-js/sqlite", "better-sqlite"):
            where = "the [production] profile" if explicit else "cds.requires.db for every profile"
            out.append(
                Finding(
                    "database",
                    "warning",
                    f"{file}: {where} uses SQLite, so the deployed app keeps its data in a local file or in "
                    "memory and loses it on every restart or scale-out.",
                    fix='Use SAP HANA Cloud in production: npm add @cap-js/hana and set "[production]": '
                    '{"db": "hana"} (cds add hana does both).',
                    file=file,
                    line=_line_of(text, '"sqlite"') or _line_of(text, "@cap-js/sqlite"),
                )
            )
    return out


def _major(spec: Any) -> int | None:
    """The major version an npm range starts from ('^9.1.0' -> 9, '>=8' -> 8); None for tags and URLs."""
    if not isinstance(spec, str):
        return None
    parsed = parse_version(spec.strip().lstrip("^~>=<v ")[:60])
    return parsed[0] if parsed else None


def highest_major(spec: str) -> float | None:
    """The highest major an npm range allows (inf when open-ended); None when it cannot be read."""
    best: float | None = None
    for alternative in spec.split("||"):
        alternative = alternative.strip()
        if not alternative or alternative in ("*", "x", "latest"):
            return float("inf")
        upper: float = float("inf")
        matched = False
        for op, number in re.findall(r"(\^|~|>=|<=|>|<|=)?\s*v?(\d+)(?:\.[\dx*]+)*", alternative):
            matched = True
            major = int(number)
            if op in ("", "=", "^", "~", "<="):
                upper = min(upper, major)
            elif op == "<":
                exact = re.search(r"<\s*v?(\d+)(\.0)*(\s|$)", alternative)
                upper = min(upper, major - 1 if exact else major)
        if not matched:
            return None
        best = upper if best is None else max(best, upper)
    return best


def dependency_findings(root: Path, reader: _Reader, pkg: dict[str, Any] | None, baseline: Baseline) -> list[Finding]:
    """@sap/cds and @sap/cds-dk majors, the Node.js engine, legacy database drivers."""
    if pkg is None:
        return []
    out: list[Finding] = []
    deps, dev = _deps(pkg)
    text = reader.text(root / "package.json")
    cds_major = _major(deps.get("@sap/cds") or dev.get("@sap/cds"))
    dk_major = _major(dev.get("@sap/cds-dk") or deps.get("@sap/cds-dk"))
    if cds_major is not None and dk_major is not None and cds_major != dk_major:
        out.append(
            Finding(
                "dependency",
                "warning",
                f"@sap/cds {cds_major} and @sap/cds-dk {dk_major} are different majors: the CLI compiles and "
                "builds for its own major, so 'cds build' and 'cds watch' can disagree with the runtime.",
                fix=f"npm add -D @sap/cds-dk@{cds_major} (or upgrade both to the same major).",
                file="package.json",
                line=_line_of(text, '"@sap/cds-dk"'),
            )
        )
    engines = pkg.get("engines") if isinstance(pkg.get("engines"), dict) else {}
    node_range = engines.get("node")
    required = parse_version(baseline.node.lstrip(">=~^ ")) if baseline.node else None
    if (
        isinstance(node_range, str)
        and required
        and cds_major is not None
        and baseline.cds_major is not None
        and cds_major >= baseline.cds_major
    ):
        highest = highest_major(node_range[:200])
        if highest is not None and highest < required[0]:
            out.append(
                Finding(
                    "runtime",
                    "error",
                    f"package.json engines.node {_show(node_range)} allows Node.js {int(highest)} at most, but "
                    f"@sap/cds {cds_major} needs Node.js {baseline.node.lstrip('>= ')}: the app does not start "
                    "where the platform picks the Node.js version from engines (Cloud Foundry buildpack).",
                    fix=f'Set "engines": {{"node": "{baseline.node}"}}.',
                    file="package.json",
                    line=_line_of(text, '"node"'),
                )
            )
    if cds_major is not None and cds_major >= 8:
        for driver, successor in _LEGACY_DRIVERS.items():
            if driver not in deps and driver not in dev:
                continue
            has_successor = successor in deps or successor in dev
            out.append(
                Finding(
                    "dependency",
                    "info" if has_successor else "warning",
                    f"package.json depends on the database driver {driver!r} directly"
                    + (
                        f"; {successor} brings its own driver, so this one is unused."
                        if has_successor
                        else f", the legacy database service; @sap/cds {cds_major} uses {successor}."
                    ),
                    fix=f"npm rm {driver}" + ("" if has_successor else f" && npm add {successor}"),
                    file="package.json",
                    line=_line_of(text, f'"{driver}"'),
                )
            )
    return out


# --- MTA ------------------------------------------------------------------------------------------

_HDI_TYPES = ("com.sap.xs.hdi-container",)
_DB_MODULE_TYPES = ("hdb", "com.sap.xs.hdi")


def _resource_is_hdi(resource: dict[str, Any]) -> bool:
    if resource.get("type") in _HDI_TYPES:
        return True
    params = resource.get("parameters") if isinstance(resource.get("parameters"), dict) else {}
    return params.get("service") == "hana" and params.get("service-plan") in ("hdi-shared", "hdi")


def mta_findings(root: Path, reader: _Reader) -> list[Finding]:
    """Database modules without their HDI container; xsuaa resources without a plan; db deployers
    without @sap/hdi-deploy."""
    from sap_devs.doctor.project import mta_file

    path = mta_file(root, reader)
    data = reader.yaml(path)
    if not isinstance(data, dict):
        return []
    text = reader.text(path)
    name = path.name
    resources = {
        r.get("name"): r
        for r in _as_list(data.get("resources"))
        if isinstance(r, dict) and isinstance(r.get("name"), str)
    }
    out: list[Finding] = []
    for module in _as_list(data.get("modules")):
        if not isinstance(module, dict) or module.get("type") not in _DB_MODULE_TYPES:
            continue
        required = [r.get("name") if isinstance(r, dict) else r for r in _as_list(module.get("requires"))]
        if not any(isinstance(n, str) and n in resources and _resource_is_hdi(resources[n]) for n in required):
            out.append(
                Finding(
                    "mta",
                    "error",
                    f"{name}: database module {_show(module.get('name'))} requires no HDI container resource, so "
                    "the deployer has no database to deploy to and 'cf deploy' fails.",
                    fix="Add a resource of type com.sap.xs.hdi-container (service hana, plan hdi-shared) and "
                    "list it under the module's 'requires'.",
                    file=name,
                    line=_line_of(text, "name:", str(module.get("name"))),
                )
            )
        mod_path = module.get("path")
        if isinstance(mod_path, str) and mod_path and reader.inside(root / mod_path) is not None:
            deployer = root / mod_path / "package.json"
            pkg = reader.json(deployer) if reader.is_file(deployer) else None
            if pkg is not None:
                deps, _dev = _deps(pkg)
                if "@sap/hdi-deploy" not in deps:
                    out.append(
                        Finding(
                            "dependency",
                            "error",
                            f"{reader.show(deployer)} of database module {_show(module.get('name'))} does not "
                            "depend on @sap/hdi-deploy, so the deployer app cannot start.",
                            fix=f"cd {shorten_path(mod_path, 60)} && npm add @sap/hdi-deploy "
                            '(and "start": "node node_modules/@sap/hdi-deploy/deploy.js").',
                            file=reader.rel(deployer),
                        )
                    )
    for resource in resources.values():
        params = resource.get("parameters") if isinstance(resource.get("parameters"), dict) else {}
        if params.get("service") != "xsuaa" or resource.get("type") != "org.cloudfoundry.managed-service":
            continue
        if not params.get("service-plan"):
            out.append(
                Finding(
                    "mta",
                    "error",
                    f"{name}: xsuaa resource {_show(resource.get('name'))} has no 'service-plan', so the service "
                    "instance cannot be created.",
                    fix="Add 'service-plan: application' under the resource's parameters.",
                    file=name,
                    line=_line_of(text, "name:", str(resource.get("name"))),
                )
            )
    return out


# --- App router -----------------------------------------------------------------------------------


_PUBLIC_SOURCES = re.compile(r"^\^?/?(test-)?resources/")  # the UI5 libraries from the CDN


def approuter_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
    """Routes that send unauthenticated requests to a backend destination.

    In a CAP project the backend is the project's own service, which declares its authentication
    itself (CAP Java secures every endpoint by default): there the route is worth a look (info).
    In front of any other backend nothing else stops anonymous requests (warning)."""
    own_backend = det.cap_runtime is not None
    out: list[Finding] = []
    for path in reader.markers().get("xs-app.json", []):
        config = reader.json(path)
        if config is None:
            continue
        text = reader.text(path)
        none_line = _line_of(text, '"none"')  # once: a file of thousands of routes is split once
        for route in _as_list(config.get("routes")):
            if not isinstance(route, dict) or route.get("authenticationType") != "none":
                continue
            destination = route.get("destination")
            if not isinstance(destination, str) or not destination:
                continue  # static content or the HTML5 repository: public pages are fine
            source = route.get("source")
            if isinstance(source, str) and _PUBLIC_SOURCES.match(source):
                continue
            out.append(
                Finding(
                    "security",
                    "info" if own_backend else "warning",
                    f"{reader.show(path)}: route {_show(source)} forwards requests to destination "
                    f"{_show(destination)} without login (authenticationType none), so no user token reaches the "
                    "backend; it is open to anyone unless the backend authenticates every request itself"
                    + (" (the CAP service must require authentication for it)." if own_backend else "."),
                    fix='Use "authenticationType": "xsuaa" (or "ias") for routes to a backend; keep "none" for '
                    "public static content only.",
                    file=reader.rel(path),
                    line=none_line,
                )
            )
    return out


# --- UI5 ------------------------------------------------------------------------------------------

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
_UI5_TYPES = ("@types/openui5", "@sapui5/types", "@openui5/types", "@sapui5/ts-types", "@openui5/ts-types")
_UI5_TYPES += ("@sapui5/ts-types-esm", "@openui5/ts-types-esm")


def _deprecated(lib: str) -> tuple[bool, str | None]:
    if lib in _DEPRECATED_LIBS:
        return True, _DEPRECATED_LIBS[lib]
    if lib.startswith("sap.ca."):
        return True, _DEPRECATED_LIBS["sap.ca.ui"]
    return False, None


def ui5_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
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
                        f"{reader.show(manifest_path)} loads the deprecated library {_show(lib)}: it gets no new "
                        "features and is removed in UI5 2.",
                        fix=f"Move to {successor}, then remove it from sap.ui5/dependencies/libs."
                        if successor
                        else "Remove it from sap.ui5/dependencies/libs and replace its controls (see the SAPUI5 "
                        "documentation, 'Deprecated Themes and Libraries').",
                        file=reader.rel(manifest_path),
                        line=_line_of(text, f'"{lib}"'),
                    )
                )
        pkg_path = app_root / "package.json"
        pkg = reader.json(pkg_path) if reader.is_file(pkg_path) else None
        if pkg is None:
            continue
        deps_, dev = _deps(pkg)
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


def _imports_ui5(app_root: Path, reader: _Reader) -> bool:
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


# --- ABAP (abapGit) -------------------------------------------------------------------------------

_ABAPGIT_OBJECT = re.compile(r"^[\w$#%-]+\.[a-z]{4}(\.[\w-]+)?\.(abap|xml|json|asddls|acds|baseinfo)$", re.I)


def abapgit_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
    """The starting folder must exist and hold the serialized objects."""
    out: list[Finding] = []
    for package in det.abap_packages:
        base = root / package if package != "." else root
        xml_path = base / ".abapgit.xml"
        text = reader.text(xml_path)
        if not text:
            continue
        match = re.search(r"<STARTING_FOLDER>([^<]*)</STARTING_FOLDER>", text)
        folder = (match.group(1) if match else "/src/").strip().strip("/")
        start = base / folder if folder else base
        rel_xml = reader.rel(xml_path)
        if folder and not reader.is_dir(start):
            out.append(
                Finding(
                    "abap",
                    "error",
                    f"{reader.show(xml_path)}: the starting folder '/{shorten_path(folder, 80)}/' does not exist, so "
                    "abapGit finds no objects to pull.",
                    fix="Set <STARTING_FOLDER> to the folder that holds the serialized objects (usually /src/).",
                    file=rel_xml,
                    line=_line_of(text, "<STARTING_FOLDER>"),
                )
            )
            continue
        stray = _objects_outside(base, start, reader)
        if stray:
            shown = ", ".join(stray[:3]) + (f" and {len(stray) - 3} more" if len(stray) > 3 else "")
            out.append(
                Finding(
                    "abap",
                    "warning",
                    f"{len(stray)} serialized ABAP object file(s) lie outside the starting folder "
                    f"'/{shorten_path(folder, 80)}/' ({shown}); abapGit ignores them.",
                    fix="Move them under the starting folder, or correct <STARTING_FOLDER>.",
                    file=rel_xml,
                )
            )
    return out


def _objects_outside(base: Path, start: Path, reader: _Reader) -> list[str]:
    """abapGit object files (name.type.abap / name.type.xml) in the repository root and its top
    folders other than the starting folder."""
    import itertools
    import os

    stray: list[str] = []
    if start == base:
        return stray  # everything is inside
    folders = [base]
    try:
        with os.scandir(base) as listing:
            entries = list(itertools.islice(listing, 2_000))
    except OSError:
        return stray
    folders += [
        Path(e.path)
        for e in entries
        if not e.name.startswith(".") and e.is_dir(follow_symlinks=False) and Path(e.path) != start
    ]
    for folder in folders[:50]:
        if not reader.check():
            break
        try:
            with os.scandir(folder) as listing:
                names = [e.name for e in itertools.islice(listing, 2_000) if e.is_file(follow_symlinks=False)]
        except OSError:
            continue
        stray += [reader.rel(folder / n) for n in sorted(names) if _ABAPGIT_OBJECT.match(n) and n != "package.devc.xml"]
    return stray


# --- CAP Java -------------------------------------------------------------------------------------

_POM_PROPERTY = re.compile(r"<([\w.-]+)>\s*([^<>${}\s]+)\s*</\1>")
_POM_ARTIFACT = (
    r"<artifactId>\s*{}\s*</artifactId>\s*(?:<[^>]+>[^<]*</[^>]+>\s*){{0,3}}?<version>\s*([^<\s]+)\s*</version>"
)


def _pom_version(texts: list[str], artifact: str, properties: dict[str, str]) -> str | None:
    pattern = re.compile(_POM_ARTIFACT.format(re.escape(artifact)))
    for text in texts:
        match = pattern.search(text)
        if match:
            value = match.group(1)
            ref = re.fullmatch(r"\$\{([\w.-]+)\}", value)
            return properties.get(ref.group(1)) if ref else value
    return None


def _poms(root: Path, reader: _Reader) -> tuple[list[str], dict[str, str]]:
    """The texts of the project's pom.xml and srv/pom.xml, and the properties they define."""
    poms = [root / "pom.xml", root / "srv" / "pom.xml"]
    texts = [t[:500_000] for t in (reader.text(p) if reader.is_file(p) else None for p in poms) if t]
    properties: dict[str, str] = {}
    for text in texts:
        for name, value in _POM_PROPERTY.findall(text):
            properties.setdefault(name, value)
    return texts, properties


def cap_java_runtime(root: Path, reader: _Reader) -> str | None:
    """The CAP Java runtime version (cds-services BOM or API) the project's pom.xml files name."""
    texts, properties = _poms(root, reader)
    return _pom_version(texts, "cds-services-bom", properties) or _pom_version(texts, "cds-services-api", properties)


def cap_java_findings(root: Path, reader: _Reader) -> list[Finding]:
    """cds-maven-plugin and the CAP Java runtime (cds-services) at different versions."""
    texts, properties = _poms(root, reader)
    if not texts:
        return []
    runtime = cap_java_runtime(root, reader)
    plugin = _pom_version(texts, "cds-maven-plugin", properties)
    have, want = (parse_version(runtime) if runtime else None), (parse_version(plugin) if plugin else None)
    if not have or not want or have[:2] == want[:2]:
        return []
    return [
        Finding(
            "dependency",
            "warning",
            f"pom.xml: cds-maven-plugin {shorten_path(plugin or '', 40)} and the CAP Java runtime (cds-services) "
            f"{shorten_path(runtime or '', 40)} differ: the plugin generates code and runs the CDS compiler for its "
            "own version.",
            fix="Use one property for both, e.g. <cds.services.version> in the cds-services-bom import and the "
            "cds-maven-plugin version.",
            file="pom.xml",
            line=_line_of(reader.text(root / "pom.xml"), "cds-maven-plugin"),
        )
    ]


# --- service keys anywhere near the top -----------------------------------------------------------

_KEY_FILE = re.compile(r"\.json$", re.I)
_CLIENT_SECRET = re.compile(r'"clientsecret"\s*:\s*"([^"]{8,})"', re.I)
_SKIP_JSON = frozenset({"package.json", "package-lock.json", "tsconfig.json", "manifest.json", "xs-app.json"})
_SKIP_JSON |= {"xs-security.json", "default-env.json", ".cdsrc-private.json", ".cdsrc.json"}


def service_key_findings(root: Path, reader: _Reader) -> list[Finding]:
    """A service key (XSUAA credentials with a client secret) saved as a JSON file in the project root or
    its top folders, and not ignored by git."""
    import itertools
    import os

    from sap_devs.doctor.project import _PLACEHOLDER, _ignored_by_git

    out: list[Finding] = []
    if not reader.check():
        return out
    folders = [root]
    try:
        with os.scandir(root) as listing:
            entries = list(itertools.islice(listing, 2_000))
    except OSError:
        return out
    skip = {"node_modules", "gen", "dist", "target", "mta_archives", "test", "tests"}
    folders += [
        Path(e.path)
        for e in entries
        if e.is_dir(follow_symlinks=False) and not e.name.startswith(".") and e.name not in skip
    ][:50]
    for folder in folders:
        if not reader.check():
            break
        try:
            with os.scandir(folder) as listing:
                names = sorted(
                    e.name
                    for e in itertools.islice(listing, 2_000)
                    if e.is_file(follow_symlinks=False) and _KEY_FILE.search(e.name) and e.name not in _SKIP_JSON
                )
        except OSError:
            continue
        for name in names[:50]:
            path = folder / name
            text = reader.text(path)
            match = _CLIENT_SECRET.search(text or "")
            if not match or _PLACEHOLDER.match(match.group(1)) or _ignored_by_git(folder, reader, name):
                continue
            out.append(
                Finding(
                    "security",
                    "error",
                    f"{reader.show(path)} holds a service key (a 'clientsecret') and is not listed in .gitignore, "
                    "so it gets committed.",
                    fix="Delete it or add it to .gitignore, and rotate the key (cf delete-service-key, then create "
                    "a new one); use 'cds bind' to get credentials at run time instead.",
                    file=reader.rel(path),
                    line=_line_of(text, '"clientsecret"'),
                )
            )
    return out


def _matches_root(source: Any) -> bool:
    """Does a route's source pattern match the root URL '/'? (A one-character subject cannot make a
    pattern backtrack for long.)"""
    if not isinstance(source, str) or len(source) > 500:
        return False
    try:
        return re.match(source, "/") is not None
    except (re.error, RecursionError, OverflowError):
        return False


def welcome_file_findings(root: Path, reader: _Reader) -> list[Finding]:
    """A standalone app router (its folder's package.json has @sap/approuter) without a welcomeFile: the
    application URL answers 'Not Found' until the user appends the app's path."""
    out: list[Finding] = []
    for path in reader.markers().get("xs-app.json", []):
        pkg_path = path.parent / "package.json"
        pkg = reader.json(pkg_path) if reader.is_file(pkg_path) else None
        if pkg is None:
            continue
        deps, dev = _deps(pkg)
        if "@sap/approuter" not in deps and "@sap/approuter" not in dev:
            continue
        config = reader.json(path)
        if config is None or config.get("welcomeFile"):
            continue
        sources = [r.get("source") for r in _as_list(config.get("routes")) if isinstance(r, dict)]
        if any(_matches_root(s) for s in sources[:500]):
            continue  # the root URL is routed (a catch-all route to the backend, or '^/$')
        out.append(
            Finding(
                "approuter",
                "warning",
                f"{reader.show(path)} has no 'welcomeFile', so the application URL answers 'Not Found' until users "
                "add the app's path.",
                fix='Add "welcomeFile": "/<app path>/index.html" (for an HTML5 repository app: "/<sap.app id without '
                'dots>/index.html").',
                file=reader.rel(path),
            )
        )
    return out


_LANGUAGE_VERSION = re.compile(r"<ABAP_LANGU(?:AGE)?_VERSION>\s*5\s*<")


def abaplint_findings(root: Path, reader: _Reader, det: Detection) -> list[Finding]:
    """abaplint.json that checks ABAP for Cloud Development objects against a classic ABAP version."""
    import itertools
    import os

    out: list[Finding] = []
    for package in det.abap_packages:
        base = root / package if package != "." else root
        config_path = base / "abaplint.json"
        config = reader.json(config_path) if reader.is_file(config_path) else None
        syntax = config.get("syntax") if config is not None and isinstance(config.get("syntax"), dict) else None
        version = syntax.get("version") if syntax is not None else None
        if not isinstance(version, str) or version.lower() == "cloud":
            continue
        cloud = 0
        queue = [base / "src"]
        while queue and cloud == 0 and reader.check():
            folder = queue.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = list(itertools.islice(listing, 2_000))
            except OSError:
                continue
            for entry in sorted(entries, key=lambda e: e.name)[:500]:
                if entry.is_dir(follow_symlinks=False) and len(queue) < 50:
                    queue.append(Path(entry.path))
                elif entry.name.endswith(".xml") and _LANGUAGE_VERSION.search(reader.text(Path(entry.path)) or ""):
                    cloud += 1
                    break
        if cloud:
            out.append(
                Finding(
                    "abap",
                    "warning",
                    f"{reader.show(config_path)} checks the code as ABAP {shorten_path(version, 20)}, but the "
                    "repository holds objects in ABAP for Cloud Development (language version 5): abaplint "
                    "misses what ABAP Cloud forbids.",
                    fix='Set "syntax": {"version": "Cloud"} in abaplint.json (a separate configuration for classic '
                    "objects if the repository mixes both).",
                    file=reader.rel(config_path),
                    line=_line_of(reader.text(config_path), '"version"'),
                )
            )
    return out
