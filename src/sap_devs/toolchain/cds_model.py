"""A compiled CDS model (CSN) as searchable definitions: kinds, elements, associations, annotations,
source locations, and the HTTP endpoints CAP serves each service and entity at.

The CSN comes from ``@sap/cds-compiler`` (``toolchain.cds``); this module is plain Python over it and
runs without Node.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sap_devs.search import Field, index_for
from sap_devs.toolchain.cds_endpoints import Endpoint, endpoints, entity_url, protocols

KINDS = ("entity", "view", "projection", "service", "action", "function", "type", "aspect", "event", "context")
ENTITY_KINDS = frozenset({"entity", "view", "projection"})
MAX_ELEMENTS = 200
MAX_ANNOTATIONS = 60
MAX_VALUE_CHARS = 240
MAX_DEFINITIONS = 200_000


@dataclass(frozen=True)
class Location:
    file: str | None
    line: int | None
    column: int | None


@dataclass
class Element:
    name: str
    type: str | None
    key: bool = False
    virtual: bool = False
    target: str | None = None
    cardinality: str | None = None
    """'one' or 'many' for associations and compositions."""
    relation: str | None = None
    """'association' or 'composition'."""
    on: str | None = None
    enum: list[str] = field(default_factory=list)
    annotations: dict[str, str] = field(default_factory=dict)
    location: Location | None = None


@dataclass
class Definition:
    name: str
    kind: str
    location: Location | None
    service: str | None = None
    doc: str | None = None
    source: str | None = None
    """The entity a view or projection selects from."""
    includes: list[str] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)
    elements_total: int = 0
    annotations: dict[str, str] = field(default_factory=dict)
    annotations_total: int = 0
    endpoints: list[Endpoint] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    params: list[Element] = field(default_factory=list)
    returns: str | None = None
    bound_to: str | None = None
    external: bool = False

    @property
    def short_name(self) -> str:
        if self.bound_to:
            return self.name.rsplit(":", 1)[-1]
        return self.name.rsplit(".", 1)[-1]


def _compact(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def _annotations(node: dict[str, Any]) -> tuple[dict[str, str], int]:
    keys = [k for k in node if k.startswith("@")]
    return {k: _compact(node[k]) for k in keys[:MAX_ANNOTATIONS]}, len(keys)


def _ref_text(ref: Any) -> str:
    if isinstance(ref, str):
        return ref
    if isinstance(ref, dict) and isinstance(ref.get("ref"), list):
        parts = [p if isinstance(p, str) else str(p.get("id", "?")) if isinstance(p, dict) else "?" for p in ref["ref"]]
        return parts[0] + (":" + ".".join(parts[1:]) if len(parts) > 1 else "")
    return "?"


def _expr_text(xpr: Any, depth: int = 0) -> str:
    """An ``on`` condition in CDL-like text, enough to read what joins what."""
    if depth > 20:
        return "…"
    if isinstance(xpr, list):
        return " ".join(_expr_text(x, depth + 1) for x in xpr)
    if isinstance(xpr, str):
        return xpr
    if isinstance(xpr, dict):
        if "ref" in xpr and isinstance(xpr["ref"], list):
            return ".".join(p if isinstance(p, str) else str(p.get("id", "?")) for p in xpr["ref"])
        if "val" in xpr:
            return json.dumps(xpr["val"])
        if "xpr" in xpr:
            return "(" + _expr_text(xpr["xpr"], depth + 1) + ")"
        if "func" in xpr:
            return f"{xpr['func']}(…)"
    return "…"


def _type_text(node: dict[str, Any]) -> str | None:
    base = node.get("type")
    if base is None:
        if isinstance(node.get("items"), dict):
            inner = _type_text(node["items"])
            return f"many {inner}" if inner else "many"
        if isinstance(node.get("elements"), dict):
            return "structure"
        return None
    text = _ref_text(base) if isinstance(base, dict) else str(base)
    args = [str(node[a]) for a in ("length", "precision", "scale", "srid") if a in node]
    return f"{text}({','.join(args)})" if args else text


def _location(node: dict[str, Any]) -> Location | None:
    loc = node.get("$location")
    if not isinstance(loc, dict):
        return None
    line, col = loc.get("line"), loc.get("col")
    return Location(
        file=loc.get("file") if isinstance(loc.get("file"), str) else None,
        line=line if isinstance(line, int) else None,
        column=col if isinstance(col, int) else None,
    )


def _element(name: str, node: dict[str, Any]) -> Element:
    el = Element(name=name, type=_type_text(node), key=bool(node.get("key")), virtual=bool(node.get("virtual")))
    base = node.get("type")
    if isinstance(node.get("target"), str) or base in ("cds.Association", "cds.Composition"):
        el.target = node.get("target") if isinstance(node.get("target"), str) else None
        el.relation = "composition" if base == "cds.Composition" else "association"
        card = node.get("cardinality")
        many = isinstance(card, dict) and card.get("max") not in (None, 1, "1")
        el.cardinality = "many" if many else "one"
        if "on" in node:
            el.on = _compact(_expr_text(node["on"]))
    if isinstance(node.get("enum"), dict):
        el.enum = list(node["enum"])[:50]
    el.annotations, _ = _annotations(node)
    el.location = _location(node)
    return el


def _elements(node: dict[str, Any]) -> tuple[list[Element], int]:
    raw = node.get("elements")
    if not isinstance(raw, dict):
        return [], 0
    items = [(n, e) for n, e in raw.items() if isinstance(e, dict)]
    return [_element(n, e) for n, e in items[:MAX_ELEMENTS]], len(items)


def _kind(node: dict[str, Any]) -> str:
    kind = str(node.get("kind", ""))
    if kind == "entity":
        if "projection" in node:
            return "projection"
        if "query" in node:
            return "view"
    return kind


def _source(node: dict[str, Any]) -> str | None:
    query = node.get("projection")
    if query is None:
        query = node.get("query", {}).get("SELECT") if isinstance(node.get("query"), dict) else None
    if not isinstance(query, dict):
        return None
    src = query.get("from")
    if isinstance(src, dict) and isinstance(src.get("ref"), list):
        return _ref_text(src)
    if isinstance(src, dict) and "join" in src:
        return "join of " + ", ".join(_ref_text(a) for a in src.get("args", []) if isinstance(a, dict))
    return None


def _operation(name: str, node: dict[str, Any], kind: str) -> Definition:
    params = node.get("params") if isinstance(node.get("params"), dict) else {}
    returns = node.get("returns")
    d = Definition(name=name, kind=kind, location=_location(node), doc=node.get("doc"))
    d.params = [_element(n, p) for n, p in list(params.items())[:MAX_ELEMENTS] if isinstance(p, dict)]
    d.returns = _type_text(returns) if isinstance(returns, dict) else None
    d.annotations, d.annotations_total = _annotations(node)
    return d


@dataclass
class CdsModel:
    definitions: list[Definition]
    services: dict[str, list[Endpoint]]

    def by_name(self, name: str) -> Definition | None:
        for d in self.definitions:
            if d.name == name:
                return d
        return None


def _service_of(name: str, services: list[str]) -> str | None:
    best = None
    for svc in services:
        if name.startswith(svc + ".") and (best is None or len(svc) > len(best)):
            best = svc
    return best


def _key_names(d: Definition) -> list[str]:
    return [e.name for e in d.elements if e.key and e.relation is None]


def build_model(
    csn: dict[str, Any], *, config: dict[str, Any] | None = None, shown: Callable[[str], str] | None = None
) -> CdsModel:
    """The searchable model of a compiled CSN; ``config`` is the project's cds settings (for the
    protocols it adds or moves), ``shown`` turns the compiler's file names into the ones to show."""
    raw = csn.get("definitions") if isinstance(csn, dict) else None
    if not isinstance(raw, dict):
        return CdsModel(definitions=[], services={})
    table = protocols(config)
    nodes = [(n, d) for n, d in list(raw.items())[:MAX_DEFINITIONS] if isinstance(d, dict)]
    service_names = [n for n, d in nodes if d.get("kind") == "service"]
    services = {n: endpoints(n, raw[n], table) for n in service_names}
    out: list[Definition] = []
    for name, node in nodes:
        kind = _kind(node)
        if kind in ("action", "function"):
            d = _operation(name, node, kind)
        else:
            d = Definition(name=name, kind=kind, location=_location(node), doc=node.get("doc"))
            d.elements, d.elements_total = _elements(node)
            d.annotations, d.annotations_total = _annotations(node)
            d.source = _source(node)
            d.includes = [i for i in node.get("includes", []) if isinstance(i, str)]
        d.service = _service_of(name, service_names)
        if kind == "service":
            d.endpoints = services[name]
            d.external = bool(node.get("@cds.external"))
        out.append(d)
        if d.service is not None:
            local = name[len(d.service) + 1 :]
            for ep in services[d.service]:
                if kind in ENTITY_KINDS:
                    url = entity_url(ep, local)
                elif kind in ("action", "function"):
                    url = entity_url(ep, local)
                    if url and kind == "function":
                        url += "()"
                else:
                    url = None
                if url:
                    d.urls.append(url)
        actions = node.get("actions")
        if kind in ENTITY_KINDS and isinstance(actions, dict):
            for action_name, action in actions.items():
                if not isinstance(action, dict):
                    continue
                op_kind = "function" if action.get("kind") == "function" else "action"
                op = _operation(f"{name}:{action_name}", action, op_kind)
                op.bound_to = name
                op.service = d.service
                d.actions.append(action_name)
                if d.service is not None:
                    keys = ",".join(f"{k}=…" for k in _key_names(d))
                    qualified = f"{d.service}.{action_name}"
                    for url in d.urls:
                        op.urls.append(f"{url}({keys})/{qualified}" + ("()" if op_kind == "function" else ""))
                out.append(op)
    by_service = {d.name: d for d in out if d.kind == "service"}
    for d in out:  # a service lists every entity URL it serves, so one answer maps the whole API
        if d.service is not None and d.kind in ENTITY_KINDS:
            by_service[d.service].urls.extend(d.urls)
    if shown is not None:
        for d in out:
            d.location = _renamed(d.location, shown)
            for e in d.elements + d.params:
                e.location = _renamed(e.location, shown)
    return CdsModel(definitions=out, services=services)


def _renamed(loc: Location | None, shown: Callable[[str], str]) -> Location | None:
    if loc is None or loc.file is None:
        return loc
    return Location(file=shown(loc.file), line=loc.line, column=loc.column)


FIELDS = (Field("name", 3.0), Field("short", 3.0), Field("elements", 1.0), Field("text", 0.6), Field("file", 0.5))


def _texts(d: Definition) -> dict[str, str]:
    labels = [
        v for k, v in d.annotations.items() if k in ("@title", "@Common.Label", "@description", "@EndUserText.label")
    ]
    return {
        "name": d.name.replace(":", " "),
        "short": d.short_name,
        "elements": " ".join(e.name for e in d.elements + d.params),
        "text": " ".join([d.doc or "", *labels]),
        "file": Path(d.location.file).stem if d.location and d.location.file else "",
    }


def search(model: CdsModel, query: str, *, kind: str | None = None) -> list[Definition]:
    """Definitions matching ``query`` best first: an exact full or short name first, then fuzzy
    matches on names, element names, labels and docs. ``*`` lists every definition (of ``kind``)."""
    records = model.definitions

    def allowed(d: Definition) -> bool:
        if kind is None:
            return True
        if kind == "entity":
            return d.kind in ENTITY_KINDS
        if kind == "view":
            return d.kind in ("view", "projection")
        return d.kind == kind

    text = query.strip()
    if text in ("", "*"):
        return [d for d in records if allowed(d)]
    wanted = text.lower()
    exact = [d for d in records if allowed(d) and d.name.lower() == wanted]
    exact += [d for d in records if allowed(d) and d.short_name.lower() == wanted and d not in exact]
    ranked = index_for(records, FIELDS, _texts, id_of=lambda d: d.name).search(text, allow=allowed)
    seen = {id(d) for d in exact}
    return exact + [d for d in ranked if id(d) not in seen]
