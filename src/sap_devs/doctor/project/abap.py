"""abapGit repositories: the object layout under the starting folder, and abaplint's language version."""

from __future__ import annotations

import re
from pathlib import Path

from sap_devs.doctor.project.model import Detection, Finding, shorten_path
from sap_devs.doctor.project.reader import Reader, line_of

_ABAPGIT_OBJECT = re.compile(r"^[\w$#%-]+\.[a-z]{4}(\.[\w-]+)?\.(abap|xml|json|asddls|acds|baseinfo)$", re.I)


def abapgit_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
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
                    line=line_of(text, "<STARTING_FOLDER>"),
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


def _objects_outside(base: Path, start: Path, reader: Reader) -> list[str]:
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


_LANGUAGE_VERSION = re.compile(r"<ABAP_LANGU(?:AGE)?_VERSION>\s*5\s*<")


def _configured_version(base: Path, reader: Reader) -> tuple[Path, str | None]:
    """abaplint.json's ``syntax.version`` in the abapGit folder ``base``, if it sets one."""
    config_path = base / "abaplint.json"
    config = reader.json(config_path) if reader.is_file(config_path) else None
    syntax = config.get("syntax") if config is not None and isinstance(config.get("syntax"), dict) else None
    version = syntax.get("version") if syntax is not None else None
    return config_path, version if isinstance(version, str) else None


def has_cloud_objects(base: Path, reader: Reader) -> bool:
    """Whether an object under ``base/src`` is in ABAP for Cloud Development (language version 5)."""
    import itertools
    import os

    queue = [base / "src"]
    while queue and reader.check():
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
                return True
    return False


def language_version(base: Path, reader: Reader) -> str:
    """``cloud`` when the abapGit folder says its code is ABAP Cloud (abaplint.json or an object's
    language version), else ``standard``: checking classic code as cloud would flag every table."""
    _path, version = _configured_version(base, reader)
    if version is not None:
        return "cloud" if version.lower() == "cloud" else "standard"
    return "cloud" if has_cloud_objects(base, reader) else "standard"


def abaplint_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    """abaplint.json that checks ABAP for Cloud Development objects against a classic ABAP version."""
    out: list[Finding] = []
    for package in det.abap_packages:
        base = root / package if package != "." else root
        config_path, version = _configured_version(base, reader)
        if version is None or version.lower() == "cloud":
            continue
        cloud = has_cloud_objects(base, reader)
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
                    line=line_of(reader.text(config_path), '"version"'),
                )
            )
    return out
