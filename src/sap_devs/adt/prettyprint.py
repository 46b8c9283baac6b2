"""ABAP pretty printer with the system's own settings (indentation and keyword case).

Nothing is saved: the formatted text comes back, and write_source saves it if the user wants.
"""

from __future__ import annotations

from dataclasses import dataclass

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.core.xml import XmlError, parse_xml

SETTINGS = "/sap/bc/adt/abapsource/prettyprinter/settings"


@dataclass(frozen=True)
class Formatted:
    source: str
    indentation: bool | None  # None: the system did not say (older releases lack the settings resource)
    style: str | None


async def printer_settings(client: AdtClient) -> tuple[bool | None, str | None]:
    try:
        response = await client.request("GET", SETTINGS, accept="application/*, */*")
        root = parse_xml(response.content, source="pretty printer settings")
    except (AdtError, XmlError):
        return None, None
    attrs = {key.rsplit("}", 1)[-1]: value for key, value in root.attrib.items()}
    indent = attrs.get("indentation")
    return (indent.lower() == "true" if indent is not None else None), attrs.get("style")


async def pretty_print(client: AdtClient, source: str) -> Formatted:
    indentation, style = await printer_settings(client)
    response = await client.request(
        "POST",
        "/sap/bc/adt/abapsource/prettyprinter",
        content_type="text/plain; charset=utf-8",
        accept="text/plain",
        body=source,
    )
    return Formatted(response.text() or source, indentation, style)
