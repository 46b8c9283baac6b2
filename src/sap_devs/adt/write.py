"""Changing source code: lock, write, unlock inside one call, after the safety policy said yes.

The lock handle never leaves this function, and unlock is always attempted, even when the write fails.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import KINDS, ObjectInfo, object_uri, read_info
from sap_devs.adt.safety import PolicyError, SafetyPolicy, is_local
from sap_devs.core.xml import parse_xml


@dataclass
class WriteReport:
    name: str
    uri: str
    package: str
    transport: str | None
    lines_before: int
    lines_after: int
    unlocked: bool
    messages: list[str] = field(default_factory=list)


def lock_data(xml: bytes) -> tuple[str, str | None]:
    root = parse_xml(xml, source="lock response")
    handle = root.findtext(".//LOCK_HANDLE")
    if not handle:
        raise AdtError("The system locked the object but returned no lock handle.")
    return handle, (root.findtext(".//CORRNR") or None)


def allowed_package(policy: SafetyPolicy, info: ObjectInfo, transport: str | None) -> str:
    """The object's package if the policy lets this call change it; a PolicyError otherwise."""
    policy.check_write(info.package, info.name)
    package = info.package or ""
    if not is_local(package) and not transport:
        raise PolicyError(
            f"{info.name} is in the transportable package {package}; a transport request is required.",
            hint="Pass transport with an existing modifiable request (sap-devs never creates one implicitly).",
        )
    return package


async def _package_after_lock(
    client: AdtClient,
    policy: SafetyPolicy,
    kind: str,
    name: str,
    checked: str,
    *,
    group: str | None,
    transport: str | None,
) -> str:
    """The package read again under the lock: the object may have moved since the first check."""
    info = await read_info(client, kind, name, group=group)
    try:
        return allowed_package(policy, info, transport)
    except PolicyError as exc:
        raise PolicyError(
            f"Refused after locking {info.name}: it is now in package {info.package or '(unknown)'} "
            f"(it was in {checked} when first checked). {exc.message} Nothing was changed.",
            hint=exc.hint,
        ) from None


async def _unlock(client: AdtClient, uri: str, handle: str) -> bool:
    try:
        await client.request("POST", uri, params={"_action": "UNLOCK", "lockHandle": handle}, accept="*/*")
    except AdtError:
        return False  # the lock expires with the session on the server; callers report it
    return True


LOCK_ACCEPT = (
    "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result;q=0.8, "
    "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result2;q=0.9"
)


@dataclass
class HeldLock:
    """What a write under the lock needs: the PUT parameters (lock handle, transport) and the package
    read again under the lock; ``unlocked`` is known once the lock is given back."""

    params: dict[str, str]
    package: str
    unlocked: bool = False


@asynccontextmanager
async def holding_lock(
    client: AdtClient,
    policy: SafetyPolicy,
    info: ObjectInfo,
    checked: str,
    *,
    kind: str,
    uri: str,
    group: str | None = None,
    transport: str | None = None,
    lock_params: dict[str, str] | None = None,
) -> AsyncIterator[HeldLock]:
    """Lock the object, re-check its package under the lock, and always unlock, even when the write
    inside fails. Call it inside ``client.stateful()``: the lock belongs to that session."""
    lock = await client.request(
        "POST",
        uri,
        params={"_action": "LOCK", "accessMode": "MODIFY", **(lock_params or {})},
        accept=LOCK_ACCEPT,
    )
    handle, lock_corr = lock_data(lock.content)
    held = HeldLock(params={"lockHandle": handle}, package=checked)
    try:
        held.package = await _package_after_lock(
            client, policy, kind, info.name, checked, group=group, transport=transport
        )
        corr = transport or (lock_corr if not is_local(held.package) else None)
        if corr:
            held.params["corrNr"] = corr
        yield held
    finally:
        held.unlocked = await _unlock(client, uri, handle)


async def _locked_put(
    client: AdtClient,
    policy: SafetyPolicy,
    info: ObjectInfo,
    checked: str,
    *,
    kind: str,
    uri: str,
    target: str,
    body: str,
    content_type: str,
    accept: str,
    group: str | None = None,
    transport: str | None = None,
) -> HeldLock:
    """One PUT of ``target`` under the object's lock, in its own stateful session."""
    async with (
        client.stateful(),
        holding_lock(client, policy, info, checked, kind=kind, uri=uri, group=group, transport=transport) as held,
    ):
        await client.request("PUT", target, params=held.params, content_type=content_type, body=body, accept=accept)
    return held


async def write_source(
    client: AdtClient,
    policy: SafetyPolicy,
    kind: str,
    name: str,
    source: str,
    *,
    transport: str | None = None,
    group: str | None = None,
) -> WriteReport:
    info = await read_info(client, kind, name, group=group)
    package = allowed_package(policy, info, transport)
    uri = object_uri(kind, name, group=group)
    before = await client.get_text(f"{uri}/source/main", params={"version": "inactive"})
    held = await _locked_put(
        client,
        policy,
        info,
        package,
        kind=kind,
        uri=uri,
        target=f"{uri}/source/main",
        body=source,
        content_type="text/plain; charset=utf-8",
        accept="text/plain",
        group=group,
        transport=transport,
    )
    return WriteReport(
        name=info.name,
        uri=uri,
        package=held.package,
        transport=transport,
        lines_before=len(before.splitlines()),
        lines_after=len(source.splitlines()),
        unlocked=held.unlocked,
    )


CREATE_SHAPES = {
    # kind: (root element, namespace, content type, extra attributes)
    "program": (
        "program:abapProgram",
        "http://www.sap.com/adt/programs/programs",
        "application/vnd.sap.adt.programs.programs.v2+xml",
        ' program:programType="executableProgram"',
    ),
    "class": (
        "class:abapClass",
        "http://www.sap.com/adt/oo/classes",
        "application/vnd.sap.adt.oo.classes.v4+xml",
        ' class:final="true" class:visibility="public"',
    ),
    "interface": (
        "intf:abapInterface",
        "http://www.sap.com/adt/oo/interfaces",
        "application/vnd.sap.adt.oo.interfaces.v5+xml",
        "",
    ),
    # RAP and CDS sources, in the shapes sapcli sends (sap/adt/objects.py, behaviordefinition.py,
    # metadatextension.py, businessservice.py)
    "cds_view": (
        "ddl:ddlSource",
        "http://www.sap.com/adt/ddic/ddlsources",
        "application/vnd.sap.adt.ddlSource+xml",
        ' adtcore:type="DDLS/DF"',
    ),
    "access_control": (
        "dcl:dclSource",
        "http://www.sap.com/adt/acm/dclsources",
        "application/vnd.sap.adt.dclSource+xml",
        ' adtcore:type="DCLS/DL"',
    ),
    "behavior_definition": (
        "blue:blueSource",
        "http://www.sap.com/wbobj/blue",
        "application/vnd.sap.adt.blues.v1+xml",
        ' adtcore:type="BDEF/BDO"',
    ),
    "metadata_extension": (
        "ddlx:ddlxSource",
        "http://www.sap.com/adt/ddic/ddlxsources",
        "application/vnd.sap.adt.ddic.ddlx.v1+xml",
        ' adtcore:type="DDLX/EX"',
    ),
    "service_definition": (
        "srvd:srvdSource",
        "http://www.sap.com/adt/ddic/srvdsources",
        "application/vnd.sap.adt.ddic.srvd.v1+xml",
        ' adtcore:type="SRVD/SRV" srvd:srvdSourceType="S"',
    ),
    # a database table defined by its source (define table ...), as sapcli creates one (sap/adt/table.py)
    "table": (
        "blue:blueSource",
        "http://www.sap.com/wbobj/blue",
        "application/vnd.sap.adt.tables.v2+xml",
        ' adtcore:type="TABL/DT"',
    ),
}
# what a system without an object type's ADT resource is told, by kind
_NOT_OFFERED = {
    "table": "Tables are created from source over ADT from SAP_BASIS 7.52 on and on ABAP Cloud; "
    "on older systems create it in SE11.",
}
_NAME_RULE = re.compile(r"^(?:[YZ][A-Z0-9_]{0,29}|/[A-Z0-9_]{1,10}/[A-Z0-9_]{1,29})$")


def check_new_name(name: str) -> None:
    if not _NAME_RULE.match(name.upper()):
        raise PolicyError(
            f"{name!r} is not a customer name.",
            hint="New objects start with Z or Y, or use your own /NAMESPACE/ prefix (at most 30 characters).",
        )


def check_new_object(policy: SafetyPolicy, name: str, package: str, transport: str | None) -> None:
    """What every create checks before its first request: a customer name, an allowed package, and a
    transport for a transportable package (sap-devs never creates one implicitly)."""
    check_new_name(name)
    policy.check_write(package, name.upper())
    if not is_local(package) and not transport:
        raise PolicyError(
            f"{package} is a transportable package; a transport request is required.",
            hint="Pass transport with an existing modifiable request (sap-devs never creates one implicitly).",
        )


def with_owner(body: str, adt_type: str | None, responsible: str | None) -> str:
    """The new object's document with ``adtcore:type`` and ``adtcore:responsible`` on its root, which
    both reference clients send (the object's type and the person responsible for it)."""
    start = body.find("<", body.find("?>") + 2 if body.startswith("<?xml") else 0)
    name_end = start + 1
    while name_end < len(body) and not body[name_end].isspace() and body[name_end] not in "/>":
        name_end += 1
    root_tag = body[start : body.find("<", name_end) if "<" in body[name_end:] else len(body)]
    extra = ""
    if adt_type and "adtcore:type=" not in root_tag:
        extra += f" adtcore:type={quoteattr(adt_type)}"
    if responsible and "adtcore:responsible=" not in root_tag:
        extra += f" adtcore:responsible={quoteattr(responsible.upper())}"
    return body[:name_end] + extra + body[name_end:]


async def post_new(client: AdtClient, collection: str, body: str, *, content_type: str, transport: str | None) -> None:
    """The create request every create sends after check_new_object: the new object's document posted
    to its collection, recorded on the transport when one is given."""
    kind = next((k for k in KINDS.values() if k.collection == collection), None)
    body = with_owner(body, kind.adt_type if kind else None, client.config.user)
    params = {"corrNr": transport} if transport else None
    await client.request("POST", collection, params=params, content_type=content_type, accept=content_type, body=body)


async def create_object(
    client: AdtClient,
    policy: SafetyPolicy,
    kind: str,
    name: str,
    *,
    package: str,
    description: str,
    source: str | None = None,
    transport: str | None = None,
) -> WriteReport:
    """Create a program, class, interface or RAP/CDS source object, then (optionally) write its first source."""
    check_new_object(policy, name, package, transport)
    root, ns, ctype, extra = CREATE_SHAPES[kind]
    prefix = root.split(":", 1)[0]
    body = (
        f'<?xml version="1.0" encoding="UTF-8"?><{root} xmlns:{prefix}="{ns}" '
        f'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:name={quoteattr(name.upper())} '
        f'adtcore:description={quoteattr(description[:60])} adtcore:language="EN" '
        f'adtcore:masterLanguage="EN"{extra}><adtcore:packageRef adtcore:name={quoteattr(package.upper())}/></{root}>'
    )
    collection = object_uri(kind, name).rsplit("/", 1)[0]
    try:
        await post_new(client, collection, body, content_type=ctype, transport=transport)
    except AdtError as exc:
        if exc.status not in (404, 405):
            raise
        raise AdtError(
            f"This system cannot create a {kind.replace('_', ' ')} over ADT "
            f"({collection} answered {exc.status}); nothing was created.",
            hint=_NOT_OFFERED.get(kind, "Create it in the SAP GUI or in ADT's own editor instead."),
        ) from None
    if source is not None:
        return await write_source(client, policy, kind, name, source, transport=transport)
    uri = object_uri(kind, name)
    return WriteReport(name.upper(), uri, package.upper(), transport, 0, 0, unlocked=True)


async def delete_object(
    client: AdtClient, policy: SafetyPolicy, kind: str, name: str, *, transport: str | None = None
) -> WriteReport:
    info = await read_info(client, kind, name)
    package = allowed_package(policy, info, transport)
    uri = object_uri(kind, name)
    async with client.stateful():
        lock = await client.request("POST", uri, params={"_action": "LOCK", "accessMode": "MODIFY"}, accept=LOCK_ACCEPT)
        handle, _ = lock_data(lock.content)
        try:
            package = await _package_after_lock(client, policy, kind, name, package, group=None, transport=transport)
            params = {"lockHandle": handle}
            if transport:
                params["corrNr"] = transport
            await client.request("DELETE", uri, params=params, accept="*/*")
        except Exception:
            await _unlock(client, uri, handle)  # a deleted object needs no unlock; anything else does
            raise
    return WriteReport(info.name, uri, package, transport, 0, 0, unlocked=True)


async def write_metadata(
    client: AdtClient,
    policy: SafetyPolicy,
    kind: str,
    name: str,
    body: str,
    *,
    content_type: str,
    transport: str | None = None,
) -> WriteReport:
    """Replace the XML definition of a DDIC object (data element, domain): lock, PUT, unlock in one call."""
    info = await read_info(client, kind, name)
    package = allowed_package(policy, info, transport)
    uri = object_uri(kind, name)
    held = await _locked_put(
        client,
        policy,
        info,
        package,
        kind=kind,
        uri=uri,
        target=uri,
        body=body,
        content_type=content_type,
        accept=content_type,
        transport=transport,
    )
    return WriteReport(info.name, uri, held.package, transport, 0, 0, unlocked=held.unlocked)
