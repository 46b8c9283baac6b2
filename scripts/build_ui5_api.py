"""Build the bundled UI5 API data from the declaration files of npm ``@openui5/types``.

Run by hand when the pinned version changes (tests/sap_tools/package.json pins it; `.ci/run` or
`npm install` in ~/.cache/sap-devs-test-sap-tools fetches it):

    .venv/bin/python scripts/build_ui5_api.py [--types DIR]

Writes src/sap_devs/knowledge/ui5_api/data/openui5-api.json.gz. ``@openui5/types`` is Apache-2.0
(NOTICE attributes it). Never point this at ``@sapui5/types``: that package is under the SAP
Developer License and must not be redistributed; the tool reads it from a project at call time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

from sap_devs.knowledge.ui5_api import reader
from sap_devs.knowledge.ui5_api.catalog import BUNDLED_PATH, FORMAT

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TYPES = (
    Path(os.environ.get("SAP_DEVS_TEST_SAP_TOOLS", Path.home() / ".cache" / "sap-devs-test-sap-tools"))
    / "node_modules"
    / "@openui5"
    / "types"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", type=Path, default=DEFAULT_TYPES, help="the @openui5/types package folder")
    parser.add_argument("--out", type=Path, default=BUNDLED_PATH)
    args = parser.parse_args()
    package = args.types
    manifest = json.loads((package / "package.json").read_text(encoding="utf-8"))
    if manifest.get("name") != "@openui5/types":
        print(f"{package} is {manifest.get('name')!r}, not @openui5/types: only the Apache-2.0 package is bundled.")
        return 2
    start = time.monotonic()
    reads, _ = reader.read_package(package / "types")
    problems = [f"{r.library}: {r.problem}" for r in reads if r.problem]
    if problems:
        print("cannot build:", "; ".join(problems))
        return 1
    symbols = sorted(reader.merge(reads), key=lambda s: s["name"])
    data = {
        "format": FORMAT,
        "source": {
            "package": "@openui5/types",
            "version": manifest["version"],
            "license": manifest.get("license", ""),
        },
        "libraries": sorted(r.library for r in reads),
        "symbols": symbols,
    }
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode("utf-8")
    packed = gzip.compress(raw, compresslevel=9, mtime=0)  # mtime 0: the same input gives the same bytes
    tmp = args.out.with_suffix(".tmp")
    tmp.write_bytes(packed)
    os.replace(tmp, args.out)
    print(
        f"{len(symbols)} symbols from {len(reads)} libraries of @openui5/types {manifest['version']} "
        f"in {time.monotonic() - start:.1f} s: {len(raw) / 1e6:.2f} MB JSON, {len(packed) / 1e6:.2f} MB gzip "
        f"-> {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
