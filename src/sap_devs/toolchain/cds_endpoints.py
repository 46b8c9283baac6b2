"""The HTTP paths CAP serves a service at, computed from its compiled definition.

The rules are those of ``@sap/cds`` 10 (``lib/srv/protocols``): ``@protocol`` names the protocols
(``'none'`` serves nothing); without it every ``@odata``/``@rest``/``@hcql``/``@protocol.<kind>``
annotation adds one (its string value is the path); with none of them the service is served over
OData V4. A path not starting with ``/`` is put under the protocol's prefix (``/odata/v4``,
``/odata/v2``, ``/rest``, ``/hcql``); without a path the service's ``@path`` is used, else its name's
last segment without the ``Service`` suffix in kebab-case (``CatalogService`` -> ``catalog``). A project
may add protocols or move their prefixes in ``cds.protocols``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

BUILTIN_PROTOCOLS: dict[str, str] = {
    "odata-v4": "/odata/v4",
    "odata-v2": "/odata/v2",
    "odata": "/odata/v4",
    "rest": "/rest",
    "hcql": "/hcql",
}
DEFAULT_PROTOCOL = "odata"
ODATA_KINDS = frozenset({"odata", "odata-v4", "odata-v2"})


@dataclass(frozen=True)
class Endpoint:
    protocol: str
    path: str


def _canonic_path(path: str) -> str:
    if not path.startswith("/"):
        path = "/" + path
    return path[:-1] if path.endswith("/") else path


def protocols(conf: dict[str, Any] | None) -> dict[str, str | None]:
    """Protocol kind -> path prefix (None: a pseudo-protocol not served over HTTP), with the project's
    ``cds.protocols`` merged over the built-in ones."""
    table: dict[str, str | None] = dict(BUILTIN_PROTOCOLS)
    own = (conf or {}).get("protocols")
    if isinstance(own, dict):
        for kind, value in own.items():
            if isinstance(value, str):
                table[kind] = _canonic_path(value)
            elif isinstance(value, dict):
                path = value.get("path", table.get(kind))
                table[kind] = _canonic_path(path) if isinstance(path, str) and path else None
        if "odata" not in own:
            table["odata"] = table["odata-v4"]
    return table


def slugified(name: str) -> str:
    """``my.very.CatalogService`` -> ``catalog``; ``ODataFooBarX9Service`` -> ``odata-foo-bar-x9``."""
    last = name.rsplit(".", 1)[-1]
    last = re.sub(r"Service$", "", last).replace("_", "-")
    last = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", last)
    return last.lower()


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("="), str):
        return value["="]
    return None


def endpoints(name: str, definition: dict[str, Any], table: dict[str, str | None]) -> list[Endpoint]:
    """Where CAP serves the service ``name`` (its CSN ``definition``), in the order CAP mounts them."""
    if definition.get("kind") != "service":
        return []
    wanted: list[tuple[Any, str | None]] = []  # (kind, path) before canonicalisation
    annotated = definition.get("@protocol")
    if annotated:
        if annotated == "none" or (isinstance(annotated, dict) and annotated.get("=") == "none"):
            return []
        for each in annotated if isinstance(annotated, list) else [annotated]:
            if isinstance(each, dict):
                kind = each.get("kind") or each.get("=")
                wanted.append((kind, _text(each.get("path"))))
            else:
                wanted.append((each, None))
    else:
        for kind in table:
            value = definition.get(f"@{kind}") or definition.get(f"@protocol.{kind}")
            if value:
                wanted.append((kind, value if isinstance(value, str) else None))
    if not wanted:
        wanted.append((DEFAULT_PROTOCOL, None))
    found: list[Endpoint] = []
    for kind, path in wanted:
        if not isinstance(kind, str) or kind not in table:
            continue  # CAP logs "ignoring unknown protocol" and serves the others
        prefix = table[kind]
        if prefix is None:
            continue
        path = path or _text(definition.get("@path")) or slugified(name)
        if not path.startswith("/"):
            path = f"{prefix}/{path}"
        found.append(Endpoint(protocol=kind, path=path))
    return found


RESOURCE_PROTOCOLS = ODATA_KINDS | {"rest"}


def entity_url(endpoint: Endpoint, local_name: str) -> str | None:
    """The collection URL of an entity ``local_name`` (its name inside the service) at ``endpoint``;
    OData names nested entities (``Books.texts``) with underscores. None for protocols without
    resource URLs (hcql takes queries) and for the project's own protocols."""
    if endpoint.protocol not in RESOURCE_PROTOCOLS:
        return None
    segment = local_name.replace(".", "_") if endpoint.protocol in ODATA_KINDS else local_name
    return f"{endpoint.path}/{segment}"
