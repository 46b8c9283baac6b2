"""Syntax checks (also of unsaved source), activation, where-used and inactive objects over ADT."""

from __future__ import annotations

import base64
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.objects import ADTCORE, object_uri, parse_info
from sap_devs.adt.safety import PolicyError, SafetyPolicy
from sap_devs.core.xml import parse_xml

CHKRUN = "{http://www.sap.com/adt/checkrun}"
USAGE = "{http://www.sap.com/adt/ris/usageReferences}"
IOC = "{http://www.sap.com/abapxml/inactiveCtsObjects}"
_POSITION = re.compile(r"#start=(\d+),(\d+)")


@dataclass(frozen=True)
class Message:
    type: str  # E error, W warning, I info
    text: str
    line: int | None = None
    column: int | None = None
    code: str | None = None
    uri: str | None = None


def _position(uri: str | None) -> tuple[int | None, int | None]:
    match = _POSITION.search(uri or "")
    return (int(match.group(1)), int(match.group(2))) if match else (None, None)


async def syntax_check(
    client: AdtClient, kind: str, name: str, *, source: str | None = None, version: str = "active"
) -> list[Message]:
    """Check the saved object, or ``source`` as if it were saved (nothing is written).

    Without ``source``, the version checked is the one last saved: the inactive version when the
    object has one (what a write or a create just left), else the active one.
    """
    uri = object_uri(kind, name)
    if source is None and version == "active":
        from sap_devs.adt.objects import read_info

        if (await read_info(client, kind, name)).version == "inactive":
            version = "inactive"
    artifact = ""
    if source is not None:
        encoded = base64.b64encode(source.encode("utf-8")).decode()
        artifact = (
            f'<chkrun:artifacts><chkrun:artifact chkrun:contentType="text/plain; charset=utf-8" '
            f"chkrun:uri={quoteattr(uri + '/source/main')}><chkrun:content>{encoded}</chkrun:content>"
            "</chkrun:artifact></chkrun:artifacts>"
        )
        version = "inactive"
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><chkrun:checkObjectList xmlns:chkrun="http://www.sap.com/adt/checkrun" '
        f'xmlns:adtcore="http://www.sap.com/adt/core"><chkrun:checkObject adtcore:uri={quoteattr(uri)} '
        f'chkrun:version="{version}">{artifact}</chkrun:checkObject></chkrun:checkObjectList>'
    )
    response = await client.request(
        "POST",
        "/sap/bc/adt/checkruns",
        params={"reporters": "abapCheckRun"},
        content_type="application/vnd.sap.adt.checkobjects+xml",
        accept="application/vnd.sap.adt.checkmessages+xml",
        body=body,
    )
    root = parse_xml(response.content, source="check run result")
    messages = []
    for msg in root.iter(f"{CHKRUN}checkMessage"):
        where = msg.get(f"{CHKRUN}uri")
        line, column = _position(where)
        messages.append(
            Message(
                type=msg.get(f"{CHKRUN}type", "I"),
                text=msg.get(f"{CHKRUN}shortText", ""),
                line=line,
                column=column,
                code=msg.get(f"{CHKRUN}code"),
                uri=where,
            )
        )
    return messages


ERROR_TYPES = frozenset("EAX")  # error, abort, exit: each means the object was not activated
INACTIVE_TYPE = "application/vnd.sap.adt.inactivectsobjects.v1+xml"


@dataclass(frozen=True)
class InactiveRef:
    uri: str
    type: str
    name: str
    parent_uri: str | None = None


@dataclass
class Activation:
    """What an activation did: the system's messages, and the objects it says are still inactive
    (it names them instead of activating when they must be activated together)."""

    messages: list[Message]
    inactive: list[InactiveRef]

    @property
    def activated(self) -> bool:
        return not self.inactive and not any(m.type in ERROR_TYPES for m in self.messages)


def _references(refs: list[tuple[str, str]] | list[InactiveRef]) -> str:
    items = []
    for ref in refs:
        if isinstance(ref, InactiveRef):
            extra = f" adtcore:type={quoteattr(ref.type)}" if ref.type else ""
            extra += f" adtcore:parentUri={quoteattr(ref.parent_uri)}" if ref.parent_uri else ""
            items.append(
                f"<adtcore:objectReference adtcore:uri={quoteattr(ref.uri)}{extra} adtcore:name={quoteattr(ref.name)}/>"
            )
        else:
            uri, name = ref
            items.append(f"<adtcore:objectReference adtcore:uri={quoteattr(uri)} adtcore:name={quoteattr(name)}/>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences xmlns:adtcore="http://www.sap.com/adt/core">'
        + "".join(items)
        + "</adtcore:objectReferences>"
    )


def parse_inactive(xml: bytes) -> list[InactiveRef]:
    """The objects of an inactive-objects list (not its transports, not objects marked deleted)."""
    root = parse_xml(xml, source="inactive objects")
    out = []
    for entry in root.iter(f"{IOC}entry"):
        obj = entry.find(f"{IOC}object")
        ref = obj.find(f"{IOC}ref") if obj is not None else None
        if ref is None or obj.get(f"{IOC}deleted") == "true":
            continue
        out.append(
            InactiveRef(
                uri=ref.get(f"{ADTCORE}uri", ""),
                type=ref.get(f"{ADTCORE}type", ""),
                name=ref.get(f"{ADTCORE}name", ""),
                parent_uri=ref.get(f"{ADTCORE}parentUri"),
            )
        )
    return out


def _messages(xml: bytes) -> list[Message]:
    root = parse_xml(xml, source="activation result")
    out = []
    for msg in root.iter("msg"):
        line, column = _position(msg.get("href"))
        text = " ".join("".join(msg.find("shortText").itertext()).split()) if msg.find("shortText") is not None else ""
        out.append(
            Message(
                type=msg.get("type", "I"),
                text=f"{msg.get('objDescr', '')}: {text}".strip(": "),
                line=line,
                column=column,
                uri=msg.get("href"),
            )
        )
    return out


async def _post_activation(client: AdtClient, body: str, *, preaudit: bool) -> Activation:
    response = await client.request(
        "POST",
        "/sap/bc/adt/activation",
        params={"method": "activate", "preauditRequested": "true" if preaudit else "false"},
        content_type="application/xml",
        accept=f"application/xml, {INACTIVE_TYPE}",
        body=body,
    )
    if not response.content.strip():
        return Activation([], [])
    if INACTIVE_TYPE in response.headers.get("content-type", "") or b"inactiveCtsObjects" in response.content:
        return Activation([], parse_inactive(response.content))
    return Activation(_messages(response.content), [])


TogetherCheck = Callable[[list[InactiveRef]], Awaitable[str | None]]
_TOGETHER_MAX = 50  # objects a system may ask to activate along: one metadata read each
_NAMES_SHOWN = 10


def _names(refs: list[InactiveRef]) -> str:
    names = sorted({r.name for r in refs})
    more = f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else ""
    return ", ".join(names[:_NAMES_SHOWN]) + more


async def activation(
    client: AdtClient, refs: list[tuple[str, str]], *, together: TogetherCheck | None = None
) -> Activation:
    """Activate (uri, name) objects together.

    A system can answer with the inactive objects that must be activated along with these instead of
    activating anything. As sapcli does, they are then activated in a second request, but only when
    ``together`` (which sees the list) returns None; otherwise, or without ``together``, the result
    names them as still inactive, with ``together``'s reason as a message.
    """
    result = await _post_activation(client, _references(refs), preaudit=True)
    if not result.inactive:
        return result
    refused = await together(result.inactive) if together is not None else "activate them together"
    if refused is not None:
        names = _names(result.inactive)
        result.messages.append(
            Message(type="E", text=f"Not activated: the system asks to activate {names} together ({refused}).")
        )
        return result
    second = await _post_activation(client, _references(result.inactive), preaudit=False)
    if second.inactive:
        names = _names(second.inactive)
        second.messages.append(Message(type="E", text=f"Still inactive after activating together: {names}."))
    return second


def within_policy(client: AdtClient, policy: SafetyPolicy, requested: list[tuple[str, str]]) -> TogetherCheck:
    """A ``together`` check: the listed objects may be activated when each is a part of a requested
    object or lies in a package the policy lets this call change (activating is a change too)."""
    asked = {uri.lower() for uri, _ in requested}

    async def check(listed: list[InactiveRef]) -> str | None:
        for ref in listed[:_TOGETHER_MAX]:
            path = (ref.parent_uri or ref.uri).split("?", 1)[0].split("#", 1)[0]
            main = path.lower()
            if main in asked or any(main.startswith(a + "/") for a in asked):
                continue
            if not main.startswith("/sap/bc/adt/"):
                return f"{ref.name}: {path} is not an ADT object"
            response = await client.request("GET", path, accept="*/*")
            info = parse_info(response.content, path)
            try:
                policy.check_write(info.package, info.name)
            except PolicyError as exc:
                return f"{info.name}: {exc.message}"
        if len(listed) > _TOGETHER_MAX:
            return f"the system lists {len(listed)} objects; sap-devs activates at most {_TOGETHER_MAX} together"
        return None

    return check


async def activate(client: AdtClient, refs: list[tuple[str, str]]) -> list[Message]:
    """Activate (uri, name) objects together; the system's messages, with an error (type E) for each
    object left inactive, so a caller that checks for errors never reports a failed activation as done."""
    return (await activation(client, refs)).messages


async def where_used(client: AdtClient, uri: str) -> list[dict[str, Any]]:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><usagereferences:usageReferenceRequest '
        'xmlns:usagereferences="http://www.sap.com/adt/ris/usageReferences"><usagereferences:affectedObjects/>'
        "</usagereferences:usageReferenceRequest>"
    )
    response = await client.request(
        "POST",
        "/sap/bc/adt/repository/informationsystem/usageReferences",
        params={"uri": uri},
        content_type="application/vnd.sap.adt.repository.usagereferences.request.v1+xml",
        accept="application/vnd.sap.adt.repository.usagereferences.result.v1+xml",
        body=body,
    )
    root = parse_xml(response.content, source="where-used result")
    found = []
    for ref in root.iter(f"{USAGE}referencedObject"):
        obj = ref.find(f"{USAGE}adtObject")
        if obj is None:
            continue
        package = obj.find(f"{ADTCORE}packageRef")
        found.append(
            {
                "name": obj.get(f"{ADTCORE}name", ""),
                "type": obj.get(f"{ADTCORE}type", ""),
                "uri": ref.get("uri", ""),
                "package": package.get(f"{ADTCORE}name") if package is not None else None,
                "usage": ref.get("usageInformation"),
            }
        )
    return found


async def inactive_objects(client: AdtClient) -> list[dict[str, Any]]:
    response = await client.request(
        "GET",
        "/sap/bc/adt/activation/inactiveobjects",
        accept="application/vnd.sap.adt.inactivectsobjects.v1+xml, application/xml;q=0.8",
    )
    root = parse_xml(response.content, source="inactive objects")
    out = []
    for entry in root.iter(f"{IOC}entry"):
        ref = entry.find(f"{IOC}object/{IOC}ref")
        if ref is None:
            continue
        transport = entry.find(f"{IOC}transport/{IOC}ref")
        out.append(
            {
                "name": ref.get(f"{ADTCORE}name", ""),
                "type": ref.get(f"{ADTCORE}type", ""),
                "uri": ref.get(f"{ADTCORE}uri", ""),
                "transport": transport.get(f"{ADTCORE}name") if transport is not None else None,
            }
        )
    return out
