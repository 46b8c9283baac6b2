"""get_ui5_api: the UI5 API reference for a class, enum, namespace or type, or one of its members,
from SAP's own TypeScript declarations (OpenUI5 bundled; SAPUI5-only libraries from the project).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolError, ToolInput, limit_field
from sap_devs.mcp.tools.project._shared import path_field, resolve_path

NAME_MAX = 200  # the longest UI5 symbol name is about 90 characters
MEMBER_MAX = 100
SAPUI5_NOTE = (
    "SAPUI5-only libraries (sap.fe.*, sap.ui.comp, sap.suite.* ...) need @sapui5/types in the project's "
    "node_modules (npm install -D @sapui5/types), or pass path."
)
MEMBERS_SHOWN = 60  # per list; sap.ui.core.Control's own methods are 40


class Input(ToolInput):
    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        description=(
            "A UI5 symbol ('sap.m.Button', 'sap/m/Button', 'Button', 'sap.m.Table#growing') or words "
            "('date range picker')."
        ),
    )
    member: str | None = Field(
        None,
        min_length=1,
        max_length=MEMBER_MAX,
        description="One property, aggregation, association, event, method or enum value (inherited too).",
    )
    path: str | None = path_field("a project whose node_modules/@sapui5/types adds SAPUI5-only libraries (sap.fe ...)")
    limit: int = limit_field(SEARCH_LIMIT, "search results")


class DeprecationOut(BaseModel):
    since: str | None = Field(None, description="The UI5 version that deprecated it.")
    text: str = Field(description="What to use instead, as SAP wrote it.")


class ParameterOut(BaseModel):
    name: str
    type: str | None = None
    doc: str | None = None


class MemberOut(BaseModel):
    name: str
    kind: Literal["property", "aggregation", "association", "event", "method", "value", "field"]
    type: str | None = Field(None, description="Property, aggregation or association type; a method's return type.")
    default: str | None = Field(None, description="Property default as the API states it ('' = empty string).")
    bindable: bool | None = Field(
        None, description="Has bind/unbind methods (any property can still be bound in a view)."
    )
    cardinality: Literal["0..1", "0..n"] | None = None
    parameters: list[ParameterOut] | None = Field(None, description="Event parameters.")
    signatures: list[str] | None = Field(None, description="Method signatures (one per overload).")
    returns_doc: str | None = None
    static: bool | None = None
    protected: bool | None = Field(None, description="For subclasses and the framework only.")
    value: str | None = Field(None, description="An enum value's runtime value.")
    since: str | None = None
    deprecated: DeprecationOut | None = None
    experimental: DeprecationOut | None = None
    doc: str | None = Field(None, description="The description's first sentence.")
    inherited_from: str | None = Field(None, description="The ancestor that declares it.")
    accessor_for: list[str] | None = Field(None, description="A generated accessor: the settings it reads or writes.")
    url: str | None = None


class SymbolOut(BaseModel):
    name: str = Field(description="Global name as the API reference spells it, e.g. sap.m.Button.")
    kind: str = Field(description="class, interface, enum, namespace, typedef or function.")
    module: str | None = Field(None, description="Module to import or require, e.g. sap/m/Button.")
    library: str | None = None
    extends: list[str] | None = Field(None, description="Parent classes, nearest first.")
    implements: list[str] | None = None
    abstract: bool | None = None
    since: str | None = None
    deprecated: DeprecationOut | None = None
    experimental: DeprecationOut | None = None
    doc: str | None = Field(None, description="The description's first sentence.")
    type: str | None = Field(None, description="A typedef's type.")
    signatures: list[str] | None = Field(None, description="A function's signature.")
    url: str = Field(description="The API reference page.")
    source: str = Field(description="Which types package (and version) the answer comes from.")
    member: MemberOut | None = Field(None, description="The member asked for or found by the search.")
    properties: list[MemberOut] | None = None
    aggregations: list[MemberOut] | None = None
    associations: list[MemberOut] | None = None
    events: list[MemberOut] | None = None
    methods: list[MemberOut] | None = Field(None, description="Own methods, generated accessors left out.")
    accessors: int | None = Field(
        None, description="Generated accessors left out (getText, setText ...); ask for one as member."
    )
    values: list[MemberOut] | None = Field(None, description="Enum values.")
    fields: list[MemberOut] | None = Field(None, description="Fields of a typedef or namespace object.")
    inherited: dict[str, list[str]] | None = Field(
        None, description="Setting names each ancestor adds (ask with member for details)."
    )
    candidates: int | None = Field(None, description="Ambiguous name: how many symbols share it.")


Output = Envelope[SymbolOut]


def _url(sym: dict[str, Any], group: str | None = None, member: dict[str, Any] | None = None) -> str:
    from sap_devs.knowledge.ui5_api.catalog import reference_url

    if member is None or group is None:
        return reference_url(sym["name"])
    if group == "methods":
        name = f"{sym['name']}.{member['name']}" if member.get("static") else member["name"]
        return reference_url(sym["name"], f"methods/{name}")
    if group == "events":
        return reference_url(sym["name"], f"events/{member['name']}")
    section = {"properties": "controlProperties", "aggregations": "aggregations", "associations": "associations"}
    return reference_url(sym["name"], section.get(group, "overview"))


def _dated(value: dict[str, str] | None) -> DeprecationOut | None:
    if value is None:
        return None
    return DeprecationOut(since=value.get("since"), text=value.get("text", ""))


def _member(
    sym: dict[str, Any], group: str, m: dict[str, Any], *, inherited_from: str | None = None, full: bool = True
) -> MemberOut:
    from sap_devs.knowledge.ui5_api.catalog import GROUP_KIND

    params = m.get("parameters")
    return MemberOut(
        name=m["name"],
        kind=GROUP_KIND[group],  # type: ignore[arg-type]
        type=m.get("type") or m.get("returns"),
        default=m.get("default"),
        bindable=m.get("bindable", False) if group in ("properties", "aggregations") else None,
        cardinality=m.get("cardinality"),
        parameters=[ParameterOut(**p) for p in params] if params is not None else None,
        signatures=m.get("signatures"),
        returns_doc=m.get("returns_doc") if full else None,
        static=m.get("static"),
        protected=m.get("protected"),
        value=m.get("value"),
        since=m.get("since"),
        deprecated=_dated(m.get("deprecated")),
        experimental=_dated(m.get("experimental")),
        doc=m.get("doc"),
        inherited_from=inherited_from,
        url=_url({"name": inherited_from} if inherited_from else sym, group, m) if full else None,
    )


def _symbol(view: Any, sym: dict[str, Any], *, full: bool) -> SymbolOut:
    from sap_devs.knowledge.ui5_api.catalog import GENERIC_BASES, SETTING_GROUPS, ancestors

    chain = ancestors(view.catalog, sym)
    extends = [a["name"] for a in chain]
    if sym.get("extends") and not extends:
        extends = [sym["extends"]]  # a parent outside the catalogue (a SAPUI5 class without @sapui5/types)
    if not full:
        extends = extends[:1]  # a list of matches names the parent only
    out = SymbolOut(
        name=sym["name"],
        kind=sym["kind"],
        module=sym.get("module"),
        library=sym.get("library"),
        extends=extends or None,
        implements=sym.get("implements") if full else None,
        abstract=sym.get("abstract"),
        since=sym.get("since"),
        deprecated=_dated(sym.get("deprecated")),
        experimental=_dated(sym.get("experimental")),
        doc=sym.get("doc"),
        type=sym.get("type"),
        signatures=sym.get("signatures"),
        url=_url(sym),
        source=view.source(sym),
    )
    if not full:
        return out
    for group in ("properties", "aggregations", "associations", "events", "values", "fields"):
        items = sym.get(group)
        if items:
            setattr(out, group, [_member(sym, group, m, full=False) for m in items[:MEMBERS_SHOWN]])
    methods = [m for m in sym.get("methods", ()) if not m.get("generated")]
    if methods:
        out.methods = [_member(sym, "methods", m, full=False) for m in methods[:MEMBERS_SHOWN]]
    generated = sum(1 for m in sym.get("methods", ()) if m.get("generated"))
    out.accessors = generated or None
    inherited = {
        a["name"]: [m["name"] for g in SETTING_GROUPS for m in a.get(g, ())]
        for a in chain
        if a["name"] not in GENERIC_BASES or a is chain[0]
    }
    out.inherited = {k: v for k, v in inherited.items() if v} or None
    return out


def _with_member(view: Any, sym: dict[str, Any], member: str) -> SymbolOut:
    from sap_devs.knowledge.ui5_api.catalog import close_members, find_member

    hits = find_member(view.catalog, sym, member)
    if not hits:
        close = close_members(view.catalog, sym, member)
        raise ToolError(
            f"{sym['name']} has no member '{member}' (own or inherited).",
            hint=(f"Did you mean: {', '.join(close)}? " if close else "")
            + f"Call get_ui5_api with name '{sym['name']}' and no member to list its members.",
        )
    out = _symbol(view, sym, full=False)
    hit = hits[0]
    inherited = hit.owner["name"] if hit.owner is not sym else None
    out.member = _member(hit.owner, hit.group, hit.member, inherited_from=inherited)
    if hit.related:
        out.member.accessor_for = [f"{g[:-1] if g != 'properties' else 'property'} {m['name']}" for g, m in hit.related]
    return out


def _project_root(params: Input, ctx: ToolContext) -> Path | None:
    if params.path is not None:
        return resolve_path(params.path, ctx, what="UI5 project folder")
    return ctx.cwd


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.knowledge.ui5_api import catalog
    from sap_devs.mcp.dispatch import deadline

    root = _project_root(params, ctx)
    try:
        view = catalog.view(root, budget=catalog.environ_budget(deadline() * 0.5))
    except catalog.DataError as exc:
        raise ToolError(str(exc), hint="Reinstall sap-devs (`pip install --force-reinstall sap-devs`).") from None
    notes = [_project_note(view.project)] if view.project is not None else []
    found = catalog.find(view.catalog, params.name)
    member = params.member or found.member
    if found.symbol is not None:
        catalog.warm(view.catalog)
        item = _with_member(view, found.symbol, member) if member else _symbol(view, found.symbol, full=True)
        return Output.build([item], limit=1, entity="UI5 symbols").add_note(" ".join(notes) or None)
    if found.candidates:
        items = [_symbol(view, s, full=False) for s in found.candidates]
        for item in items:
            item.candidates = len(items)
        hint = (
            f"'{params.name}' names {len(items)} symbols: call get_ui5_api again with the full name of the one you "
            "mean (sap.m.* is the standard control library; deprecated ones are listed last)."
        )
        return Output.build(items, limit=params.limit, entity="UI5 symbols", hint=hint).add_note(
            " ".join(notes) or None
        )
    if "/" in params.name or params.name.startswith("module:") or "#" in params.name:
        raise ToolError(
            f"No UI5 module or symbol '{params.name}' in {_sources(view)}.",
            hint="Check the spelling (module paths look like sap/m/Button), or search with words instead.",
        )
    hits = catalog.search(view.catalog, params.name)
    items = []
    for r in hits[: params.limit]:
        item = _symbol(view, r.symbol, full=False)
        if r.member is not None and r.group is not None:
            owner = view.catalog.by_name.get((r.inherited_from or "").lower(), r.symbol)
            item.member = _member(owner, r.group, r.member, inherited_from=r.inherited_from)
        items.append(item)
    if not items:
        close = catalog.close_names(view.catalog, params.name)
        raise ToolError(
            f"Nothing in {_sources(view)} matches '{params.name}'.",
            hint=(f"Did you mean: {', '.join(close)}? " if close else "")
            + f"Use a UI5 name (sap.m.Button, Button) or plain words ('date range picker'). {SAPUI5_NOTE}",
        )
    hint = (
        f"No symbol is named '{params.name}'; these match its words. Call get_ui5_api with a result's name "
        "(and member) for the full entry."
    )
    if view.project is None or not view.project.libraries:
        hint += f" {SAPUI5_NOTE}"
    out = Output.build(items, limit=params.limit, entity="UI5 symbols", total=len(hits), hint=hint)
    return out.add_note(" ".join(notes) or None)


def _sources(view: Any) -> str:
    text = view.bundled.describe()
    if view.project is not None and view.project.libraries:
        text += f" and {view.project.describe()}"
    return text


def _project_note(project: Any) -> str:
    parts = []
    if project.libraries:
        shown = ", ".join(project.libraries[:20]) + (" ..." if len(project.libraries) > 20 else "")
        parts.append(f"SAPUI5 libraries from {project.describe()}: {shown}.")
    if project.skipped:
        skipped = "; ".join(f"{lib} {why}" for lib, why in list(project.skipped.items())[:10])
        parts.append(f"Not read from @sapui5/types: {skipped}.")
    if not project.libraries and not project.skipped:
        parts.append(f"{project.describe()} adds no library beyond OpenUI5's.")
    return " ".join(parts)


TOOL = Tool(
    name="get_ui5_api",
    title="UI5 API reference",
    description=(
        "UI5 API reference for a control, class, enum or module (sap.m.Button, sap/m/Button, Button), or one "
        "member: properties (type, default), aggregations (cardinality), associations, events (parameters), "
        "methods (signatures), extends, since, deprecation with replacement, API reference URL. Words "
        "('date range picker') search controls and members. Offline, from SAP's UI5 type definitions."
    ),
    category="knowledge",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "Before writing UI5 code or XML views, check controls, properties, events and method signatures with "
        "get_ui5_api instead of guessing them."
    ),
    example={"name": "sap.m.Table", "member": "growing"},
)
