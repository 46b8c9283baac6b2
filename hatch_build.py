"""Build hook: the bundled SAP documentation index, built from data/docs/*.tar.gz into the package.

It runs for wheels and editable installs. The index is rebuilt only when a tarball or the indexing
code changed (a stamp beside it records their digest), so repeated installs stay fast.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
TARBALLS = ROOT / "data" / "docs"
OUT = ROOT / "src" / "sap_devs" / "docs" / "data" / "docs.sqlite"
DOCS = ROOT / "src" / "sap_devs" / "docs"
CODE = [
    DOCS / name
    for name in ("ingest.py", "index.py", "sources.py", "build.py", "questions.py", "flavours.py", "postings.py")
]
CODE.append(DOCS / "api_reference.py")
CODE.append(ROOT / "src" / "sap_devs" / "search" / "analysis.py")
UI5_API = ROOT / "src" / "sap_devs" / "knowledge" / "ui5_api"
CODE += [UI5_API / "catalog.py", UI5_API / "data" / "openui5-api.json.gz"]  # the API reference pages are made of it
CODE += sorted((DOCS / "questions").glob("*.tsv"))  # the questions indexed beside each page


def _digest() -> str:
    h = hashlib.sha256()
    for path in sorted(TARBALLS.glob("*.tar.gz")) + CODE:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not TARBALLS.is_dir() or not any(TARBALLS.glob("*.tar.gz")):
            self.app.display_warning("data/docs has no documentation tarballs: building without the docs index")
            return
        stamp = OUT.with_suffix(".stamp")
        digest = _digest()
        if OUT.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest:
            return
        sys.path.insert(0, str(ROOT / "src"))
        try:
            from sap_devs.docs.build import build_bundled

            self.app.display_info("Building the SAP documentation index (about 3 to 4 minutes) ...")
            counts = build_bundled(TARBALLS, OUT, progress=lambda msg: self.app.display_debug(msg))
        finally:
            sys.path.remove(str(ROOT / "src"))
        stamp.write_text(digest + "\n", encoding="utf-8")
        self.app.display_info(f"Indexed {counts['pages']:,} pages, {counts['sections']:,} sections.")
