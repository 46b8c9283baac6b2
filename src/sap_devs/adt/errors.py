"""ADT failures as messages a developer (or an agent) can act on."""

from __future__ import annotations

from sap_devs.core.errors import SapDevsError
from sap_devs.core.xml import XmlError, parse_xml

EXC_NS = "{http://www.sap.com/abapxml/types/communicationframework}"


class AdtError(SapDevsError):
    def __init__(self, message: str, *, type_id: str | None = None, status: int | None = None, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.type_id = type_id
        self.status = status


def exception_details(body: bytes) -> tuple[str | None, str | None]:
    """(type id, message) of an ADT ``exc:exception`` document, or (None, None)."""
    if b"exception" not in body[:400]:
        return None, None
    try:
        root = parse_xml(body, source="ADT error")
    except (XmlError, SapDevsError):
        return None, None
    if root.tag != f"{EXC_NS}exception":
        return None, None
    type_el = root.find("type")
    message = root.findtext("localizedMessage") or root.findtext("message")
    return (type_el.get("id") if type_el is not None else None), (message or "").strip() or None
