"""The UI5 API reference: the bundled OpenUI5 symbols, plus the SAPUI5-only libraries a project's
``node_modules/@sapui5/types`` holds, looked up by name and searched by words.

The bundled file is read on first use (never at start-up). ``@sapui5/types`` is under the SAP
Developer License: it is only ever read from the user's project, per call, and cached in memory
per file (path, size, mtime), never copied anywhere.
"""

from __future__ import annotations

import difflib
import gzip
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sap_devs.knowledge.ui5_api import reader, symbols
from sap_devs.knowledge.ui5_api.symbols import Symbol
from sap_devs.search import Field, analyze, index_for

BUNDLED_PATH = Path(__file__).parent / "data" / "openui5-api.json.gz"
FORMAT = 1
REFERENCE = "https://ui5.sap.com/#/api/"  # SAPUI5's reference lists OpenUI5's symbols too
GROUPS = ("properties", "aggregations", "associations", "events", "methods", "values", "fields")
GROUP_KIND = {
    "properties": "property",
    "aggregations": "aggregation",
    "associations": "association",
    "events": "event",
    "methods": "method",
    "values": "value",
    "fields": "field",
}
SAPUI5_PACKAGE = ("node_modules", "@sapui5", "types")
SAPUI5_FILES_MAX = 300
SAPUI5_BYTES_MAX = 160 * 1024 * 1024  # the whole package is about 60 MB
INHERITANCE_MAX = 30  # a class hierarchy deeper than this is a loop in hostile data


def reference_url(name: str, section: str | None = None) -> str:
    """A symbol's page in the API reference, or one section of it ("events/press", "controlProperties")."""
    return with_section(REFERENCE + name, section)


def with_section(url: str, section: str | None) -> str:
    """``url`` at one of its sections: the reference is an app routed by the part after '#', so a section
    follows as an encoded '#' (%23), the way the reference's own links spell it."""
    return f"{url}%23{section}" if section else url


class DataError(Exception):
    """The bundled API data is missing or unreadable (a broken installation)."""


@dataclass
class Catalog:
    """Symbols and the ways to find them."""

    symbols: list[Symbol]
    by_name: dict[str, Symbol] = field(default_factory=dict)
    by_module: dict[str, Symbol] = field(default_factory=dict)
    by_short: dict[str, list[Symbol]] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # library -> where its symbols came from

    def add(self, items: list[Symbol], origin: str) -> None:
        for sym in items:
            key = sym["name"].lower()
            if key in self.by_name:
                continue
            self.symbols.append(sym)
            self.by_name[key] = sym
            module = sym.get("module")
            if module and (module not in self.by_module or sym["name"] == _module_name(module)):
                self.by_module[module] = sym
            self.by_short.setdefault(short_name(sym["name"]).lower(), []).append(sym)
            self.origin.setdefault(sym.get("library", ""), origin)


def _module_name(module: str) -> str:
    return module.replace("/", ".")


def short_name(name: str) -> str:
    return re.split(r"[./]", name)[-1]


@dataclass(frozen=True)
class Bundled:
    catalog: Catalog
    package: str
    version: str
    libraries: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.package} {self.version} (bundled, Apache-2.0)"


_lock = threading.Lock()
_bundled: Bundled | None = None


def bundled() -> Bundled:
    """The OpenUI5 API data shipped with sap-devs, loaded once."""
    global _bundled
    if _bundled is None:
        with _lock:
            if _bundled is None:
                try:
                    data = json.loads(gzip.decompress(BUNDLED_PATH.read_bytes()))
                except (OSError, ValueError, EOFError) as exc:
                    raise DataError(f"the bundled UI5 API data ({BUNDLED_PATH.name}) cannot be read: {exc}") from None
                if not isinstance(data, dict) or data.get("format") != FORMAT:
                    raise DataError(f"the bundled UI5 API data ({BUNDLED_PATH.name}) has an unknown format")
                source = data["source"]
                catalog = Catalog([])
                catalog.add(data["symbols"], f"{source['package']} {source['version']} (bundled)")
                _bundled = Bundled(catalog, source["package"], source["version"], tuple(data["libraries"]))
    return _bundled


# -- @sapui5/types from the project ---------------------------------------------------------------


@dataclass
class ProjectTypes:
    """What a project's ``@sapui5/types`` added: its SAPUI5-only libraries."""

    folder: Path
    version: str | None
    libraries: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # library -> why
    symbols: list[Symbol] = field(default_factory=list)
    reads: tuple[int, ...] = ()  # identities of the cached library reads: the same ones, the same view

    def describe(self) -> str:
        version = f" {self.version}" if self.version else ""
        return f"@sapui5/types{version} from {self.folder} (read in place, not copied)"


_file_cache_lock = threading.Lock()
_file_cache: dict[Path, tuple[tuple[int, int], reader.LibraryRead]] = {}
FILE_CACHE_MAX = 200
FILE_SECONDS_MAX = 20.0
"""Parse time one library file may take; a file that needs more is remembered as too slow (until it
changes), while one cut short by the call's remaining budget is read again on the next call."""


def _cached_library(library: str, path: Path, names: symbols.Names, deadline: float) -> reader.LibraryRead:
    try:
        stat = path.stat()
    except OSError as exc:
        return reader.LibraryRead(library, problem=f"cannot be read ({exc.strerror or exc})")
    key = (stat.st_size, stat.st_mtime_ns)
    with _file_cache_lock:
        hit = _file_cache.get(path)
    if hit is not None and hit[0] == key:
        return hit[1]
    try:
        text = reader.read_text(path)
    except (OSError, ValueError) as exc:
        read = reader.LibraryRead(library, problem=f"is {exc}" if isinstance(exc, ValueError) else "cannot be read")
    else:
        own_deadline = time.monotonic() + FILE_SECONDS_MAX
        read = reader.parse_library(library, text, names, min(deadline, own_deadline))
        if read.problem == reader.TOO_SLOW and deadline < own_deadline:
            read.problem = "no time left in this call (read on the next one)"
            return read
    with _file_cache_lock:
        _file_cache[path] = (key, read)
        while len(_file_cache) > FILE_CACHE_MAX:
            _file_cache.pop(next(iter(_file_cache)))
    return read


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False


def project_types(root: Path, known_libraries: tuple[str, ...], *, budget: float) -> ProjectTypes | None:
    """The SAPUI5-only libraries of ``root/node_modules/@sapui5/types``, or None when it has none.

    Libraries OpenUI5 also has are not read (the bundled data has them). Every file must be a
    regular file inside the project (pnpm's links into ``node_modules/.pnpm`` are); reading stops
    at ``budget`` seconds, the count and size caps, and says which libraries it skipped and why.
    """
    folder = root.joinpath(*SAPUI5_PACKAGE)
    types_dir = folder / "types"
    try:
        if not types_dir.is_dir():
            return None
    except OSError:
        return None
    found = ProjectTypes(folder, reader.package_version(folder))
    if not _inside(types_dir, root):
        found.skipped["*"] = "the package links outside the project"
        return found
    deadline = time.monotonic() + budget
    known = set(known_libraries)
    total = 0
    files = [(lib, path) for lib, path in reader.library_files(types_dir) if lib not in known]
    for count, (library, path) in enumerate(files):
        if count >= SAPUI5_FILES_MAX:
            found.skipped[library] = f"more than {SAPUI5_FILES_MAX} library files"
            continue
        if not path.is_file() or not _inside(path, root):
            found.skipped[library] = "is not a regular file inside the project"
            continue
        size = path.stat().st_size
        if total + size > SAPUI5_BYTES_MAX:
            found.skipped[library] = "the package is larger than sap-devs reads"
            continue
        if time.monotonic() > deadline:
            found.skipped[library] = "no time left in this call"
            continue
        total += size
        read = _cached_library(library, path, _sapui5_names(), deadline)
        if read.problem:
            found.skipped[library] = read.problem
        else:
            found.libraries.append(library)
            found.symbols.extend(read.symbols)
            found.reads += (id(read),)
    return found


_names: symbols.Names | None = None


def _sapui5_names() -> symbols.Names:
    """Global names for modules in @sapui5/types: OpenUI5's module-named APIs are known from the bundle."""
    global _names
    if _names is None:
        linked = [s["module"] for s in bundled().catalog.symbols if s["name"].startswith("module:") and "module" in s]
        _names = symbols.Names(linked)
    return _names


# -- the view one call sees -----------------------------------------------------------------------


@dataclass
class View:
    """The bundled catalogue, or a copy of it with a project's SAPUI5 libraries added."""

    catalog: Catalog
    bundled: Bundled
    project: ProjectTypes | None = None

    def source(self, sym: Symbol) -> str:
        return self.catalog.origin.get(sym.get("library", ""), self.bundled.describe())


_views_lock = threading.Lock()
_views: dict[tuple[str, tuple[int, ...]], Catalog] = {}


def view(root: Path | None, *, budget: float) -> View:
    base = bundled()
    project = project_types(root, base.libraries, budget=budget) if root is not None else None
    if project is None or not project.symbols:
        return View(base.catalog, base, project)
    key = (str(project.folder), project.reads)
    with _views_lock:
        catalog = _views.get(key)
    if catalog is None:
        catalog = Catalog(list(base.catalog.symbols), dict(base.catalog.by_name), dict(base.catalog.by_module))
        catalog.by_short = {k: list(v) for k, v in base.catalog.by_short.items()}
        catalog.origin = dict(base.catalog.origin)
        catalog.add(project.symbols, project.describe())
        with _views_lock:
            _views.clear()  # one project per server in practice; keep memory flat
            _views[key] = catalog
    return View(catalog, base, project)


# -- lookup -------------------------------------------------------------------------------------


@dataclass
class Lookup:
    """What a name resolved to: one symbol, several candidates, or nothing (then search)."""

    symbol: Symbol | None = None
    candidates: list[Symbol] = field(default_factory=list)
    member: str | None = None  # a member named inside the name: sap.m.Button#text


def _candidate_order(sym: Symbol) -> tuple[bool, int, str]:
    return ("deprecated" in sym, sym["name"].count("."), sym["name"])


def find(catalog: Catalog, name: str) -> Lookup:
    text = name.strip()
    member = None
    for sep in ("#", "%23"):
        if sep in text:
            text, member = text.split(sep, 1)
            member = member.removeprefix("methods/").removeprefix("events/") or None
    text = text.strip().removesuffix(".js")
    if text.startswith("module:"):
        hit = catalog.by_name.get(text.lower()) or catalog.by_module.get(text[len("module:") :])
        return Lookup(hit, member=member)
    if "/" in text:
        hit = catalog.by_module.get(text)
        if hit is None:
            hit = catalog.by_name.get(_module_name(text).lower()) or catalog.by_name.get(f"module:{text}".lower())
        return Lookup(hit, member=member)
    hit = catalog.by_name.get(text.lower())
    if hit is not None:
        return Lookup(hit, member=member)
    if "." in text and member is None:  # sap.m.Button.setText: a symbol and a member
        owner, _, last = text.rpartition(".")
        hit = catalog.by_name.get(owner.lower())
        if hit is not None and any(m["name"].lower() == last.lower() for _, m in members(hit)):
            return Lookup(hit, member=last)
    shorts = catalog.by_short.get(short_name(text).lower(), []) if "." not in text else []
    if len(shorts) == 1:
        return Lookup(shorts[0], member=member)
    if shorts:
        exact = [s for s in shorts if short_name(s["name"]) == text]
        return Lookup(candidates=sorted(exact or shorts, key=_candidate_order), member=member)
    return Lookup(member=member)


def members(sym: Symbol) -> Iterator[tuple[str, dict[str, Any]]]:
    for group in GROUPS:
        for m in sym.get(group, ()):
            yield group, m


def ancestors(catalog: Catalog, sym: Symbol) -> list[Symbol]:
    """The classes ``sym`` extends, nearest first, as far as the catalogue knows them."""
    out: list[Symbol] = []
    seen = {sym["name"]}
    current = sym
    while len(out) < INHERITANCE_MAX:
        parent = current.get("extends")
        if not parent or parent in seen:
            break
        found = catalog.by_name.get(parent.lower())
        if found is None:
            break
        out.append(found)
        seen.add(parent)
        current = found
    return out


@dataclass
class MemberHit:
    owner: Symbol  # the symbol that declares it (sym itself or an ancestor)
    group: str
    member: dict[str, Any]
    related: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # the setting a generated accessor is for


def find_member(catalog: Catalog, sym: Symbol, name: str) -> list[MemberHit]:
    """The members called ``name`` on ``sym`` or the nearest class it inherits them from."""
    wanted = name.strip().lower()
    for owner in [sym, *ancestors(catalog, sym)]:
        hits = [MemberHit(owner, g, m) for g, m in members(owner) if m["name"].lower() == wanted]
        if hits:
            for hit in hits:
                if hit.group == "methods" and hit.member.get("generated"):
                    hit.related = _accessor_target(owner, hit.member["name"])
            return hits
    return []


def _accessor_target(owner: Symbol, method: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for prefix in sorted(symbols.ACCESSOR_PREFIXES, key=len, reverse=True):
        if method.startswith(prefix) and len(method) > len(prefix):
            rest = method[len(prefix)].lower() + method[len(prefix) + 1 :]
            for group in ("properties", "aggregations", "associations", "events"):
                for m in owner.get(group, ()):
                    if m["name"] in (rest, rest + "s"):
                        out.append((group, m))
            if out:
                return out
    return out


def member_names(catalog: Catalog, sym: Symbol) -> list[str]:
    names: list[str] = []
    for owner in [sym, *ancestors(catalog, sym)]:
        names.extend(m["name"] for _, m in members(owner))
    return names


def close_members(catalog: Catalog, sym: Symbol, name: str, limit: int = 5) -> list[str]:
    names = sorted(set(member_names(catalog, sym)))
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=limit, cutoff=0.6)
    starts = [n for n in names if n.lower().startswith(name.lower()[:4])][:limit] if len(name) >= 4 else []
    return list(dict.fromkeys([lowered[c] for c in close] + starts))[:limit]


def close_names(catalog: Catalog, name: str, limit: int = 5) -> list[str]:
    shorts = list(catalog.by_short)
    close = difflib.get_close_matches(short_name(name).lower(), shorts, n=limit, cutoff=0.75)
    return [catalog.by_short[c][0]["name"] for c in close]


# -- search -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One searchable entry: a symbol, or one of its members."""

    symbol: Symbol
    group: str | None
    member: dict[str, Any] | None
    texts: dict[str, str] = field(compare=False, hash=False)
    inherited_from: str | None = None  # the member is declared by this ancestor of ``symbol``

    @property
    def key(self) -> str:
        return self.symbol["name"] + (f"#{self.member['name']}" if self.member else "")


FIELDS = (Field("name", 4.0), Field("owner", 1.5), Field("settings", 0.5), Field("doc", 1.0))
SEARCH_GROUPS = ("properties", "aggregations", "events", "methods")
SETTING_GROUPS = ("properties", "aggregations", "events")
GENERIC_BASES = frozenset({"sap.ui.core.Control", "sap.ui.core.Element", "sap.ui.base.ManagedObject"})
"""Classes whose settings every control has: they say nothing about what a control is for."""


def words(name: str) -> str:
    """``sap.m.DateRangeSelection`` -> ``sap m DateRangeSelection`` (the analyser splits camel case)."""
    return re.sub(r"[./:#$]+", " ", name)


_records_lock = threading.Lock()
_records: dict[int, list[Record]] = {}


def records(catalog: Catalog) -> list[Record]:
    with _records_lock:
        hit = _records.get(id(catalog))
        if hit is not None and hit and hit[0].symbol is catalog.symbols[0]:
            return hit
    out: list[Record] = []
    for sym in catalog.symbols:
        out.append(Record(sym, None, None, _symbol_texts(catalog, sym)))
        owner = words(short_name(sym["name"]))
        for group in SEARCH_GROUPS:
            for m in sym.get(group, ()):
                if not m.get("generated") and m["name"] not in ("extend", "getMetadata"):
                    texts = {"name": words(m["name"]), "owner": owner, "doc": m.get("doc", "")}
                    out.append(Record(sym, group, m, texts))
    with _records_lock:
        if len(_records) > 4:
            _records.clear()
        _records[id(catalog)] = out
    return out


def _symbol_texts(catalog: Catalog, sym: Symbol) -> dict[str, str]:
    """A symbol is found by its name, its parents' names ("date range picker" is a DatePicker) and
    the settings it has or inherits from specific parents ("growing table": ListBase's growing)."""
    chain = [a for a in ancestors(catalog, sym) if a["name"] not in GENERIC_BASES]
    settings = [m["name"] for owner in [sym, *chain] for g in SETTING_GROUPS for m in owner.get(g, ())]
    return {
        "name": words(sym["name"]),
        "owner": " ".join(words(short_name(a["name"])) for a in chain),
        "settings": " ".join(words(n) for n in settings),
        "doc": sym.get("doc", ""),
    }


def _texts(r: Record) -> dict[str, str]:
    return r.texts


def _boost(r: Record) -> float:
    sym = r.symbol
    factor = 1.0
    if "deprecated" in sym or (r.member and "deprecated" in r.member):
        factor *= 0.5
    if r.member is None and sym.get("kind") == "class":
        factor *= 1.3  # "date range picker" asks for a control first
    return factor


_index_lock = threading.Lock()
_warmed: set[int] = set()


def _index(catalog: Catalog) -> Any:
    """The search index of ``catalog``, built once: a second caller waits for the first build."""
    with _index_lock:
        return index_for(records(catalog), FIELDS, _texts, id_of=lambda r: r.key)


def warm(catalog: Catalog) -> None:
    """Build the search index on a background thread (after a first lookup by name), so a later word
    search does not pay the seconds it takes. Once per catalogue."""
    with _index_lock:
        if id(catalog) in _warmed:
            return
        _warmed.add(id(catalog))
    threading.Thread(target=_index, args=(catalog,), name="ui5-api-index", daemon=True).start()


def search(catalog: Catalog, query: str, *, kind: str | None = None) -> list[Record]:
    """Symbols and members matching ``query`` best first. A query that names a class and a member
    ("growing table", "button press") puts that class's member first, inherited ones included."""
    index = _index(catalog)

    def allowed(r: Record) -> bool:
        return kind is None or (r.member is None and r.symbol.get("kind") == kind)

    ranked = index.search(query, allow=allowed, boost=_boost)
    named = [] if kind is not None else _named_members(catalog, query)
    seen = {r.key for r in named}
    return named + [r for r in ranked if r.key not in seen]


NAMED_OWNERS_MAX = 4


def _named_members(catalog: Catalog, query: str) -> list[Record]:
    found: list[Record] = []
    tokens = re.findall(r"[A-Za-z][\w$]*", query)[:12]
    if "".join(t[:1].upper() + t[1:] for t in tokens).lower() in catalog.by_short:
        return []  # "select dialog" is SelectDialog, not a Dialog's select
    for i, token in enumerate(tokens):
        owners = [s for s in catalog.by_short.get(token.lower(), []) if s.get("kind") == "class"]
        rest = set(analyze(" ".join(tokens[:i] + tokens[i + 1 :])))
        if not owners or not rest:
            continue
        for owner in sorted(owners, key=_candidate_order)[:NAMED_OWNERS_MAX]:
            for declared in [owner, *ancestors(catalog, owner)]:
                for group in SEARCH_GROUPS:
                    for m in declared.get(group, ()):
                        if m.get("generated") or not rest <= set(analyze(words(m["name"]))):
                            continue
                        inherited = declared["name"] if declared is not owner else None
                        found.append(Record(owner, group, m, {}, inherited))
    return found


def environ_budget(default: float) -> float:
    """Seconds to read @sapui5/types (SAP_DEVS_SAPUI5_TYPES_BUDGET overrides, for tests and slow disks)."""
    try:
        return max(0.1, float(os.environ.get("SAP_DEVS_SAPUI5_TYPES_BUDGET", default)))
    except ValueError:
        return default
