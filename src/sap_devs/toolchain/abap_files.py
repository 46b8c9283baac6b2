"""The ABAP files to check: one source text, a file, or an abapGit folder (its .abapgit.xml starting folder).

Everything here is bounded (files, bytes, depth) and symlinks are never followed, so a hostile
repository (a symlink loop, a huge file, millions of files) cannot stall the check.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.core.errors import SapDevsError

SOURCE_MAX = 1 << 20  # one object's source: the biggest SAP classes are a few hundred KB
FILE_MAX = 2 << 20
TOTAL_MAX = 32 << 20
FILES_MAX = 4000
DEPTH_MAX = 25
ENTRIES_MAX = 100_000  # folder entries looked at: a path like / or a home folder is refused, not walked
# what abaplint reads: ABAP sources, the abapGit XML beside them (DDIC, class metadata), CDS and RAP sources
SUFFIXES = (".abap", ".xml", ".asddls", ".asbdef", ".asdcls", ".acds")

SNIPPET_CLASS = "zcl_sap_devs_snippet"
_CLASS = re.compile(r"^\s*CLASS\s+(\S+)\s+DEFINITION\b([^.]*)", re.IGNORECASE | re.MULTILINE)
_INTERFACE = re.compile(r"^\s*INTERFACE\s+(\S+)\s+PUBLIC\b", re.IGNORECASE | re.MULTILINE)
_PROGRAM = re.compile(r"^\s*(?:REPORT|PROGRAM)\s+([^\s.]+)", re.IGNORECASE | re.MULTILINE)
_LOCAL_CLASS = re.compile(r"^\s*CLASS\s+\S+\s+(?:DEFINITION|IMPLEMENTATION)\b", re.IGNORECASE | re.MULTILINE)
_STARTING_FOLDER = re.compile(rb"<STARTING_FOLDER>([^<]*)</STARTING_FOLDER>")


@dataclass(frozen=True)
class AbapFile:
    name: str  # abapGit file name, as abaplint expects it (zcl_x.clas.abap)
    text: str
    shown_as: str  # what findings call the file (relative path, or "source")
    line_offset: int = 0  # lines a wrapper adds before the user's first line


@dataclass
class AbapInput:
    files: list[AbapFile]
    root: Path | None = None
    snippet: bool = False  # the source was statements, checked inside a generated method
    skipped: list[str] = field(default_factory=list)


def _abapgit_name(name: str) -> str:
    """abapGit's file name of an object name: lower case, namespaces /X/ as #x#."""
    return name.strip().lower().replace("/", "#")


def from_source(source: str) -> AbapInput:
    """One source text: a global class, interface or program as given, else statements checked as
    the body of a method of a generated class (lines mapped back)."""
    if len(source.encode("utf-8")) > SOURCE_MAX:
        raise SapDevsError(f"The source is longer than {SOURCE_MAX >> 10} KB; check one object at a time.")
    if not source.strip():
        raise SapDevsError("The source is empty.")
    text = source.replace("\r\n", "\n")
    if (m := _CLASS.search(text)) and "PUBLIC" in m[2].upper():
        return AbapInput([AbapFile(f"{_abapgit_name(m[1])}.clas.abap", text, "source")])
    if m := _INTERFACE.search(text):
        return AbapInput([AbapFile(f"{_abapgit_name(m[1])}.intf.abap", text, "source")])
    if (m := _PROGRAM.search(text)) or _LOCAL_CLASS.search(text):
        name = _abapgit_name(m[1]) if m else "zsap_devs_snippet"
        return AbapInput([AbapFile(f"{name}.prog.abap", text, "source")], snippet=m is None)
    head = (
        f"CLASS {SNIPPET_CLASS} DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    METHODS run.\n"
        f"ENDCLASS.\nCLASS {SNIPPET_CLASS} IMPLEMENTATION.\n  METHOD run.\n"
    )
    wrapped = f"{head}{text}\n  ENDMETHOD.\nENDCLASS.\n"
    return AbapInput([AbapFile(f"{SNIPPET_CLASS}.clas.abap", wrapped, "source", head.count("\n"))], snippet=True)


def _starting_folder(root: Path) -> Path:
    marker = root / ".abapgit.xml"
    try:
        if marker.is_symlink() or not marker.is_file():
            return root
        data = marker.read_bytes()[: 64 << 10]
    except OSError:
        return root
    match = _STARTING_FOLDER.search(data)
    folder = (match[1].decode("utf-8", "replace").strip().strip("/") if match else "src") or ""
    start = (root / folder).resolve() if folder else root
    if not start.is_relative_to(root.resolve()) or not start.is_dir():
        raise SapDevsError(
            f"{marker}: STARTING_FOLDER {folder!r} is not a folder inside the repository; correct it (usually /src/)."
        )
    return start


def from_path(path: Path) -> AbapInput:
    """An abapGit folder (from its .abapgit.xml STARTING_FOLDER) or a single ABAP file."""
    try:
        target = path.expanduser().resolve(strict=True)
    except (OSError, RuntimeError):
        raise SapDevsError(f"{path} does not exist.") from None
    if target.is_file():
        if not target.name.lower().endswith(SUFFIXES):
            raise SapDevsError(f"{path} is not an ABAP file (expected {', '.join(SUFFIXES)}).")
        size = target.stat().st_size
        if size > FILE_MAX:
            raise SapDevsError(f"{path} is {size >> 20} MB; files over {FILE_MAX >> 20} MB are not checked.")
        text = target.read_text(encoding="utf-8", errors="replace")
        return AbapInput([AbapFile(target.name.lower(), text, target.name)], root=target.parent)
    start = _starting_folder(target)
    found = AbapInput([], root=target)
    total = 0
    seen = 0
    stack: list[tuple[Path, int]] = [(start, 0)]
    while stack:
        folder, depth = stack.pop()
        entries = []
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    seen += 1
                    if seen > ENTRIES_MAX:
                        raise SapDevsError(
                            f"{path} holds more than {ENTRIES_MAX:,} files and folders: give the abapGit repository "
                            "(the folder with .abapgit.xml), a package folder or one file."
                        )
                    entries.append(entry)
        except OSError:
            found.skipped.append(f"{folder.relative_to(target)}/ (unreadable)")
            continue
        entries.sort(key=lambda e: e.name)
        for entry in entries:
            if entry.is_symlink():
                found.skipped.append(f"{Path(entry.path).relative_to(target)} (symlink, not followed)")
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 > DEPTH_MAX:
                    found.skipped.append(f"{Path(entry.path).relative_to(target)}/ (deeper than {DEPTH_MAX})")
                elif not entry.name.startswith(".") and entry.name != "node_modules":
                    stack.append((Path(entry.path), depth + 1))
                continue
            if not entry.name.lower().endswith(SUFFIXES) or not entry.is_file(follow_symlinks=False):
                continue
            rel = Path(entry.path).relative_to(target).as_posix()
            size = entry.stat(follow_symlinks=False).st_size
            if size > FILE_MAX:
                found.skipped.append(f"{rel} ({size >> 20} MB, over {FILE_MAX >> 20} MB)")
                continue
            if len(found.files) >= FILES_MAX or total + size > TOTAL_MAX:
                raise SapDevsError(
                    f"{path} holds more than {FILES_MAX} ABAP files or {TOTAL_MAX >> 20} MB: "
                    "check a package folder or single files instead."
                )
            total += size
            text = Path(entry.path).read_text(encoding="utf-8", errors="replace")
            # the path keeps two folders' same-named files apart; abaplint reads the object from the base name
            found.files.append(
                AbapFile(f"/{Path(rel).parent.as_posix()}/{entry.name.lower()}".replace("/./", "/"), text, rel)
            )
    if not any(f.name.endswith(".abap") for f in found.files):
        raise SapDevsError(f"No ABAP sources (*.abap) under {start}.")
    return found
