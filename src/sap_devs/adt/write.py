"""Changing source code: lock, write, unlock inside one call, after the safety policy said yes.

The lock handle never leaves this function, and unlock is always attempted, even when the write fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import object_uri, read_info
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


def _lock_data(xml: bytes) -> tuple[str, str | None]:
    root = parse_xml(xml, source="lock response")
    handle = root.findtext(".//LOCK_HANDLE")
    if not handle:
        raise AdtError("The system locked the object but returned no lock handle.")
    return handle, (root.findtext(".//CORRNR") or None)


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
    policy.check_write(info.package, info.name)
    package = info.package or ""
    if not is_local(package) and not transport:
        raise PolicyError(
            f"{info.name} is in the transportable package {package}; a transport request is required.",
            hint="Pass transport with an existing modifiable request (sap-devs never creates one implicitly).",
        )
    uri = object_uri(kind, name, group=group)
    before = await client.get_text(f"{uri}/source/main", params={"version": "inactive"})
    unlocked = False
    async with client.stateful():
        lock = await client.request(
            "POST",
            uri,
            params={"_action": "LOCK", "accessMode": "MODIFY"},
            accept="application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result;q=0.8, "
            "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result2;q=0.9",
        )
        handle, lock_corr = _lock_data(lock.content)
        try:
            params = {"lockHandle": handle}
            corr = transport or (lock_corr if not is_local(package) else None)
            if corr:
                params["corrNr"] = corr
            await client.request(
                "PUT",
                f"{uri}/source/main",
                params=params,
                content_type="text/plain; charset=utf-8",
                body=source,
                accept="text/plain",
            )
        finally:
            try:
                await client.request("POST", uri, params={"_action": "UNLOCK", "lockHandle": handle}, accept="*/*")
                unlocked = True
            except AdtError:
                unlocked = False  # reported below; the lock expires with the session on the server
    return WriteReport(
        name=info.name,
        uri=uri,
        package=package,
        transport=transport,
        lines_before=len(before.splitlines()),
        lines_after=len(source.splitlines()),
        unlocked=unlocked,
    )
