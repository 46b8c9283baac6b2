"""create_message_class: a new message class with its messages, in one call (writes only)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field, short_text_field, transport_field


class Message(BaseModel):
    number: str = Field(max_length=3, pattern=r"^\d{3}$", description="000-999.")
    text: str = Field(min_length=1, max_length=73, description="Placeholders & or &1-&4.")


class Input(ToolInput):
    name: str = name_field("New message class name", "ZSALES_MSG", max_length=20)
    package: str = name_field("Package", "$TMP")
    description: str = short_text_field()
    messages: list[Message] = Field(default_factory=list, max_length=200, description="Its messages.")
    transport: str | None = transport_field()


class Output(ToolOutput):
    name: str
    uri: str
    package: str
    transport: str | None = None
    messages: int
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.messageclass import MessageText, create_message_class

    report = await create_message_class(
        ctx.adt(),
        ctx.policy(),
        params.name,
        [MessageText(m.number, m.text) for m in params.messages],
        package=params.package,
        description=params.description,
        transport=params.transport,
    )
    hint = None
    if not report.unlocked:
        hint = "The messages were written, but a lock was not given back; it ends with the server session."
    return Output(
        name=report.name,
        uri=report.uri,
        package=report.package,
        transport=report.transport,
        messages=len(params.messages),
        hint=hint,
    )


TOOL = Tool(
    name="create_message_class",
    title="Create message class",
    description="Create a message class (MSAG) with its numbered T100 message texts for MESSAGE statements and exceptions, in an allowed package, in one call.",
    category="abap",
    action="create",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
    available_in=MODERN,
    needs_system=True,
    example={
        "name": "ZSALES_MSG",
        "package": "$TMP",
        "description": "Sales order messages",
        "messages": [{"number": "001", "text": "Sales order &1 not found"}],
    },
)
