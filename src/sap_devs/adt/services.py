"""Publishing a RAP service binding over ADT (and taking it back).

POST /sap/bc/adt/businessservices/{odatav2|odatav4}/{publishjobs|unpublishjobs} with an
``adtcore:objectReferences`` body naming the bound service (OData V4: type SCGR, the service
group; OData V2: the service, with servicename and serviceversion as parameters) answers an
``asx:abap`` DATA record with SEVERITY (OK, ERROR ...), SHORT_TEXT and LONG_TEXT, as sapcli
does it. The binding's package is checked against the safety policy first: publishing changes
the system.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError
from sap_devs.adt.objects import read_metadata
from sap_devs.adt.safety import SafetyPolicy
from sap_devs.core.xml import parse_xml

SRVB = "{http://www.sap.com/adt/ddic/ServiceBindings}"
STATUS_ACCEPT = "application/xml, application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.StatusMessage"


@dataclass
class PublishResult:
    binding: str
    service: str
    version: str | None
    severity: str
    text: str
    long_text: str


async def publish(client: AdtClient, policy: SafetyPolicy, name: str, *, unpublish: bool = False) -> PublishResult:
    info, body = await read_metadata(client, "service_binding", name)
    policy.check_write(info.package, info.name)
    root = parse_xml(body, source="service binding")
    binding = root.find(f"{SRVB}binding")
    kind = f"{binding.get(f'{SRVB}type', '')}{binding.get(f'{SRVB}version', '')}".lower() if binding is not None else ""
    service = root.find(f"{SRVB}services")
    if service is None or kind not in ("odatav2", "odatav4"):
        raise AdtError(f"{info.name} binds no OData V2 or V4 service sap-devs can publish.")
    content = service.find(f"{SRVB}content")
    service_name = service.get(f"{SRVB}name", "")
    version = content.get(f"{SRVB}version") if content is not None else None
    params = None
    if kind == "odatav4":
        ref = f'<adtcore:objectReference adtcore:type="SCGR" adtcore:name={quoteattr(service_name)}/>'
    else:
        ref = f"<adtcore:objectReference adtcore:name={quoteattr(service_name)}/>"
        params = {"servicename": info.name, "serviceversion": version or "0001"}
    request = (
        '<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences xmlns:adtcore="http://www.sap.com/adt/core">'
        f"{ref}</adtcore:objectReferences>"
    )
    job = "unpublishjobs" if unpublish else "publishjobs"
    response = await client.request(
        "POST",
        f"/sap/bc/adt/businessservices/{kind}/{job}",
        params=params,
        content_type="application/xml",
        accept=STATUS_ACCEPT,
        body=request,
    )
    status = parse_xml(response.content, source="publish status")
    return PublishResult(
        binding=info.name,
        service=service_name,
        version=version,
        severity=(status.findtext(".//SEVERITY") or "").strip(),
        text=(status.findtext(".//SHORT_TEXT") or "").strip(),
        long_text=(status.findtext(".//LONG_TEXT") or "").strip(),
    )


BINDINGS = {
    # binding: (OData version, category: 0 UI, 1 Web API)
    "odata_v4_ui": ("V4", "0"),
    "odata_v4_web_api": ("V4", "1"),
    "odata_v2_ui": ("V2", "0"),
    "odata_v2_web_api": ("V2", "1"),
}
SRVB_TYPE = "application/vnd.sap.adt.businessservices.servicebinding.v2+xml"


async def create_binding(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    *,
    package: str,
    description: str,
    service_definition: str,
    binding: str,
    transport: str | None = None,
) -> str:
    """Create a service binding for a service definition (the shape sapcli sends); returns its URI."""
    from sap_devs.adt.objects import object_uri
    from sap_devs.adt.write import check_new_object, post_new

    check_new_object(policy, name, package, transport)
    version, category = BINDINGS[binding]
    upper = name.upper()
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><srvb:serviceBinding '
        'xmlns:srvb="http://www.sap.com/adt/ddic/ServiceBindings" xmlns:adtcore="http://www.sap.com/adt/core" '
        f'adtcore:type="SRVB/SVB" adtcore:description={quoteattr(description[:60])} adtcore:language="EN" '
        f'adtcore:name={quoteattr(upper)} adtcore:masterLanguage="EN">'
        f"<adtcore:packageRef adtcore:name={quoteattr(package.upper())}/>"
        f'<srvb:services srvb:name={quoteattr(upper)}><srvb:content srvb:version="0001" '
        'srvb:releaseState="NOT_RELEASED"><srvb:serviceDefinition adtcore:type="SRVD/SRV" '
        f"adtcore:name={quoteattr(service_definition.upper())}/></srvb:content></srvb:services>"
        f'<srvb:binding srvb:type="ODATA" srvb:version="{version}" srvb:category="{category}">'
        '<srvb:implementation adtcore:name=""/></srvb:binding></srvb:serviceBinding>'
    )
    await post_new(client, "/sap/bc/adt/businessservices/bindings", body, content_type=SRVB_TYPE, transport=transport)
    return object_uri("service_binding", name)
