"""A class's local includes: definitions, implementations, macros and test classes.

Writing one locks the class (the includes have no lock of their own), and the test classes include
is created under the same lock when the class has none yet, so an agent can add ABAP Unit tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import object_uri, read_info, source_uri
from sap_devs.adt.safety import SafetyPolicy
from sap_devs.adt.write import allowed_package, holding_lock

INCLUDE_TYPE = "application/vnd.sap.adt.oo.classincludes+xml"
CREATABLE = ("testclasses",)  # the other local includes exist with every class


@dataclass(frozen=True)
class IncludeWrite:
    name: str
    include: str
    uri: str
    package: str
    transport: str | None
    created: bool
    lines_before: int
    lines_after: int
    unlocked: bool


def _include_uri(name: str, include: str) -> str:
    return source_uri("class", name, include=include)


async def read_include(client: AdtClient, name: str, include: str, *, version: str = "active") -> str | None:
    """The include's source, or None when the class has no such include."""
    try:
        return await client.get_text(_include_uri(name, include), params={"version": version})
    except AdtError as exc:
        if exc.status == 404:
            return None
        raise


async def write_include(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    include: str,
    source: str,
    *,
    transport: str | None = None,
) -> IncludeWrite:
    target = _include_uri(name, include)
    info = await read_info(client, "class", name)
    package = allowed_package(policy, info, transport)
    before = await read_include(client, name, include, version="inactive")
    create = before is None and include in CREATABLE  # the other includes come with every class
    uri = object_uri("class", name)
    async with (
        client.stateful(),
        holding_lock(client, policy, info, package, kind="class", uri=uri, transport=transport) as held,
    ):
        if create:
            body = (
                '<?xml version="1.0" encoding="UTF-8"?><class:abapClassInclude '
                'xmlns:class="http://www.sap.com/adt/oo/classes" xmlns:adtcore="http://www.sap.com/adt/core" '
                f'adtcore:name={quoteattr(info.name)} class:includeType="{include}"/>'
            )
            await client.request(
                "POST", f"{uri}/includes", params=held.params, content_type=INCLUDE_TYPE, accept="*/*", body=body
            )
        await client.request(
            "PUT",
            target,
            params=held.params,
            content_type="text/plain; charset=utf-8",
            accept="text/plain",
            body=source,
        )
    return IncludeWrite(
        name=info.name,
        include=include,
        uri=target,
        package=held.package,
        transport=held.params.get("corrNr"),
        created=create,
        lines_before=len((before or "").splitlines()),
        lines_after=len(source.splitlines()),
        unlocked=held.unlocked,
    )
