"""Creating message classes (MSAG) and their messages over ADT, in the shapes sapcli sends
(sap/adt/messageclass.py).

A message class is created empty (POST /sap/bc/adt/messageclass). Its messages are written with one
PUT of the whole class, for which ADT wants two kinds of lock in one stateful session: each message
is locked on its own (``_action=LOCK_MSG`` on ``.../messages/{number}``) and its lock handle goes into
that message's element, then the class is locked naming the last message (``msgNo``, ``onSave=X``).
The class lock is given back first, then all message locks at once (``_action=UNLOCK_ALL`` with the
numbers as ``[001, 002]``). Messages need no activation.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import KINDS, object_uri, read_info
from sap_devs.adt.safety import SafetyPolicy
from sap_devs.adt.write import WriteReport, allowed_package, check_new_object, holding_lock, lock_data, post_new

MSAG_TYPE = "application/vnd.sap.adt.mc.messageclass+xml"
# a message's own lock, as sapcli asks for it (sap/adt/objects.py adt_object_lock with LOCK_MSG)
MESSAGE_LOCK_ACCEPT = "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.StatusMessage"
MAX_NAME = 20  # the message class field (ARBGB) is 20 characters long
MAX_TEXT = 73  # and a message's short text (T100-TEXT) 73
_NS = 'xmlns:mc="http://www.sap.com/adt/MessageClass" xmlns:adtcore="http://www.sap.com/adt/core"'


@dataclass(frozen=True)
class MessageText:
    number: str  # three digits, 000-999
    text: str


def _document(name: str, description: str, package: str, messages: list[tuple[MessageText, str]]) -> str:
    """The class as ADT takes it on create (no messages) and on PUT (each message with its lock handle)."""
    entries = "".join(
        f"<mc:messages mc:msgno={quoteattr(m.number)} mc:msgtext={quoteattr(m.text)} "
        f'mc:selfexplainatory="true" mc:lockhandle={quoteattr(handle)}/>'
        for m, handle in messages
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><mc:messageClass {_NS} adtcore:type="MSAG/N" '
        f'adtcore:description={quoteattr(description[:60])} adtcore:language="EN" adtcore:name={quoteattr(name)} '
        f'adtcore:masterLanguage="EN"><adtcore:packageRef adtcore:name={quoteattr(package)}/>{entries}'
        "</mc:messageClass>"
    )


def check_messages(name: str, messages: list[MessageText]) -> None:
    if len(name) > MAX_NAME:
        raise AdtError(
            f"{name!r} is too long for a message class.",
            hint=f"Message class names have at most {MAX_NAME} characters.",
        )
    numbers = [m.number for m in messages]
    bad = [n for n in numbers if not (len(n) == 3 and n.isdigit())]
    if bad:
        raise AdtError(f"Message numbers are three digits (000-999); got {', '.join(bad)}.")
    doubled = sorted({n for n in numbers if numbers.count(n) > 1})
    if doubled:
        raise AdtError(f"Message number {', '.join(doubled)} is given twice.", hint="Give each number once.")
    long = [m.number for m in messages if len(m.text) > MAX_TEXT]
    if long:
        raise AdtError(
            f"Message {', '.join(long)} is longer than {MAX_TEXT} characters.",
            hint="Shorten the text; placeholders are & or &1 to &4.",
        )


async def create_message_class(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    messages: list[MessageText],
    *,
    package: str,
    description: str,
    transport: str | None = None,
) -> WriteReport:
    """Create the class, then write its messages under the locks, all in one call."""
    upper, pkg = name.upper(), package.upper()
    check_new_object(policy, upper, pkg, transport)
    check_messages(upper, messages)
    shell = _document(upper, description, pkg, [])
    await post_new(client, KINDS["message_class"].collection, shell, content_type=MSAG_TYPE, transport=transport)
    report = WriteReport(upper, object_uri("message_class", upper), pkg, transport, 0, len(messages), unlocked=True)
    if messages:
        try:
            report.unlocked = await write_messages(client, policy, upper, messages, transport=transport)
        except AdtError as exc:
            raise AdtError(
                f"{upper} was created in {pkg}, but its messages were not written: {exc.message}",
                type_id=exc.type_id,
                status=exc.status,
                hint=exc.hint or "Check the message class in ADT or SE91 and add the messages there.",
            ) from None
    return report


async def write_messages(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    messages: list[MessageText],
    *,
    transport: str | None = None,
) -> bool:
    """Write the messages into an existing class; True when every lock was given back."""
    uri = object_uri("message_class", name)
    info = await read_info(client, "message_class", name)
    checked = allowed_package(policy, info, transport)
    locked: list[tuple[MessageText, str]] = []
    unlocked = True
    async with client.stateful():
        try:
            for message in messages:
                answer = await client.request(
                    "POST",
                    f"{uri}/messages/{message.number}",
                    params={"_action": "LOCK_MSG", "accessMode": "MODIFY"},
                    accept=MESSAGE_LOCK_ACCEPT,
                    content_type="text/plain",
                )
                locked.append((message, lock_data(answer.content)[0]))
            last = {"msgNo": messages[-1].number, "onSave": "X"}
            async with holding_lock(
                client, policy, info, checked, kind="message_class", uri=uri, transport=transport, lock_params=last
            ) as held:
                body = _document(info.name, info.description or "", held.package, locked)
                await client.request(
                    "PUT", uri, params=held.params, content_type=MSAG_TYPE, body=body, accept=MSAG_TYPE
                )
            unlocked = held.unlocked
        finally:
            if locked:
                unlocked = await _unlock_messages(client, uri, [m.number for m, _ in locked]) and unlocked
    return unlocked


async def _unlock_messages(client: AdtClient, uri: str, numbers: list[str]) -> bool:
    try:
        await client.request(
            "POST",
            f"{uri}/messages/{numbers[-1]}",
            params={"_action": "UNLOCK_ALL"},
            content_type="text/plain",
            body="[" + ", ".join(numbers) + "]",
            accept="*/*",
        )
    except AdtError:
        return False  # the locks end with the session on the server; the caller reports it
    return True
