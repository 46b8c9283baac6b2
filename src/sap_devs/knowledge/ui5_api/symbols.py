"""UI5 API symbols from parsed ``.d.ts`` declarations: what the API reference lists per class,
enum, namespace and type, with JSDoc cut to its first sentence.

UI5's generated declarations follow fixed conventions, and this module relies only on those:
a module ``sap/m/Button`` default-exports the class ``sap.m.Button``; its ``$ButtonSettings``
interface lists the properties, aggregations, associations and events, and the generated
getter's comment says which of the four a setting is ("Gets current value of property",
"Gets content of aggregation", "... of the association") and its default value; an event's
parameters are the members of ``Button$PressEventParameters``; a library's enums, types and
functions live in ``sap/m/library``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sap_devs.knowledge.ui5_api.dts import Decl, Member, Param

Symbol = dict[str, Any]
"""One API symbol as stored in the data file (keys with empty values are left out)."""

DOC_MAX = 240  # characters of a first sentence kept
_LINK = re.compile(r"\{@link\s+([^\s}]+)(?:\s+([^}]*))?\}")
_TAG = re.compile(r"^@([\w-]+)\s*(.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])|\n\s*\n")
_AS_OF = re.compile(r"^\s*(?:As of|Since)\s+(?:version\s+)?(\d+(?:\.\d+)*)\.?\s*", re.I)
_DEFAULT = re.compile(r"^Default value is `([^`\n]*)`\.?\s*$", re.M)  # the generator's own line
_IDENT = re.compile(r"(?<![\w$.'\"`])([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*)*)")
_BINDING_PARTS = ("PropertyBindingInfo", "AggregationBindingInfo", "`{${string}}`")
MODULE_LINK = re.compile(r"\{@link\s+module:([\w/.-]+?)(?:[.#][\w$]+)*[\s}]")
ACCESSOR_PREFIXES = (
    "get",
    "set",
    "bind",
    "unbind",
    "add",
    "insert",
    "remove",
    "removeAll",
    "indexOf",
    "destroy",
    "attach",
    "detach",
    "fire",
)


# -- JSDoc --------------------------------------------------------------------------------------


def doc_parts(raw: str | None) -> tuple[str, dict[str, str]]:
    """A JSDoc comment's description and its tags (tag name -> text)."""
    if not raw:
        return "", {}
    body = raw[3:-2] if raw.endswith("*/") else raw[3:]
    lines = []
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("*"):
            line = line[1:]
            if line.startswith(" "):
                line = line[1:]
        lines.append(line.rstrip())
    description: list[str] = []
    tags: dict[str, str] = {}
    current: str | None = None
    for line in lines:
        m = _TAG.match(line.strip())
        if m and not line.startswith("\t"):
            current = m.group(1)
            tags[current] = m.group(2)
        elif current is None:
            description.append(line)
        else:
            tags[current] = (tags[current] + "\n" + line).strip()
    return "\n".join(description).strip(), tags


def plain(text: str) -> str:
    """Links reduced to their label, white space collapsed."""
    text = _LINK.sub(lambda m: (m.group(2) or m.group(1).lstrip("#")).strip(), text)
    return re.sub(r"\s+", " ", text).strip()


def first_sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    head = _SENTENCE_END.split(text, maxsplit=1)[0]
    head = plain(head)
    if len(head) > DOC_MAX:
        head = head[: DOC_MAX - 1].rsplit(" ", 1)[0] + "…"
    return head


def _dated(text: str) -> dict[str, str]:
    """``As of version 1.20. replaced by press`` -> {since: 1.20, text: replaced by press}."""
    out: dict[str, str] = {}
    m = _AS_OF.match(text)
    if m:
        out["since"] = m.group(1)
        text = text[m.end() :]
    text = first_sentence(text) if len(text) > DOC_MAX else plain(text)
    if text:
        out["text"] = text
    return out


def annotate(record: Symbol, raw_doc: str | None, *, skip_accessor_line: bool = False) -> str:
    """Adds doc, since, deprecated, experimental and protected to ``record``; returns the description."""
    description, tags = doc_parts(raw_doc)
    text = description
    if skip_accessor_line and text.startswith(("Gets current value of property", "Gets content of aggregation")):
        text = text.split("\n\n", 1)[1] if "\n\n" in text else ""
    sentence = first_sentence(text)
    if sentence:
        record["doc"] = sentence
    if tags.get("since"):
        record["since"] = tags["since"].split()[0]
    if "deprecated" in tags:
        record["deprecated"] = _dated(tags["deprecated"]) or {"text": ""}
    if "experimental" in tags:
        record["experimental"] = _dated(tags["experimental"]) or {"text": ""}
    if "ui5-protected" in tags:
        record["protected"] = True
    return description


def prune(record: Symbol) -> Symbol:
    return {k: v for k, v in record.items() if v not in (None, "", [], {}, False)}


# -- names --------------------------------------------------------------------------------------


def library_of_module(module: str) -> str | None:
    """``sap/m/library`` -> ``sap.m``."""
    return module[: -len("/library")].replace("/", ".") if module.endswith("/library") else None


class Names:
    """Global names of modules and of what they export, as the API reference spells them."""

    def __init__(self, module_named: Iterable[str] = ()) -> None:
        self.module_named = set(module_named)  # modules the docs call module:sap/base/Log
        self.known: dict[str, str] = {}  # module -> global name of its default export

    def of_module(self, module: str) -> str:
        if module in self.known:
            return self.known[module]
        lib = library_of_module(module)
        if lib:
            return lib
        if module in self.module_named:
            return f"module:{module}"
        return module.replace("/", ".")

    def of_export(self, module: str, export: str) -> str:
        if export in ("default", "*"):
            return self.of_module(module)
        lib = library_of_module(module)
        if lib:
            return f"{lib}.{export}"
        base = self.of_module(module)
        if base.startswith("module:"):
            return f"{base}.{export}"
        parent = module.rsplit("/", 1)[0].replace("/", ".")
        return f"{parent}.{export}"


class Resolver:
    """Rewrites the local names in a type to global ones through the module's imports."""

    def __init__(self, names: Names, imports: dict[str, tuple[str, str]], local: dict[str, str]) -> None:
        self.map = {local_name: names.of_export(mod, exp) for local_name, (mod, exp) in imports.items()}
        self.map.update(local)

    def name(self, local: str) -> str:
        head, _, rest = local.partition(".")
        base = self.map.get(head)
        if base is None:
            return local
        return f"{base}.{rest}" if rest else base

    def type(self, text: str | None) -> str | None:
        if not text:
            return text
        return _IDENT.sub(lambda m: self.name(m.group(1)) + m.group(2) if m.group(1) in self.map else m.group(0), text)

    def signature(self, name: str, generics: str, params: list[Param], returns: str | None) -> str:
        rendered = ", ".join(
            f"{'...' if p.rest else ''}{p.name}{'?' if p.optional else ''}: {self.type(p.type)}" for p in params
        )
        return f"{name}{generics}({rendered}): {self.type(returns) or 'void'}"


# -- symbols ------------------------------------------------------------------------------------


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:]


def _strip_binding(type_text: str) -> str:
    parts = [p.strip() for p in type_text.split("|")]
    kept = [p for p in parts if p and not any(b in p for b in _BINDING_PARTS)]
    text = " | ".join(kept)
    m = re.fullmatch(r"\((\w[\w.]*) \| keyof typeof \1\)", text)
    return m.group(1) if m else text


def _default_value(getter_doc: str) -> str | None:
    found = _DEFAULT.findall(getter_doc)
    if not found:
        return None
    return "" if found[-1] == "empty string" else found[-1]


def _methods(members: list[Member], resolve: Resolver, generated: set[str], owner: str) -> list[Symbol]:
    by_key: dict[tuple[str, bool], Symbol] = {}
    for m in members:
        if m.kind != "method" or not m.name:
            continue
        key = (m.name, m.static)
        sig = resolve.signature(m.name, m.generics, m.params, m.type)
        if key in by_key:
            sigs = by_key[key]["signatures"]
            if sig not in sigs and len(sigs) < 4:
                sigs.append(sig)
            continue
        record: Symbol = {"name": m.name, "static": m.static, "signatures": [sig], "returns": resolve.type(m.type)}
        annotate(record, m.doc)
        _, tags = doc_parts(m.doc)
        if tags.get("returns"):
            record["returns_doc"] = first_sentence(tags["returns"])
        if not m.static and m.name in generated:
            record["generated"] = True
            record.pop("returns_doc", None)
        by_key[key] = record
    return [prune(r) for r in by_key.values()]


def _settings(
    settings: Decl | None,
    cls: Decl,
    event_params: dict[str, Decl],
    resolve: Resolver,
) -> tuple[list[Symbol], list[Symbol], list[Symbol], list[Symbol]]:
    props: list[Symbol] = []
    aggs: list[Symbol] = []
    assocs: list[Symbol] = []
    events: list[Symbol] = []
    if settings is None:
        return props, aggs, assocs, events
    methods: dict[str, Member] = {}
    for m in cls.members:
        if m.kind == "method" and not m.static:
            methods.setdefault(m.name, m)
    for s in settings.members:
        if s.kind != "property" or not s.name:
            continue
        cap = _cap(s.name)
        type_text = s.type or ""
        getter = methods.get("get" + cap)
        getter_doc, _ = doc_parts(getter.doc if getter else None)
        first_line = getter_doc.split("\n", 1)[0]
        record: Symbol = {"name": s.name}
        annotate(record, s.doc)
        if ("attach" + cap) in methods or ("=>" in type_text and type_text.lstrip("(").startswith("oEvent")):
            params_decl = event_params.get(cap)
            params = []
            for p in params_decl.members if params_decl else []:
                if p.kind == "property" and p.name:
                    param: Symbol = {"name": p.name, "type": resolve.type(p.type)}
                    annotate(param, p.doc)
                    params.append(prune(param))
            record["parameters"] = params
            events.append(prune(record))
            continue
        if "association" in first_line or (
            getter is None and re.fullmatch(r"(Array<)?\w[\w.]* \| string>?", type_text) is not None
        ):
            multiple = type_text.startswith("Array<") or (getter is not None and (getter.type or "").endswith("[]"))
            target = re.sub(r"^Array<|>$", "", type_text).split("|")[0].strip()
            record["type"] = resolve.type(target)
            record["cardinality"] = "0..n" if multiple else "0..1"
            assocs.append(prune(record))
            continue
        if "aggregation" in first_line or "AggregationBindingInfo" in type_text:
            returned = getter.type if getter and getter.type else _strip_binding(type_text)
            multiple = returned.endswith("[]") or "[]" in type_text
            record["type"] = resolve.type(returned.removesuffix("[]"))
            record["cardinality"] = "0..n" if multiple else "0..1"
            record["bindable"] = ("bind" + cap) in methods
            aggs.append(prune(record))
            continue
        record["type"] = resolve.type(getter.type if getter and getter.type else _strip_binding(type_text))
        default = _default_value(getter_doc) if getter else None
        if default is not None:
            record["default"] = default
        record["bindable"] = ("bind" + cap) in methods
        out = prune(record)
        if default == "":
            out["default"] = ""  # an empty string default is a value, not an absent one
        props.append(out)
    return props, aggs, assocs, events


def _generated_names(props: list[Symbol], aggs: list[Symbol], assocs: list[Symbol], events: list[Symbol]) -> set[str]:
    names: set[str] = set()
    for group in (props, aggs, assocs, events):
        for m in group:
            cap = _cap(m["name"])
            names.update(prefix + cap for prefix in ACCESSOR_PREFIXES)
            if m["name"].endswith("s"):  # addItem for the aggregation items
                names.update(prefix + cap[:-1] for prefix in ("add", "insert", "remove", "indexOf"))
    return names


def _class_symbol(decl: Decl, name: str, module: str, library: str, resolve: Resolver, siblings: list[Decl]) -> Symbol:
    short = decl.name
    settings = next((d for d in siblings if d.kind == "interface" and d.name == f"${short}Settings"), None)
    prefix = f"{short}$"
    event_params = {
        d.name[len(prefix) : -len("EventParameters")]: d
        for d in siblings
        if d.kind == "interface" and d.name.startswith(prefix) and d.name.endswith("EventParameters")
    }
    props, aggs, assocs, events = _settings(settings, decl, event_params, resolve)
    generated = _generated_names(props, aggs, assocs, events)
    record: Symbol = {
        "name": name,
        "kind": "class" if decl.kind == "class" else decl.kind,
        "module": module,
        "library": library,
        "extends": resolve.name(decl.extends[0]) if decl.extends else None,
        "implements": [resolve.name(i) for i in decl.implements],
        "abstract": decl.abstract,
    }
    annotate(record, decl.doc)
    record.update(
        {
            "properties": props,
            "aggregations": aggs,
            "associations": assocs,
            "events": events,
            "methods": _methods(decl.members, resolve, generated, name),
        }
    )
    return prune(record)


def _enum_symbol(decl: Decl, name: str, module: str, library: str) -> Symbol:
    record: Symbol = {"name": name, "kind": "enum", "module": module, "library": library}
    annotate(record, decl.doc)
    values = []
    for value_name, value, value_doc in decl.values:
        item: Symbol = {"name": value_name, "value": (value or "").strip("\"'") or None}
        annotate(item, value_doc)
        values.append(prune(item))
    record["values"] = values
    return prune(record)


def _object_symbol(
    decl: Decl | None, shape: Decl | None, name: str, module: str, library: str, resolve: Resolver, kind: str
) -> Symbol:
    """A namespace-like object (an interface plus a constant of it, or a namespace)."""
    record: Symbol = {"name": name, "kind": kind, "module": module, "library": library}
    annotate(record, (decl.doc if decl and decl.doc else None) or (shape.doc if shape else None))
    members = shape.members if shape else []
    record["methods"] = _methods(members, resolve, set(), name)
    fields = []
    for m in members:
        if m.kind == "property" and m.name and not m.name.startswith("__implements__"):
            item: Symbol = {"name": m.name, "type": resolve.type(m.type)}
            annotate(item, m.doc)
            fields.append(prune(item))
    record["fields"] = fields
    return prune(record)


def _typedef_symbol(decl: Decl, name: str, module: str, library: str, resolve: Resolver) -> Symbol:
    is_interface = decl.kind == "interface"
    marker = any(m.name.startswith("__implements__") for m in decl.members)
    record: Symbol = {
        "name": name,
        "kind": "interface" if marker else "typedef",
        "module": module,
        "library": library,
        "type": resolve.type(decl.type) if not is_interface else None,
        "extends": resolve.name(decl.extends[0]) if decl.extends else None,
    }
    annotate(record, decl.doc)
    if is_interface:
        record["methods"] = _methods(decl.members, resolve, set(), name)
        fields = []
        for m in decl.members:
            if m.kind == "property" and m.name and not m.name.startswith("__implements__"):
                item: Symbol = {"name": m.name, "type": resolve.type(m.type), "optional": m.optional}
                annotate(item, m.doc)
                fields.append(prune(item))
        record["fields"] = fields
    return prune(record)


def _function_symbol(decl: Decl, name: str, module: str, library: str, resolve: Resolver) -> Symbol:
    record: Symbol = {
        "name": name,
        "kind": "function",
        "module": module,
        "library": library,
        "signatures": [resolve.signature(decl.name, decl.generics, decl.params, decl.type)],
        "returns": resolve.type(decl.type),
    }
    annotate(record, decl.doc)
    return prune(record)


def _is_helper(name: str) -> bool:
    """The generator's own helper types: settings, event parameters and event objects."""
    return name.startswith("$") or "$" in name


def _namespace_symbols(
    decls: list[Decl], prefix: str, module: str, library: str, resolve: Resolver, doc: str | None = None
) -> list[Symbol]:
    """A library module or a namespace: a namespace symbol with its functions, plus one symbol each
    for the enums, types, interfaces and nested namespaces it exports."""
    out: list[Symbol] = []
    functions = [d for d in decls if d.kind == "function"]
    constants = {d.name: d for d in decls if d.kind == "const"}
    ns: Symbol = {"name": prefix, "kind": "namespace", "module": module, "library": library}
    annotate(ns, doc)
    methods = []
    for f in functions:
        item: Symbol = {
            "name": f.name,
            "static": True,
            "signatures": [resolve.signature(f.name, f.generics, f.params, f.type)],
            "returns": resolve.type(f.type),
        }
        annotate(item, f.doc)
        methods.append(prune(item))
    ns["methods"] = methods
    interfaces = {d.name for d in decls if d.kind == "interface"}
    fields = []
    for name, const in constants.items():
        if name not in interfaces and not _is_helper(name):  # an interface's twin is its own symbol
            item = {"name": name, "type": resolve.type(const.type)}
            annotate(item, const.doc)
            fields.append(prune(item))
    ns["fields"] = fields
    out.append(prune(ns))
    for d in decls:
        if not d.name or _is_helper(d.name) or d.kind in ("import", "function", "default"):
            continue
        full = f"{prefix}.{d.name}"
        if d.kind == "enum":
            out.append(_enum_symbol(d, full, module, library))
        elif d.kind == "class":
            out.append(_class_symbol(d, full, module, library, resolve, decls))
        elif d.kind == "interface" and d.name in constants:
            out.append(_object_symbol(constants[d.name], d, full, module, library, resolve, "namespace"))
        elif d.kind in ("interface", "type"):
            out.append(_typedef_symbol(d, full, module, library, resolve))
        elif d.kind == "namespace":
            out.extend(_namespace_symbols(d.children, full, module, library, resolve, d.doc))
    return out


def module_symbols(block: Decl, library: str, names: Names) -> list[Symbol]:
    """The symbols one ``declare module "..." { }`` block defines."""
    module = block.name
    children = block.children
    imports: dict[str, tuple[str, str]] = {}
    for d in children:
        if d.kind == "import":
            imports.update(d.imports)
    lib = library_of_module(module)
    base = names.of_module(module)
    local: dict[str, str] = {}
    for d in children:
        if d.kind in ("class", "interface", "enum", "type", "namespace") and d.name and not _is_helper(d.name):
            if d.default:
                local[d.name] = base
            elif lib:
                local[d.name] = f"{lib}.{d.name}"
    default_ref = next((d.name for d in children if d.kind == "default"), None)
    if default_ref:
        local[default_ref] = base
    resolve = Resolver(names, imports, local)
    if lib:
        return _namespace_symbols(children, lib, module, lib, resolve)
    out: list[Symbol] = []
    for d in children:
        if d.kind in ("import", "default") or not d.name or _is_helper(d.name):
            continue
        is_default = d.default or d.name == default_ref
        name = base if is_default else names.of_export(module, d.name)
        if d.kind == "class":
            out.append(_class_symbol(d, name, module, library, resolve, children))
        elif d.kind == "enum":
            out.append(_enum_symbol(d, name, module, library))
        elif d.kind == "function" and (is_default or d.exported):
            out.append(_function_symbol(d, name, module, library, resolve))
        elif d.kind == "namespace":  # sap/ui/Device's browser, media ...: sap.ui.Device.media
            full = name if is_default else f"{base}.{d.name}"
            out.extend(_namespace_symbols(d.children, full, module, library, resolve, d.doc))
        elif d.kind == "interface" and is_default:
            const = next((c for c in children if c.kind == "const" and c.name == d.name), None)
            out.append(_object_symbol(const, d, name, module, library, resolve, "namespace"))
        elif d.kind in ("interface", "type") and d.exported:
            out.append(_typedef_symbol(d, name, module, library, resolve))
    return out


def module_linked(texts: Iterable[str]) -> set[str]:
    """Modules the JSDoc links as ``module:sap/base/Log``: the API reference names them so."""
    found: set[str] = set()
    for text in texts:
        found.update(MODULE_LINK.findall(text))
    return found


def file_symbols(decls: list[Decl], library: str, names: Names) -> list[Symbol]:
    out: list[Symbol] = []
    for block in decls:
        if block.kind == "module":
            out.extend(module_symbols(block, library, names))
    return out
