"""create_data_element: a new data element (domain or predefined type, field labels), activated (writes only)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, activate_created, name_field, short_text_field, transport_field

Predefined = Literal[
    "CHAR", "NUMC", "DEC", "INT4", "INT8", "DATS", "TIMS", "STRING", "CURR", "QUAN", "CUKY", "UNIT", "RAW"
]


class Input(ToolInput):
    name: str = name_field("New data element name", "ZSALES_ORDER_ID")
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    domain: str | None = Field(None, max_length=30, pattern=r"^[A-Za-z0-9_/]+$", description="Domain to type it with.")
    data_type: Predefined | None = Field(None, description="Or a predefined type.")
    length: int = Field(0, ge=0, le=1333, description="Length for CHAR, NUMC, DEC ...")
    decimals: int = Field(0, ge=0, le=14, description="Decimals for DEC, CURR, QUAN.")
    label: str = Field(min_length=1, max_length=40, description="Field label (cut to 10/20/40 characters).")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    activated: bool


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.ddic import DataElementSpec, create_data_element

    if bool(params.domain) == bool(params.data_type):
        raise ToolError("Give either domain or data_type.", hint="e.g. data_type=CHAR with length, or a domain.")
    client = ctx.adt()
    spec = DataElementSpec(
        domain=params.domain,
        data_type=params.data_type,
        length=params.length,
        decimals=params.decimals,
        short_label=params.label,
        medium_label=params.label,
        long_label=params.label,
        heading=params.label,
    )
    report = await create_data_element(
        client,
        ctx.policy(),
        params.name,
        spec,
        package=params.package,
        description=params.description,
        transport=params.transport,
    )
    await activate_created(
        client,
        report.uri,
        report.name,
        created=f"created in {report.package}",
        hint="Check the domain or type, then activate_objects.",
    )
    return Output(name=report.name, uri=report.uri, package=report.package, activated=True)


TOOL = Tool(
    name="create_data_element",
    title="Create data element",
    description="Create a DDIC data element in an allowed package on the user's system, typed by a domain or a predefined type, with its field label, and activate it in one call.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={
        "name": "ZSALES_ORDER_ID",
        "package": "$TMP",
        "description": "Sales order ID",
        "data_type": "NUMC",
        "length": 10,
        "label": "Order",
    },
)
