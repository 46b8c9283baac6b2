"""Version history of an object's source over ADT, and a unified diff of two versions.

The object's metadata links its version feed (``rel=".../relations/versions"``): a class through its
main include (``includes/main/versions``), other objects through their source
(``source/main/versions``), and the link is followed rather than guessed, as abap-adt-api does.
The feed is Atom: one entry per saved version with its author, time, title, the URL of that
version's source (``atom:content@src``) and the transport request it was recorded in (an
``atom:link`` with the transport relation, its number in ``adtcore:name`` or the href's end).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import ADTCORE, ATOM, read_metadata, read_source
from sap_devs.core.xml import parse_xml

TRANSPORT_REL = "http://www.sap.com/adt/relations/transport/request"
VERSIONS_REL = "http://www.sap.com/adt/relations/versions"
CLASS = "{http://www.sap.com/adt/oo/classes}"
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
                transport=(link.get(f"{ADTCORE}name") or link.get("href", "").rsplit("/", 1)[-1])
                if link is not None
                else None,
                transport_text=link.get("title") if link is not None else None,
            )
        )
    return found


def versions_link(xml: bytes, uri: str) -> str | None:
    """The path of the object's version feed as its metadata links it (a class: its main include's)."""
    root = parse_xml(xml, source=f"metadata of {uri}")
    holder = root
    if root.tag == f"{CLASS}abapClass":
        holder = next((i for i in root.iter(f"{CLASS}include") if i.get(f"{CLASS}includeType") == "main"), None)
    if holder is None:
        return None
    link = next((x for x in holder.findall(f"{ATOM}link") if x.get("rel") == VERSIONS_REL and x.get("href")), None)
    if link is None:
        return None
    href = link.get("href", "")
    path = href if href.startswith("/") else f"{uri}/{href.removeprefix('./')}"
    if not path.startswith("/sap/bc/adt/"):
        return None  # never anything but the system's own ADT paths
    return path


async def versions(client: AdtClient, kind: str, name: str) -> list[Version]:
    info, xml = await read_metadata(client, kind, name)
    path = versions_link(xml, info.uri)
    if path is None:
        raise AdtError(
            f"{info.name} has no version history on this system (its metadata links none).",
            hint="Objects that were never saved in a transportable way may have no versions.",
        )
    response = await client.request("GET", path, accept="application/atom+xml;type=feed")
    return parse_versions(response.content, info.uri)


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
