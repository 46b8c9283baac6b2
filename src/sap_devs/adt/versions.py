"""Version history of an object's source over ADT, and a unified diff of two versions.

GET {object}/source/main/versions answers an Atom feed: one entry per saved version with its
author, time, title, the URL of that version's source (``atom:content@src``) and the transport
request it was recorded in (an ``atom:link`` with the transport relation).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ATOM, object_uri, read_source
from sap_devs.core.xml import parse_xml

TRANSPORT_REL = "http://www.sap.com/adt/relations/transport/request"
CURRENT = ("active", "inactive")


@dataclass
class Version:
    id: str
    title: str | None
    author: str | None
    time: str | None
    uri: str
    transport: str | None
    transport_text: str | None


def parse_versions(xml: bytes, object_path: str) -> list[Version]:
    root = parse_xml(xml, source="version feed")
    found = []
    for entry in root.iter(f"{ATOM}entry"):
        content = entry.find(f"{ATOM}content")
        src = content.get("src", "") if content is not None else ""
        if not src.startswith(object_path + "/"):
            continue  # only versions of this object are ever read back
        link = next((x for x in entry.findall(f"{ATOM}link") if x.get("rel") == TRANSPORT_REL), None)
        found.append(
            Version(
                id=(entry.findtext(f"{ATOM}id") or src.rsplit("/", 1)[-1]).strip(),
                title=(entry.findtext(f"{ATOM}title") or "").strip() or None,
                author=(entry.findtext(f"{ATOM}author/{ATOM}name") or "").strip() or None,
                time=entry.findtext(f"{ATOM}updated"),
                uri=src,
                transport=link.get("href", "").rsplit("/", 1)[-1] if link is not None else None,
                transport_text=link.get("title") if link is not None else None,
            )
        )
    return found


async def versions(client: AdtClient, kind: str, name: str) -> list[Version]:
    uri = object_uri(kind, name)
    response = await client.request("GET", f"{uri}/source/main/versions", accept="application/atom+xml;type=feed")
    return parse_versions(response.content, uri)


async def version_source(client: AdtClient, kind: str, name: str, version: str) -> str:
    """The source of one version: a version id from the feed, or the current active/inactive one."""
    if version in CURRENT:
        return await read_source(client, kind, name, version=version)
    known = await versions(client, kind, name)
    match = next((v for v in known if v.id == version or v.uri.rsplit("/", 1)[-1] == version), None)
    if match is None:
        listed = ", ".join(v.id for v in known[:10]) or "none"
        raise AdtError(
            f"{name.upper()} has no version {version!r}.",
            hint=f"Versions on the system: {listed}; or use active / inactive.",
        )
    return await client.get_text(match.uri)


def unified_diff(old: str, new: str, old_label: str, new_label: str, *, context: int = 3) -> str:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), fromfile=old_label, tofile=new_label, n=context, lineterm=""
    )
    return "\n".join(lines)
