"""Running a console class (IF_OO_ADT_CLASSRUN): what ABAP Cloud developers use to try code.

This executes code on the system, so it needs its own opt-in (SafetyPolicy.execute) on top of
writes, and the class must sit in an allowed package.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import read_info
from sap_devs.adt.safety import SafetyPolicy

MAX_OUTPUT = 200_000  # characters of console output kept; a runaway loop must not flood the agent


@dataclass(frozen=True)
class ClassRun:
    name: str
    package: str | None
    output: str
    truncated: bool


async def run_console_class(client: AdtClient, policy: SafetyPolicy, name: str) -> ClassRun:
    policy.check_execute_on(name.upper())  # switched off: not even the class's metadata is read
    info = await read_info(client, "class", name)
    policy.check_execute(info.package, info.name)
    path = f"/sap/bc/adt/oo/classrun/{quote(info.name.upper(), safe='')}"
    try:
        response = await client.request("POST", path, accept="text/plain, */*")
    except AdtError as exc:
        raise AdtError(
            f"Running {info.name} failed: {exc.message}",
            type_id=exc.type_id,
            status=exc.status,
            hint="The class must be active and implement IF_OO_ADT_CLASSRUN (method if_oo_adt_classrun~main).",
        ) from None
    text = response.text()
    return ClassRun(info.name, info.package, text[:MAX_OUTPUT], len(text) > MAX_OUTPUT)
