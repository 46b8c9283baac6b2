"""Project files checked against the JSON schemas SAP's own tools validate them with.

manifest.json against the UI5 manifest schema, ui5.yaml against the schema UI5 CLI loads,
mta.yaml and xs-app.json against SchemaStore's descriptors (scripts/build_schemas.py copies them;
schema_data/SOURCES.md names versions). Each violation is a finding at the file and line of the
offending value. The validator and the schemas load only when a project has such a file.
"""

from __future__ import annotations

import itertools
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from sap_devs.doctor.project.model import Detection, Finding, Severity, shorten_path
from sap_devs.doctor.project.mta import mta_file, mta_folders
from sap_devs.doctor.project.reader import Reader

DATA = Path(__file__).with_name("schema_data")
MAX_ERRORS = 8  # per file: the first few say what is wrong; the rest repeat it
MAX_MESSAGE = 240
MAX_SCANNED = 500  # violations looked at per file, before the ignored kinds are dropped


@lru_cache(maxsize=8)
def _validator(name: str) -> Any:
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7

    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    if name != "ui5-yaml.json":
        return jsonschema.validators.validator_for(data)(data)
    # UI5 CLI's schema is a tree of files referring to each other by relative path
    resources = []
    for rel, doc in data["files"].items():
        resource = Resource.from_contents(doc, default_specification=DRAFT7)
        resources.append((data["base"] + rel, resource))
        if isinstance(doc.get("$id"), str):
            resources.append((doc["$id"], resource))
    root = data["files"][data["root"]]
    registry: Registry[Any] = Registry().with_resources(resources)
    return jsonschema.Draft7Validator(root, registry=registry)


def _json_line(text: str, path: list[Any]) -> int | None:
    """Line of the value at ``path`` in a JSON text: each key is searched after the previous one."""
    offset = 0
    found = None
    for part in path:
        if not isinstance(part, str):
            continue
        at = text.find(json.dumps(part), offset)
        if at < 0:
            break
        offset, found = at, at
    return text.count("\n", 0, found) + 1 if found is not None else None


def _yaml_line(text: str, path: list[Any]) -> int | None:
    """Line of the value at ``path`` in a YAML text, from the composed node tree (aliases are not expanded)."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for part in path:
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            match = next((v for k, v in node.value if getattr(k, "value", None) == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            match = node.value[part]
        else:
            match = None
        if match is None:
            break
        node, line = match, match.start_mark.line + 1
    return line


def _top_required(error: Any) -> bool:
    return error.validator == "required" and not list(error.absolute_path)


def _message(error: Any) -> str:
    import jsonschema

    best = jsonschema.exceptions.best_match([error, *error.context]) if error.context else error
    where = "/".join(str(p) for p in best.absolute_path) or "(top level)"
    text = best.message if len(best.message) <= MAX_MESSAGE else best.message[: MAX_MESSAGE - 1] + "…"
    return f"{where}: {text}"


# Schema keywords whose violations a file's own tool tolerates: the UI5 runtime ignores unknown
# manifest keys and fills missing ones; SchemaStore's copies lag the tools (xs-app.json lacks newer
# route options such as preferLocal). Wrong types and values are reported everywhere.
UNKNOWN_KEYS = frozenset({"additionalProperties"})
MISSING_OR_UNKNOWN = frozenset({"additionalProperties", "required"})


def _check(
    reader: Reader,
    path: Path,
    data: Any,
    schema: str,
    what: str,
    severity: Severity,
    yaml_file: bool,
    ignore: frozenset[str] = frozenset(),
    top_level_known: bool = False,
) -> list[Finding]:
    """``top_level_known``: a dedicated check already reports missing top-level keys (mta.yaml's
    _schema-version, ID, version), with its own fix; the schema's copy would say it twice."""
    if data is None:
        return []
    validator = _validator(schema)
    try:
        scanned = itertools.islice(validator.iter_errors(data), MAX_SCANNED)
        errors = [e for e in scanned if e.validator not in ignore and not (top_level_known and _top_required(e))]
    except RecursionError:  # a hostile file nested deeper than any real descriptor
        reader.note(f"{reader.show(path)} is nested too deeply to check against {what}")
        return []
    errors.sort(key=lambda e: list(map(str, e.absolute_path)))
    text = reader.text(path) or ""
    out = []
    for error in errors[:MAX_ERRORS]:
        parts = list(error.absolute_path)
        out.append(
            Finding(
                "schema",
                severity,
                f"{reader.show(path)} does not match {what}: {_message(error)}",
                fix=f"Correct {shorten_path(reader.rel(path))} where the schema says; the tool that reads it "
                "refuses or ignores what does not match.",
                file=reader.rel(path),
                line=_yaml_line(text, parts) if yaml_file else _json_line(text, parts),
            )
        )
    if len(errors) > MAX_ERRORS:
        reader.note(f"{reader.show(path)}: showed the first {MAX_ERRORS} of {len(errors)} schema violations")
    return out


def schema_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    out: list[Finding] = []
    for app in det.ui5_apps:
        manifest = root / app / "webapp" / "manifest.json"
        if reader.is_file(manifest):
            data = reader.json(manifest)
            out += _check(reader, manifest, data, "ui5-manifest.json", "the UI5 manifest schema", "warning", False,
                          MISSING_OR_UNKNOWN)  # fmt: skip
        ui5_yaml = root / app / "ui5.yaml"
        data = reader.yaml(ui5_yaml) if reader.is_file(ui5_yaml) else None
        if isinstance(data, dict):  # UI5 CLI validates with exactly this schema and refuses what fails
            out += _check(reader, ui5_yaml, data, "ui5-yaml.json", "UI5 CLI's ui5.yaml schema", "error", True)
    if "MTA" in det.types:
        for folder in mta_folders(root, reader):
            path = mta_file(folder, reader)
            data = reader.yaml(path)
            if isinstance(data, dict):
                out += _check(
                    reader, path, data, "mta.json", "the MTA descriptor schema", "error", True, UNKNOWN_KEYS, True
                )
    for path in dict.fromkeys([root / "xs-app.json", *reader.find("xs-app.json", root, 2)]):
        if reader.is_file(path):
            data = reader.json(path)
            out += _check(reader, path, data, "xs-app.json", "the xs-app.json schema", "warning", False, UNKNOWN_KEYS)
    return list({(f.file, f.message): f for f in out}.values())
