"""create_domain: a new DDIC domain (type, length, fixed values), activated (writes only)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, activate_created, name_field, short_text_field, transport_field


class FixedValue(BaseModel):
    value: str = Field(min_length=1, max_length=10, description="The value.")
    text: str = Field(min_length=1, max_length=60, description="Its text.")


class Input(ToolInput):
    name: str = name_field("New domain name", "ZORDER_STATUS")
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    data_type: Literal["CHAR", "NUMC", "DEC", "INT1", "INT2", "INT4", "DATS", "TIMS", "CUKY", "UNIT", "LANG"] = Field(
        description="Predefined type."
    )
    length: int = Field(ge=1, le=1333, description="Length.")
    decimals: int = Field(0, ge=0, le=14, description="Decimals for DEC.")
    lowercase: bool = Field(False, description="Allow lower case.")
    fixed_values: list[FixedValue] = Field(default_factory=list, max_length=100, description="Allowed values.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    activated: bool


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.ddic import DomainSpec, create_domain

    client = ctx.adt()
    spec = DomainSpec(
        data_type=params.data_type,
        length=params.length,
        decimals=params.decimals,
        lowercase=params.lowercase,
        fixed_values=[(f.value, f.text) for f in params.fixed_values],
    )
    report = await create_domain(
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
        hint="Check type, length and fixed values, then activate_objects.",
    )
    return Output(name=report.name, uri=report.uri, package=report.package, activated=True)


TOOL = Tool(
    name="create_domain",
    title="Create domain",
    description="Create a DDIC domain in an allowed package on the user's system: predefined type, length, decimals and fixed values with texts, activated in one call.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=ALL_SYSTEMS,
    needs_system=True,
    example={
        "name": "ZORDER_STATUS",
        "package": "$TMP",
        "description": "Order status",
        "data_type": "CHAR",
        "length": 1,
        "fixed_values": [{"value": "O", "text": "Open"}, {"value": "C", "text": "Closed"}],
    },
)
