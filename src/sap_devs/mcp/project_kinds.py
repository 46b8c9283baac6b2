"""Which kinds of SAP project the server's folder holds, cheaply, to list the tools that fit it.

A CAP project does not need abaplint in its tool list, nor an abapGit repository the CDS model
search. This runs at every stdio start (the fast front too), so it only looks at a few paths and
reads at most two small files; ``doctor.project.detect`` is the thorough detection the checks use.
Kinds: ``cap`` (CAP Node.js or Java), ``ui5`` (a UI5 / Fiori app), ``abap`` (abapGit or abaplint).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

KINDS = ("abap", "cap", "ui5")
MAX_READ = 1024 * 1024  # package.json and pom.xml larger than this are not a project's own
APP_FOLDERS = ("app", "apps", "webapps", "packages")
MAX_LISTED = 200  # sub-folders of app/ looked at for <app>/webapp/manifest.json


def _small_text(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_READ:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return None


def _cap(root: Path) -> bool:
    text = _small_text(root / "package.json")
    if text is not None:
        try:
            pkg = json.loads(text)
        except (ValueError, RecursionError):
            pkg = None
        if isinstance(pkg, dict):
            for key in ("dependencies", "devDependencies"):
                deps = pkg.get(key)
                if isinstance(deps, dict) and "@sap/cds" in deps:
                    return True
    if (root / ".cdsrc.json").is_file():
        return True
    pom = _small_text(root / "pom.xml")
    return pom is not None and "com.sap.cds" in pom


def _ui5(root: Path) -> bool:
    if (root / "ui5.yaml").is_file() or (root / "webapp" / "manifest.json").is_file():
        return True
    for folder in APP_FOLDERS:
        try:
            with os.scandir(root / folder) as entries:
                for count, entry in enumerate(entries):
                    if count >= MAX_LISTED:
                        break
                    if entry.is_dir(follow_symlinks=False) and Path(entry.path, "webapp", "manifest.json").is_file():
                        return True
        except OSError:
            continue
    return False


def _abap(root: Path) -> bool:
    return (root / ".abapgit.xml").is_file() or (root / "abaplint.json").is_file()


def detect_kinds(root: Path) -> frozenset[str]:
    """The project kinds of ``root`` (empty for a folder that is none of them, or cannot be read)."""
    try:
        if not root.is_dir():
            return frozenset()
    except OSError:
        return frozenset()
    found = {kind for kind, test in (("cap", _cap), ("ui5", _ui5), ("abap", _abap)) if test(root)}
    return frozenset(found)


def fits(tool_kinds: frozenset[str] | list[str], project: frozenset[str] | None) -> bool:
    """Is a tool for ``tool_kinds`` listed for a project of kinds ``project`` (None: no filtering)?"""
    return project is None or not tool_kinds or bool(set(tool_kinds) & project)
