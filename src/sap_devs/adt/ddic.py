"""Creating DDIC data elements over ADT, in the shapes sapcli sends (sap/adt/dataelement.py).

A data element is created with an empty definition (POST /sap/bc/adt/ddic/dataelements), then its
definition (type and field labels, ``blue:wbobj`` / ``dtel:dataElement``) is written under a lock
(PUT of the object URI) and it is activated.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from sap_devs.adt.client import AdtClient
from sap_devs.adt.objects import object_uri
from sap_devs.adt.safety import SafetyPolicy
from sap_devs.adt.write import WriteReport, check_new_object, post_new, write_metadata

DTEL_TYPE = "application/vnd.sap.adt.dataelements.v2+xml"
_NS = (
    'xmlns:blue="http://www.sap.com/wbobj/dictionary/dtel" xmlns:adtcore="http://www.sap.com/adt/core" '
    'xmlns:dtel="http://www.sap.com/adt/dictionary/dataelements"'
)
_FIELDS = [
    "typeKind",
    "typeName",
    "dataType",
    "dataTypeLength",
    "dataTypeDecimals",
    "shortFieldLabel",
    "shortFieldLength",
    "shortFieldMaxLength",
    "mediumFieldLabel",
    "mediumFieldLength",
    "mediumFieldMaxLength",
    "longFieldLabel",
    "longFieldLength",
    "longFieldMaxLength",
    "headingFieldLabel",
    "headingFieldLength",
    "headingFieldMaxLength",
    "searchHelp",
    "searchHelpParameter",
    "setGetParameter",
    "defaultComponentName",
    "deactivateInputHistory",
    "changeDocument",
    "leftToRightDirection",
    "deactivateBIDIFiltering",
]


@dataclass
class DataElementSpec:
    domain: str | None = None
    data_type: str | None = None  # a predefined ABAP type such as CHAR, NUMC, DEC, STRING
    length: int = 0
    decimals: int = 0
    short_label: str = ""
    medium_label: str = ""
    long_label: str = ""
    heading: str = ""


def _element(name: str, description: str, package: str, values: dict[str, str], version: str) -> str:
    fields = "".join(f"<dtel:{f}>{escape(values[f])}</dtel:{f}>" if values.get(f) else f"<dtel:{f}/>" for f in _FIELDS)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><blue:wbobj {_NS} adtcore:type="DTEL/DE" '
        f'adtcore:description={quoteattr(description[:60])} adtcore:language="EN" adtcore:name={quoteattr(name)} '
        f'adtcore:masterLanguage="EN" adtcore:version="{version}"><adtcore:packageRef adtcore:name={quoteattr(package)}/>'
        f"<dtel:dataElement>{fields}</dtel:dataElement></blue:wbobj>"
    )


def definition_values(spec: DataElementSpec) -> dict[str, str]:
    values = {
        "shortFieldLabel": spec.short_label[:10],
        "shortFieldLength": "10",
        "shortFieldMaxLength": "10",
        "mediumFieldLabel": spec.medium_label[:20],
        "mediumFieldLength": "20",
        "mediumFieldMaxLength": "20",
        "longFieldLabel": spec.long_label[:40],
        "longFieldLength": "40",
        "longFieldMaxLength": "40",
        "headingFieldLabel": spec.heading[:55],
        "headingFieldLength": "55",
        "headingFieldMaxLength": "55",
        "deactivateInputHistory": "false",
        "changeDocument": "false",
        "leftToRightDirection": "false",
        "deactivateBIDIFiltering": "false",
    }
    if spec.domain:
        values.update(typeKind="domain", typeName=spec.domain.upper())
    else:
        values.update(
            typeKind="predefinedAbapType",
            dataType=(spec.data_type or "").upper(),
            dataTypeLength=f"{spec.length:06d}",
            dataTypeDecimals=f"{spec.decimals:06d}",
        )
    return values


async def create_data_element(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    spec: DataElementSpec,
    *,
    package: str,
    description: str,
    transport: str | None = None,
) -> WriteReport:
    check_new_object(policy, name, package, transport)
    upper, pkg = name.upper(), package.upper()
    shell = _element(upper, description, pkg, {}, "inactive")
    await post_new(client, "/sap/bc/adt/ddic/dataelements", shell, content_type=DTEL_TYPE, transport=transport)
    body = _element(upper, description, pkg, definition_values(spec), "inactive")
    report = await write_metadata(
        client, policy, "data_element", upper, body, content_type=DTEL_TYPE, transport=transport
    )
    report.uri = object_uri("data_element", upper)
    return report


DOMA_TYPE = "application/vnd.sap.adt.domains.v2+xml"


@dataclass
class DomainSpec:
    data_type: str
    length: int
    decimals: int = 0
    lowercase: bool = False
    fixed_values: list[tuple[str, str]] | None = None  # (value, text)


def _domain(name: str, description: str, package: str, spec: DomainSpec | None) -> str:
    content = ""
    if spec is not None:
        fixed = "".join(
            f"<doma:fixValue><doma:position>{i:04d}</doma:position><doma:low>{escape(low)}</doma:low><doma:high/>"
            f"<doma:text>{escape(text[:60])}</doma:text></doma:fixValue>"
            for i, (low, text) in enumerate(spec.fixed_values or [], start=1)
        )
        content = (
            f"<doma:content><doma:typeInformation><doma:datatype>{escape(spec.data_type.upper())}</doma:datatype>"
            f"<doma:length>{spec.length:06d}</doma:length><doma:decimals>{spec.decimals:06d}</doma:decimals>"
            f"</doma:typeInformation><doma:outputInformation><doma:length>{spec.length:06d}</doma:length>"
            "<doma:style>00</doma:style><doma:conversionExit/><doma:signExists>false</doma:signExists>"
            f"<doma:lowercase>{str(spec.lowercase).lower()}</doma:lowercase><doma:ampmFormat>false</doma:ampmFormat>"
            "</doma:outputInformation><doma:valueInformation><doma:appendExists>false</doma:appendExists>"
            f"<doma:fixValues>{fixed}</doma:fixValues></doma:valueInformation></doma:content>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><doma:domain xmlns:doma="http://www.sap.com/dictionary/domain" '
        f'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:type="DOMA/DD" adtcore:description={quoteattr(description[:60])} '
        f'adtcore:language="EN" adtcore:name={quoteattr(name)} adtcore:masterLanguage="EN">'
        f"<adtcore:packageRef adtcore:name={quoteattr(package)}/>{content}</doma:domain>"
    )


async def create_domain(
    client: AdtClient,
    policy: SafetyPolicy,
    name: str,
    spec: DomainSpec,
    *,
    package: str,
    description: str,
    transport: str | None = None,
) -> WriteReport:
    check_new_object(policy, name, package, transport)
    upper, pkg = name.upper(), package.upper()
    shell = _domain(upper, description, pkg, None)
    await post_new(client, "/sap/bc/adt/ddic/domains", shell, content_type=DOMA_TYPE, transport=transport)
    body = _domain(upper, description, pkg, spec)
    report = await write_metadata(client, policy, "domain", upper, body, content_type=DOMA_TYPE, transport=transport)
    report.uri = object_uri("domain", upper)
    return report
