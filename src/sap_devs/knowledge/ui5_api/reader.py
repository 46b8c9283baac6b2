"""Reading a UI5 types package (``@openui5/types`` or ``@sapui5/types``): its ``types/sap.*.d.ts``
files, one per library, into API symbols.

The maintainer script reads ``@openui5/types`` in full to build the bundled data; the tool reads
the SAPUI5-only libraries of a project's ``@sapui5/types`` at call time. Both go through
``read_library``, which bounds the bytes it reads and the time it parses.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from sap_devs.knowledge.ui5_api import dts, symbols

LIBRARY_FILE = re.compile(r"^(sap(?:\.[A-Za-z0-9_]+)+)\.d\.ts$")
FILE_MAX = 16 * 1024 * 1024  # sap.m.d.ts, the largest library, is 6 MB
TOO_SLOW = "took too long to parse"


@dataclass
class LibraryRead:
    library: str
    symbols: list[symbols.Symbol] = field(default_factory=list)
    problem: str | None = None  # why the library was skipped or cut short


def library_files(types_dir: Path) -> list[tuple[str, Path]]:
    """(library, file) for every ``sap.*.d.ts`` in ``types_dir``, sorted by library."""
    out = []
    try:
        entries = sorted(types_dir.iterdir())
    except OSError:
        return []
    for path in entries:
        m = LIBRARY_FILE.match(path.name)
        if m:
            out.append((m.group(1), path))
    return out


def package_version(package_dir: Path) -> str | None:
    try:
        raw = (package_dir / "package.json").read_bytes()[:65536]
        data = json.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) and len(version) <= 40 else None


def read_text(path: Path, limit: int = FILE_MAX) -> str:
    """The file's text; ``ValueError`` when it is larger than ``limit`` bytes."""
    with path.open("rb") as handle:
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise ValueError(f"larger than {limit // (1024 * 1024)} MB")
    return raw.decode("utf-8", errors="replace")


def parse_library(library: str, text: str, names: symbols.Names, deadline: float | None = None) -> LibraryRead:
    try:
        decls = dts.parse(text, deadline=deadline)
    except dts.DtsTimeout:
        return LibraryRead(library, problem=TOO_SLOW)
    except (dts.DtsTooDeep, RecursionError):
        return LibraryRead(library, problem="is nested too deeply to parse")
    return LibraryRead(library, symbols.file_symbols(decls, library, names))


def merge(reads: list[LibraryRead]) -> list[symbols.Symbol]:
    """All symbols, one per name: a library module that several files declare (``sap.m.d.ts``
    adds to ``sap/f/library``) keeps its first record, with the methods of the others added."""
    by_name: dict[str, symbols.Symbol] = {}
    for read in reads:
        for sym in read.symbols:
            seen = by_name.get(sym["name"])
            if seen is None:
                by_name[sym["name"]] = sym
                continue
            known = {m["name"] for m in seen.get("methods", [])}
            extra = [m for m in sym.get("methods", []) if m["name"] not in known]
            if extra:
                seen["methods"] = [*seen.get("methods", []), *extra]
    return list(by_name.values())


def read_package(types_dir: Path, *, deadline: float | None = None) -> tuple[list[LibraryRead], symbols.Names]:
    """Every library of a types package (the maintainer's full read)."""
    texts = {library: read_text(path) for library, path in library_files(types_dir)}
    names = symbols.Names(symbols.module_linked(texts.values()))
    return [parse_library(lib, text, names, deadline) for lib, text in texts.items()], names
