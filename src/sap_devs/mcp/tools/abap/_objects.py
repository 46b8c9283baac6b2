"""The object selection shared by the ABAP quality tools: a list of objects, or one package."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import ToolError
from sap_devs.mcp.tools.abap._shared import Kind, name_field


class ObjectRef(BaseModel):
    name: str = name_field("Object name", "ZCL_SALES_ORDER")
    kind: Kind


class Selected(Protocol):
    name: str
    kind: str


def objects_field(what: str) -> Any:
    return Field(None, min_length=1, max_length=50, description=f"Objects to {what}.")


def package_field(what: str) -> Any:
    return Field(
        None,
        max_length=30,
        pattern=r"^[A-Za-z0-9_/$]+$",
        description=f"Or a package to {what}, with sub-packages.",
    )


def selected_uris(objects: Sequence[Selected] | None, package: str | None) -> tuple[list[str], list[str]]:
    """(ADT URIs, display names) of exactly one of objects or package."""
    from sap_devs.adt.objects import object_uri

    if bool(objects) == bool(package):
        raise ToolError("Give either objects or package, not both and not neither.")
    if package:
        return [object_uri("package", package)], [package.upper()]
    refs = objects or []
    return [object_uri(o.kind, o.name) for o in refs], [o.name.upper() for o in refs]
