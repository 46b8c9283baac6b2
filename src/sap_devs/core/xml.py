"""XML parsing with document type declarations refused: no entity expansion, no external entities.

Feeds, Atom and ADT responses never need a DTD, so any document that declares one (the vehicle
of "billion laughs" and external-entity attacks) is rejected before it is parsed into a tree.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.parsers import expat

from sap_devs.core.errors import SapDevsError


class UnsafeXmlError(SapDevsError):
    pass


class XmlError(SapDevsError):
    pass


def _refuse(*_args: object) -> None:
    raise UnsafeXmlError("XML with a document type declaration or entities is refused")


def parse_xml(data: bytes | str, *, source: str = "response") -> ET.Element:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    guard = expat.ParserCreate()
    guard.StartDoctypeDeclHandler = _refuse
    guard.EntityDeclHandler = _refuse
    guard.ExternalEntityRefHandler = _refuse  # type: ignore[assignment]
    try:
        guard.Parse(raw, True)
    except expat.ExpatError as exc:
        raise XmlError(f"{source} is not well-formed XML ({expat.ErrorString(exc.code)}, line {exc.lineno})") from None
    except UnsafeXmlError as exc:
        raise UnsafeXmlError(f"{source}: {exc.message}") from None
    return ET.fromstring(raw)
