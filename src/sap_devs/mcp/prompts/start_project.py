"""start-project: the tutorials, samples, rules and tools to start a CAP, Fiori, RAP or UI5 project right."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.prompts import Prompt, PromptInput, choices

Kind = Literal["cap", "fiori", "abap-rap", "ui5-ts"]
KINDS: dict[str, tuple[str, str, str]] = {
    # kind -> (pack, what it is, tutorial query)
    "cap": ("cap", "a CAP (SAP Cloud Application Programming Model) application", "get started CAP application"),
    "fiori": ("fiori-ui5", "an SAP Fiori elements application", "create SAP Fiori elements app"),
    "abap-rap": ("abap", "an ABAP RAP business object in ABAP Cloud", "RAP business object ABAP Cloud"),
    "ui5-ts": ("fiori-ui5", "a UI5 application in TypeScript", "UI5 TypeScript application"),
}


class Input(PromptInput):
    kind: Kind = Field(description="What to start: cap, fiori, abap-rap or ui5-ts.")
    name: str | None = Field(None, min_length=1, max_length=100, description="Name of the new project, if chosen.")


def render(params: Input, ctx: ToolContext) -> str:
    pack, what, query = KINDS[params.kind]
    named = f" named '{params.name}'" if params.name else ""
    local = (
        "3. Call check_tools to see that the local tools this needs are installed in current versions; list what to install first."
        if params.kind != "abap-rap"
        else "3. RAP is built in ABAP Development Tools (Eclipse) or on the system; if an ABAP system is configured, check it with the ABAP tools before creating objects."
    )
    return f"""Help me start {what}{named}, the way SAP recommends today.

1. Call search_tutorials with query='{query}' and pick the current beginner tutorial or mission; give its URL.
2. Call get_samples with pack='{pack}' and name the one or two canonical samples to copy the structure from.
{local}
4. Call get_context with pack='{pack}' and verbosity='minimal' and follow its 'Never ...' rules from the first file on.
5. Answer with the steps to create the project (commands or wizard choices), the project layout it should have, and the first three things to build, each with the tutorial, sample or documentation URL it comes from."""


PROMPT = Prompt(
    name="start-project",
    title="Start an SAP project",
    description="The tutorials, canonical samples, tool checks and rules to start a CAP, Fiori elements, ABAP RAP or UI5 TypeScript project right.",
    input=Input,
    handler=render,
    complete={"kind": choices(*KINDS)},
    guidance_packs=lambda params, _ctx: ["base", KINDS[params.kind][0]],
)
