"""Creating function groups and function modules (reading and writing go through objects and write).

Shapes as ADT expects them: a function group is posted to /functions/groups with its package; a
function module to its group's fmodules collection with a containerRef naming the group, and is
recorded on the transport of the group's package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import KINDS, encode_name, object_uri, read_info
from sap_devs.adt.safety import PolicyError, SafetyPolicy
from sap_devs.adt.write import allowed_package, check_new_name, check_new_object, post_new
from sap_devs.core.xml import parse_xml

GROUP_TYPE = "application/vnd.sap.adt.functions.groups.v3+xml"
MODULE_TYPE = "application/vnd.sap.adt.functions.fmodules+xml"
GROUP_MAX = 26  # SAPL<group> must stay within 30 characters
ADTCORE = "{http://www.sap.com/adt/core}"
_MODULE_URI = re.compile(r"^/sap/bc/adt/functions/groups/([^/?#]+)/fmodules/([^/?#]+)$", re.I)


@dataclass(frozen=True)
class Created:
    name: str
    uri: str
    package: str
    transport: str | None


async def create_function_group(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    *,
    package: str,
    description: str,
    transport: str | None = None,
) -> Created:
    if len(name.strip().split("/")[-1]) > GROUP_MAX:
        raise PolicyError(f"{name!r} is too long for a function group (at most {GROUP_MAX} characters).")
    check_new_object(policy, name, package, transport)
    upper = name.strip().upper()
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><group:abapFunctionGroup '
        'xmlns:group="http://www.sap.com/adt/functions/groups" xmlns:adtcore="http://www.sap.com/adt/core" '
        f'adtcore:name={quoteattr(upper)} adtcore:type="FUGR/F" adtcore:description={quoteattr(description[:60])} '
        f'adtcore:language="EN" adtcore:masterLanguage="EN"{_responsible(client)}>'
        f"<adtcore:packageRef adtcore:name={quoteattr(package.upper())}/></group:abapFunctionGroup>"
    )
    await post_new(client, KINDS["function_group"].collection, body, content_type=GROUP_TYPE, transport=transport)
    return Created(upper, object_uri("function_group", upper), package.upper(), transport)


async def create_function_module(
    client: AdtClient,
    policy: SafetyPolicy,
    group: str,
    name: str,
    *,
    description: str,
    transport: str | None = None,
) -> Created:
    """A new, empty function module in an existing function group of an allowed package."""
    check_new_name(name)
    info = await read_info(client, "function_group", group)
    package = allowed_package(policy, info, transport)
    group_uri = object_uri("function_group", group)
    upper = name.strip().upper()
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><fmodule:abapFunctionModule '
        'xmlns:fmodule="http://www.sap.com/adt/functions/fmodules" xmlns:adtcore="http://www.sap.com/adt/core" '
        f'adtcore:name={quoteattr(upper)} adtcore:type="FUGR/FF" adtcore:description={quoteattr(description[:60])}>'
        f'<adtcore:containerRef adtcore:name={quoteattr(info.name)} adtcore:type="FUGR/F" '
        f"adtcore:uri={quoteattr(group_uri)}/></fmodule:abapFunctionModule>"
    )
    await post_new(client, f"{group_uri}/fmodules", body, content_type=MODULE_TYPE, transport=transport)
    return Created(upper, f"{group_uri}/fmodules/{encode_name(upper)}", package, transport)


async def function_group_of(client: AdtClient, name: str) -> str:
    """The function group a function module belongs to. Module names are unique in a system, so the
    repository search (main type only, as abap-adt-api sends it) finds its one URI, which names the group.
    The URI is matched, not the name: older systems answer names such as ``Z_X (FUNCTION MODULE)``."""
    wanted = name.strip().upper()
    response = await client.request(
        "GET",
        "/sap/bc/adt/repository/informationsystem/search",
        params={"operation": "quickSearch", "query": wanted, "maxResults": "50", "objectType": "FUGR"},
        accept="application/xml",
    )
    for ref in parse_xml(response.content, source="search result").iter(f"{ADTCORE}objectReference"):
        match = _MODULE_URI.match(ref.get(f"{ADTCORE}uri", ""))
        if match and unquote(match.group(2)).upper() == wanted:
            return unquote(match.group(1)).upper()
    raise AdtError(
        f"There is no function module {wanted} on the system.",
        hint="Check the name with search_objects (object_type FUGR/FF).",
    )


def _responsible(client: AdtClient) -> str:
    """The logged-on user as the new object's person responsible, as both reference clients send it."""
    user = (client.config.user or "").upper()
    return f" adtcore:responsible={quoteattr(user)}" if user else ""
