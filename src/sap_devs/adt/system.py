"""Facts about the connected ABAP system (the ADT system information feed)."""

from __future__ import annotations

from sap_devs.adt.client import AdtClient

ATOM = "{http://www.w3.org/2005/Atom}"


async def system_facts(client: AdtClient) -> dict[str, str]:
    """Entries such as SAPSystemID, KernelRelease, DBSystem, keyed by their id."""
    from sap_devs.core.xml import parse_xml

    response = await client.request("GET", "/sap/bc/adt/system/information", accept="application/atom+xml;type=feed")
    root = parse_xml(response.content, source="system information")
    return {
        (entry.findtext(f"{ATOM}id") or "").strip(): (entry.findtext(f"{ATOM}title") or "").strip()
        for entry in root.iter(f"{ATOM}entry")
    }
