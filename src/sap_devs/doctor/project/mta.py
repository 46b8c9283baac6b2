"""Multitarget application descriptors (mta.yaml): required keys, module paths, HDI resources."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.project.model import Finding, shorten_path
from sap_devs.doctor.project.reader import Reader, as_list, dependencies_of, in_folder, line_of, quoted


def _mta_commands(data: dict[str, Any]) -> list[str]:
    """Commands of the MTA's global build steps (before-all / after-all custom builders)."""
    build = data.get("build-parameters")
    commands: list[str] = []
    if not isinstance(build, dict):
        return commands
    for phase in ("before-all", "after-all"):
        steps = build.get(phase)
        for step in steps if isinstance(steps, list) else [steps] if isinstance(steps, dict) else []:
            if isinstance(step, dict):
                commands.extend(c for c in as_list(step.get("commands")) if isinstance(c, str))
    return commands


_NPM_RUN = re.compile(r"\b(?:npm\s+run(?:-script)?|yarn(?:\s+run)?|pnpm(?:\s+run)?)\s+([\w:.-]{1,100})")
_MAX_COMMANDS = 100


def _with_scripts(commands: list[str], pkg: dict[str, Any] | None) -> list[str]:
    """The build commands as they run: 'npm run build' in a build step runs the 'build' script of the
    package.json beside mta.yaml (which may call further scripts)."""
    scripts = pkg.get("scripts") if isinstance(pkg, dict) and isinstance(pkg.get("scripts"), dict) else {}
    out = list(commands[:_MAX_COMMANDS])
    index = 0
    while index < len(out) and len(out) < _MAX_COMMANDS:
        for name in _NPM_RUN.findall(out[index][:2000]):
            script = scripts.get(name)
            if isinstance(script, str) and script[:2000] not in out:
                out.append(script[:2000])
        index += 1
    return out


def _build_target(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> str:
    """Where 'cds build' writes (cds.build.target in package.json or .cdsrc.json; 'gen' by default)."""
    for source in (pkg, reader.json(root / ".cdsrc.json") if reader.is_file(root / ".cdsrc.json") else None):
        if not isinstance(source, dict):
            continue
        cds = source.get("cds", source) if source is pkg else source
        build = cds.get("build") if isinstance(cds, dict) else None
        target = build.get("target") if isinstance(build, dict) else None
        if isinstance(target, str) and target.strip("./"):
            return target.strip("./").split("/")[0]
    return "gen"


def _made_by_build(mod_path: str, commands: list[str], target: str) -> bool:
    """Is a missing module path one that the MTA's own build steps create?

    'cds build' writes its output to <project>/gen (or cds.build.target), also for a project in a
    subfolder ('cds build orders' writes orders/gen); nothing else in an MTA build creates folders
    that a module then points to."""
    parts = [p for p in mod_path.replace("\\", "/").split("/") if p not in ("", ".")]
    return any("cds build" in c or "cds-build" in c for c in commands) and target in parts


_MTA_DEPTH = 3  # a monorepo's projects sit one or two folders down; deeper ones are test data or samples
_MAX_MTAS = 20
_NOT_PROJECTS = frozenset({"test", "tests", "__tests__", "fixtures", "node_modules", "gen", "dist"})


def mta_file(folder: Path, reader: Reader) -> Path:
    return folder / "mta.yaml" if reader.is_file(folder / "mta.yaml") else folder / ".mta.yaml"


def mta_folders(root: Path, reader: Reader) -> list[Path]:
    """Folders with an MTA descriptor: the root, and in a repository of several projects the folders up
    to three levels below it (not test data), each checked on its own."""
    key = ("mta folders", root)
    if key not in reader._parsed:  # asked by detection, the MTA checks and the xsappname lookup
        reader._parsed[key] = _find_mta_folders(root, reader)
    return reader._parsed[key]  # type: ignore[no-any-return]


def _find_mta_folders(root: Path, reader: Reader) -> list[Path]:
    folders = [root] if reader.is_file(root / "mta.yaml") or reader.is_file(root / ".mta.yaml") else []
    below = [
        p.parent
        for name in ("mta.yaml", ".mta.yaml")
        for p in reader.find(name, root, _MTA_DEPTH)
        if p.parent != root and not _NOT_PROJECTS.intersection(p.parent.relative_to(root).parts)
    ]
    for folder in sorted(set(below), key=lambda p: p.parts):
        if len(folders) >= _MAX_MTAS:
            reader.note(f"checked the first {_MAX_MTAS} mta.yaml files only")
            break
        folders.append(folder)
    return folders


def all_mta_findings(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> list[Finding]:
    """Every MTA of the repository, its findings named from the repository root."""
    out: list[Finding] = []
    for folder in mta_folders(root, reader):
        if not reader.check():
            break
        if folder == root:
            out += module_path_findings(root, reader, pkg) + descriptor_findings(root, reader)
            continue
        sub_pkg = reader.json(folder / "package.json") if reader.is_file(folder / "package.json") else None
        prefix = reader.rel(folder)
        found = module_path_findings(folder, reader, sub_pkg) + descriptor_findings(folder, reader)
        out += [in_folder(f, prefix) for f in found]
    return out


def module_path_findings(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> list[Finding]:
    path = mta_file(root, reader)
    data = reader.yaml(path)
    if not isinstance(data, dict):
        return []
    text = reader.text(path)
    out = []
    name = path.name
    for key in ("_schema-version", "ID", "version"):
        if not data.get(key):
            out.append(
                Finding(
                    "mta",
                    "error",
                    f"{name} has no '{key}'.",
                    fix=f"Add a '{key}' entry at the top: the MTA build (mbt) and 'cf deploy' refuse the file without it.",
                    file=name,
                )
            )
    commands = _with_scripts(_mta_commands(data), pkg)
    target = _build_target(root, reader, pkg)
    modules = as_list(data.get("modules"))
    if any(isinstance(m, dict) and str(m.get("type", "")).startswith("com.sap.hcp.") for m in modules):
        return out  # an SAP BTP Neo descriptor: its role and destination modules carry no content
    for module in modules:
        if len(out) >= reader.limits.max_findings or not reader.check():
            break
        if not isinstance(module, dict):
            continue
        mod_path = module.get("path")
        if not isinstance(mod_path, str) or not mod_path:
            continue
        target_path = root / mod_path
        if reader.inside(target_path) is None:
            continue  # outside the project (or unusable): not ours to look at
        if reader.exists(target_path) or _made_by_build(mod_path, commands, target):
            continue
        out.append(
            Finding(
                "mta",
                "error",
                f"{name}: module {quoted(module.get('name'))} points to {quoted(mod_path)}, which does not exist.",
                fix="No build step of the MTA creates it, so 'mbt build' stops there: correct the module path, or "
                "add the step that creates it (e.g. 'npx cds build --production') to build-parameters/before-all.",
                file=name,
                line=line_of(text, "path:", mod_path),
            )
        )
    return out


_HDI_TYPES = ("com.sap.xs.hdi-container",)
_DB_MODULE_TYPES = ("hdb", "com.sap.xs.hdi")


def _resource_is_hdi(resource: dict[str, Any]) -> bool:
    if resource.get("type") in _HDI_TYPES:
        return True
    params = resource.get("parameters") if isinstance(resource.get("parameters"), dict) else {}
    return params.get("service") == "hana" and params.get("service-plan") in ("hdi-shared", "hdi")


def descriptor_findings(root: Path, reader: Reader) -> list[Finding]:
    """Database modules without their HDI container; xsuaa resources without a plan; db deployers
    without @sap/hdi-deploy."""

    path = mta_file(root, reader)
    data = reader.yaml(path)
    if not isinstance(data, dict):
        return []
    text = reader.text(path)
    name = path.name
    resources = {
        r.get("name"): r
        for r in as_list(data.get("resources"))
        if isinstance(r, dict) and isinstance(r.get("name"), str)
    }
    out: list[Finding] = []
    for module in as_list(data.get("modules")):
        if not isinstance(module, dict) or module.get("type") not in _DB_MODULE_TYPES:
            continue
        required = [r.get("name") if isinstance(r, dict) else r for r in as_list(module.get("requires"))]
        if not any(isinstance(n, str) and n in resources and _resource_is_hdi(resources[n]) for n in required):
            out.append(
                Finding(
                    "mta",
                    "error",
                    f"{name}: database module {quoted(module.get('name'))} requires no HDI container resource, so "
                    "the deployer has no database to deploy to and 'cf deploy' fails.",
                    fix="Add a resource of type com.sap.xs.hdi-container (service hana, plan hdi-shared) and "
                    "list it under the module's 'requires'.",
                    file=name,
                    line=line_of(text, "name:", str(module.get("name"))),
                )
            )
        mod_path = module.get("path")
        if isinstance(mod_path, str) and mod_path and reader.inside(root / mod_path) is not None:
            deployer = root / mod_path / "package.json"
            pkg = reader.json(deployer) if reader.is_file(deployer) else None
            if pkg is not None:
                deps, _dev = dependencies_of(pkg)
                if "@sap/hdi-deploy" not in deps:
                    out.append(
                        Finding(
                            "dependency",
                            "error",
                            f"{reader.show(deployer)} of database module {quoted(module.get('name'))} does not "
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
                    f"{name}: xsuaa resource {quoted(resource.get('name'))} has no 'service-plan', so the service "
                    "instance cannot be created.",
                    fix="Add 'service-plan: application' under the resource's parameters.",
                    file=name,
                    line=line_of(text, "name:", str(resource.get("name"))),
                )
            )
    return out
