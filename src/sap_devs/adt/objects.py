"""ABAP repository objects over ADT: where each kind lives, its metadata and its source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.core.xml import parse_xml

ADTCORE = "{http://www.sap.com/adt/core}"
ATOM = "{http://www.w3.org/2005/Atom}"


@dataclass(frozen=True)
class Kind:
    key: str
    adt_type: str
    collection: str
    accept: str
    has_source: bool = True


def _v(base: str, *versions: str) -> str:
    return ", ".join(
        f"application/vnd.sap.adt.{base}.{v}+xml" if v else f"application/vnd.sap.adt.{base}+xml" for v in versions
    )


KINDS: dict[str, Kind] = {
    k.key: k
    for k in (
        Kind("program", "PROG/P", "/sap/bc/adt/programs/programs", _v("programs.programs", "v2", "v1")),
        Kind("include", "PROG/I", "/sap/bc/adt/programs/includes", _v("programs.includes", "v2", "v1")),
        Kind("class", "CLAS/OC", "/sap/bc/adt/oo/classes", _v("oo.classes", "v4", "v3", "v2", "v1")),
        Kind("interface", "INTF/OI", "/sap/bc/adt/oo/interfaces", _v("oo.interfaces", "v5", "v4", "v3", "v2", "v1")),
        Kind("function_group", "FUGR/F", "/sap/bc/adt/functions/groups", _v("functions.groups", "v3", "v2", "v1")),
        Kind(
            "table", "TABL/DT", "/sap/bc/adt/ddic/tables", _v("tables", "v2") + ", application/vnd.sap.adt.blues.v1+xml"
        ),
        Kind("structure", "TABL/DS", "/sap/bc/adt/ddic/structures", _v("structures", "v2", "v1")),
        Kind("cds_view", "DDLS/DF", "/sap/bc/adt/ddic/ddl/sources", _v("ddlSource", "v2", "")),
        Kind("behavior_definition", "BDEF/BDO", "/sap/bc/adt/bo/behaviordefinitions", _v("blues", "v1")),
        Kind("metadata_extension", "DDLX/EX", "/sap/bc/adt/ddic/ddlx/sources", _v("ddic.ddlx", "v1")),
        Kind("service_definition", "SRVD/SRV", "/sap/bc/adt/ddic/srvd/sources", _v("ddic.srvd", "v1")),
        Kind("access_control", "DCLS/DL", "/sap/bc/adt/acm/dcl/sources", _v("dclSource", "")),
        Kind("package", "DEVC/K", "/sap/bc/adt/packages", _v("packages", "v2", "v1"), has_source=False),
        Kind(
            "data_element", "DTEL/DE", "/sap/bc/adt/ddic/dataelements", _v("dataelements", "v2", "v1"), has_source=False
        ),
        Kind("domain", "DOMA/DD", "/sap/bc/adt/ddic/domains", _v("domains", "v2", "v1"), has_source=False),
        Kind(
            "message_class",
            "MSAG/N",
            "/sap/bc/adt/messageclass",
            "application/vnd.sap.adt.mc.messageclass+xml",
            has_source=False,
        ),
        Kind(
            "service_binding",
            "SRVB/SVB",
            "/sap/bc/adt/businessservices/bindings",
            _v("businessservices.servicebinding", "v2", "v1") + ", application/xml",
            has_source=False,
        ),
    )
}
CLASS_INCLUDES = ("definitions", "implementations", "macros", "testclasses")


def encode_name(name: str) -> str:
    """ADT object names in URLs: lower case, namespaces percent-encoded (/DMO/X -> %2fdmo%2fx)."""
    return quote(name.strip().lower(), safe="")


def object_uri(kind: str, name: str, *, group: str | None = None) -> str:
    if kind == "function_module":
        if not group:
            raise AdtError("A function module needs its function group.", hint="Pass function_group as well.")
        return f"{KINDS['function_group'].collection}/{encode_name(group)}/fmodules/{encode_name(name)}"
    return f"{KINDS[kind].collection}/{encode_name(name)}"


def source_uri(kind: str, name: str, *, group: str | None = None, include: str | None = None) -> str:
    """The URI of an object's source as ADT's editor addresses it: ``.../source/main``, a function
    module under its group, a class's local include at ``.../includes/<include>`` (no source/main)."""
    if include:
        if kind != "class":
            raise AdtError(f"Only classes have local includes; a {kind} has none.", hint="Leave include out.")
        if include not in CLASS_INCLUDES:
            raise AdtError(f"Unknown class include {include!r}.", hint=f"Use one of: {', '.join(CLASS_INCLUDES)}.")
        return f"{object_uri(kind, name)}/includes/{include}"
    return f"{object_uri(kind, name, group=group)}/source/main"


@dataclass
class ObjectInfo:
    name: str
    type: str
    uri: str
    description: str | None = None
    package: str | None = None
    responsible: str | None = None
    changed_by: str | None = None
    changed_at: str | None = None
    created_at: str | None = None
    version: str | None = None
    language: str | None = None
    abap_language_version: str | None = None
    links: list[dict[str, str]] = field(default_factory=list)


def parse_info(xml: bytes, uri: str) -> ObjectInfo:
    root = parse_xml(xml, source=f"metadata of {uri}")

    def attr(name: str) -> str | None:
        return root.get(f"{ADTCORE}{name}")

    package_ref = root.find(f"{ADTCORE}packageRef")
    container = root.find(f"{ADTCORE}containerRef")
    if package_ref is not None:
        package = package_ref.get(f"{ADTCORE}name")
    else:  # a function module names no package of its own: its group's is on the containerRef
        package = container.get(f"{ADTCORE}packageName") if container is not None else None
    links = [
        {k: v for k, v in (("rel", link.get("rel")), ("href", link.get("href")), ("type", link.get("type"))) if v}
        for link in root.findall(f"{ATOM}link")
    ]
    return ObjectInfo(
        name=attr("name") or uri.rsplit("/", 1)[-1].upper(),
        type=attr("type") or "",
        uri=uri,
        description=attr("description"),
        package=package,
        responsible=attr("responsible"),
        changed_by=attr("changedBy"),
        changed_at=attr("changedAt"),
        created_at=attr("createdAt"),
        version=attr("version"),
        language=attr("masterLanguage") or attr("language"),
        abap_language_version=attr("abapLanguageVersion"),
        links=links,
    )


async def read_metadata(
    client: AdtClient, kind: str, name: str, *, group: str | None = None
) -> tuple[ObjectInfo, bytes]:
    """The object's parsed header and the whole metadata document (for kind-specific parts)."""
    uri = object_uri(kind, name, group=group)
    accept = (
        KINDS[kind].accept if kind in KINDS else "application/vnd.sap.adt.functions.fmodules.v3+xml, application/xml"
    )
    response = await client.request("GET", uri, accept=accept)
    return parse_info(response.content, uri), response.content


async def read_info(client: AdtClient, kind: str, name: str, *, group: str | None = None) -> ObjectInfo:
    return (await read_metadata(client, kind, name, group=group))[0]


async def read_source(
    client: AdtClient, kind: str, name: str, *, group: str | None = None, version: str = "active"
) -> str:
    uri = object_uri(kind, name, group=group)
    return await client.get_text(f"{uri}/source/main", params={"version": version})


async def read_class_includes(client: AdtClient, name: str, version: str = "active") -> dict[str, str]:
    """Local definitions, implementations, macros and test classes; includes the class lacks are skipped."""
    import asyncio

    uri = object_uri("class", name)

    async def one(include: str) -> tuple[str, str | None]:
        try:
            return include, await client.get_text(f"{uri}/includes/{include}", params={"version": version})
        except AdtError as exc:
            if exc.status == 404:
                return include, None
            raise

    results = await asyncio.gather(*(one(i) for i in CLASS_INCLUDES))
    return {include: text for include, text in results if text and text.strip()}


def definition_properties(xml: bytes) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Leaf fields of a DDIC definition (data element, domain) by local name, and a domain's fixed values."""
    root = parse_xml(xml, source="DDIC definition")
    props: dict[str, str] = {}
    fixed: list[dict[str, str]] = []
    for el in root.iter():
        local = el.tag.rsplit("}", 1)[-1]
        if local == "fixValue":
            fixed.append({c.tag.rsplit("}", 1)[-1]: (c.text or "").strip() for c in el if (c.text or "").strip()})
        elif (
            len(el) == 0
            and (el.text or "").strip()
            and el.tag.startswith("{http://www.sap.com/")
            and "core" not in el.tag
        ):
            props.setdefault(local, el.text.strip())
    return props, fixed


def info_dict(info: ObjectInfo) -> dict[str, Any]:
    return {k: v for k, v in info.__dict__.items() if v not in (None, [], "")}
