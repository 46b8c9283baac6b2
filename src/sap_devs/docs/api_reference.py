"""The OpenUI5 API reference as documentation pages: one page per symbol of the API data bundled for
``get_ui5_api`` (``knowledge/ui5_api/data/openui5-api.json.gz``), so search_docs finds a control by what it
does ("which control lets the user rate with stars") beside the guides that explain it.

No tarball: the pages are made from the package's own data whenever an index is built (the bundled one and
every sync), so they always match the ``get_ui5_api`` answers and addresses. A page holds what the API
reference lists for a symbol: its kind, library, what it extends, its description, then one section per
group of members (properties, aggregations, associations, events, methods; enum values and typedef fields)
with name, type, default and first sentence. Generated accessors (getText, setText ...) and the two static
methods every class has (extend, getMetadata) are left out: they say nothing a developer searches for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sap_devs.docs.ingest import Page, Section
from sap_devs.docs.sources import API_REFERENCE, DocSource

Symbol = dict[str, Any]

_KIND_WORDS = {
    "class": "class",
    "interface": "interface",
    "enum": "enumeration",
    "namespace": "namespace",
    "typedef": "type definition",
    "function": "function",
}
# (group in the data, heading, anchor of the reference's section): the anchors get_ui5_api links members to
_GROUPS = (
    ("properties", "Properties", "controlProperties"),
    ("aggregations", "Aggregations", "aggregations"),
    ("associations", "Associations", "associations"),
    ("events", "Events", "events"),
    ("methods", "Methods", "methods"),
    ("values", "Values", None),
    ("fields", "Fields", None),
)
_BOILERPLATE_STATIC = frozenset({"extend", "getMetadata"})
_BASE_CLASSES = (("sap.ui.core.Control", "control"), ("sap.ui.core.Element", "element"))
_FRAMEWORK_BASES = frozenset({"sap.ui.core.Control", "sap.ui.core.Element", "sap.ui.base.ManagedObject"})
TYPE_MAX = 160  # characters of a type kept (typedefs spell out whole object literals)


def is_deprecated(sym: Symbol) -> bool:
    return "deprecated" in sym


def title(sym: Symbol) -> str:
    """The page title: the symbol's name, and "(deprecated)" for a deprecated one, which the search ranks
    below live pages unless the question asks for deprecated ones."""
    return f"{sym['name']} (deprecated)" if is_deprecated(sym) else sym["name"]


def kind_word(sym: Symbol, ancestors: list[Symbol]) -> str:
    """What the symbol is, as a developer says it: a class that is a control is a control."""
    if sym.get("kind") == "class":
        names = {a["name"] for a in ancestors} | {sym["name"]}
        for base, word in _BASE_CLASSES:
            if base in names:
                return word
    return _KIND_WORDS.get(sym.get("kind", ""), sym.get("kind", "symbol"))


def _dated(label: str, value: dict[str, str]) -> str:
    since = f" since {value['since']}" if value.get("since") else ""
    text = value.get("text", "").strip()
    return f"{label}{since}: {_sentence(text)}" if text else f"{label}{since}."


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def _short_type(text: str | None) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= TYPE_MAX else text[: TYPE_MAX - 1] + "…"


def _doc(m: Symbol) -> str:
    return _sentence(m["doc"].strip()) if m.get("doc", "").strip() else ""


def _flags(m: Symbol) -> str:
    parts = []
    if m.get("deprecated") is not None:
        parts.append(_dated("Deprecated", m["deprecated"]))
    if m.get("experimental") is not None:
        parts.append(_dated("Experimental", m["experimental"]))
    if m.get("since"):
        parts.append(f"Since {m['since']}.")
    return (" " + " ".join(parts)) if parts else ""


def _member_line(group: str, m: Symbol) -> str:
    name = f"`{m['name']}`"
    doc = _doc(m)
    if group == "methods":
        sig = m.get("signatures", [m["name"] + "()"])[0]
        static = "static " if m.get("static") else ""
        returns = f" Returns: {_sentence(m['returns_doc'])}" if m.get("returns_doc") else ""
        return f"- {static}`{_short_type(sig)}`: {doc}{returns}{_flags(m)}".rstrip()
    if group == "events":
        params = ", ".join(f"`{p['name']}` ({_short_type(p.get('type'))})" for p in m.get("parameters", []))
        with_params = f" Parameters: {params}." if params else ""
        return f"- {name}: {doc}{with_params}{_flags(m)}".rstrip()
    if group == "values":
        return f"- {name}: {doc}{_flags(m)}".rstrip()
    facts = []
    if m.get("type"):
        facts.append(_short_type(m["type"]))
    if m.get("cardinality"):
        facts.append(m["cardinality"])
    if "default" in m:
        facts.append(f"default `{m['default']}`" if m["default"] != "" else "default empty string")
    if m.get("bindable"):
        facts.append("bindable")
    detail = f" ({', '.join(facts)})" if facts else ""
    return f"- {name}{detail}: {doc}{_flags(m)}".rstrip()


def _shown(group: str, members: Iterable[Symbol]) -> list[Symbol]:
    if group != "methods":
        return list(members)
    return [m for m in members if not m.get("generated") and not (m.get("static") and m["name"] in _BOILERPLATE_STATIC)]


def overview(sym: Symbol, ancestors: list[Symbol]) -> str:
    kind = kind_word(sym, ancestors)
    lines = [f"{kind[:1].upper()}{kind[1:]} `{sym['name']}` of the library {sym.get('library', 'unknown')}."]
    if is_deprecated(sym):
        lines.append(_dated("Deprecated", sym["deprecated"]))
    if sym.get("extends"):
        # up to the first framework base: the classes below sap.ui.core.Element are on every control's page
        names = [a["name"] for a in ancestors]
        cut = next((i + 1 for i, n in enumerate(names) if n in _FRAMEWORK_BASES), len(names))
        chain = " > ".join(f"`{n}`" for n in names[:cut]) or f"`{sym['extends']}`"
        lines.append(f"Extends {chain}.")
    if sym.get("implements"):
        lines.append("Implements " + ", ".join(f"`{i}`" for i in sym["implements"][:12]) + ".")
    if sym.get("module"):
        lines.append(f"Module: `{sym['module']}`.")
    if sym.get("kind") == "typedef" and sym.get("type"):
        lines.append(f"Type: `{_short_type(sym['type'])}`.")
    if sym.get("experimental") is not None:
        lines.append(_dated("Experimental", sym["experimental"]))
    if sym.get("since"):
        lines.append(f"Available since {sym['since']}.")
    text = " ".join(lines)
    return f"{text}\n\n{sym['doc']}" if sym.get("doc") else text


def _inherited(ancestors: list[Symbol]) -> str:
    """The settings and events the classes above add, by name: the page of sap.m.List says it has the
    swipe event of sap.m.ListBase, as the reference's "Borrowed from" lists do."""
    lines = []
    for owner in ancestors:
        if owner["name"] in _FRAMEWORK_BASES:
            break  # every control has these; listing them on 900 pages says nothing
        parts = []
        for group, heading, _ in _GROUPS[:4]:
            names = [m["name"] for m in owner.get(group, ())]
            if names:
                parts.append(f"{heading.lower()} {', '.join(names)}")
        if parts:
            lines.append(f"- from `{owner['name']}`: " + "; ".join(parts))
    return "\n".join(lines)


def sections(sym: Symbol, ancestors: list[Symbol]) -> list[Section]:
    head = title(sym)
    out = [Section([head], None, overview(sym, ancestors))]
    for group, heading, anchor in _GROUPS:
        shown = _shown(group, sym.get(group, ()))
        if shown:
            out.append(Section([head, heading], anchor, "\n".join(_member_line(group, m) for m in shown)))
    inherited = _inherited(ancestors)
    if inherited:
        out.append(Section([head, "Inherited"], None, inherited))
    return out


def symbol_url(name: str) -> str:
    """The symbol's page in the API reference, the address get_ui5_api gives it."""
    from sap_devs.knowledge.ui5_api.catalog import reference_url

    return reference_url(name)


def version() -> str:
    """What the pages are made from, as the index's commit column says it: ``@openui5/types 1.152.0``."""
    from sap_devs.knowledge.ui5_api import catalog

    data = catalog.bundled()
    return f"{data.package} {data.version}"


def page(sym: Symbol, ancestors: list[Symbol], source: DocSource = API_REFERENCE) -> Page:
    """The documentation page of one symbol (``ancestors``: its base classes, nearest first)."""
    return Page(source.repo, sym["name"], title(sym), symbol_url(sym["name"]), source.product, sections(sym, ancestors))


def pages(source: DocSource = API_REFERENCE) -> tuple[str, list[Page]]:
    """(what the data is, as the index's commit column says it; one page per bundled symbol)."""
    from sap_devs.knowledge.ui5_api import catalog

    data = catalog.bundled()
    out = [page(sym, catalog.ancestors(data.catalog, sym), source) for sym in data.catalog.symbols]
    return f"{data.package} {data.version}", out
