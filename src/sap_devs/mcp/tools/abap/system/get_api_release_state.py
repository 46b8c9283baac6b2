"""get_api_release_state: whether an object is a released API on the user's own system, per contract."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, Kind, name_field

MEANING = {
    "C0": "extend (stable extension point)",
    "C1": "use in ABAP Cloud and key user apps (system-internal use)",
    "C2": "use as remote API",
    "C3": "manage configuration content",
    "C4": "use in ABAP-managed database procedures",
}


class Input(ToolInput):
    name: str = name_field("Object name", "I_PRODUCT")
    kind: Kind = Field(description="Object kind.")


class ContractState(BaseModel):
    contract: str
    meaning: str | None = None
    state: str = Field(description="RELEASED, DEPRECATED, NOT_RELEASED ...")
    cloud_development: bool = Field(description="Usable in ABAP for Cloud Development.")
    key_user_apps: bool
    changed_at: str | None = None


class Output(ToolOutput):
    name: str
    type: str | None = None
    released: bool = Field(description="Released under at least one contract.")
    contracts: list[ContractState]
    hint: str | None = None


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.apirelease import release_state

    name, kind, contracts = await release_state(ctx.adt(), params.kind, params.name)
    items = [
        ContractState(
            contract=c.contract,
            meaning=MEANING.get(c.contract),
            state=c.state,
            cloud_development=c.cloud_development,
            key_user_apps=c.key_user_apps,
            changed_at=c.changed_at,
        )
        for c in contracts
    ]
    released = any(c.state == "RELEASED" for c in items)
    deprecated = [c.contract for c in items if c.state == "DEPRECATED"]
    hint = None
    if deprecated:
        hint = (
            f"Deprecated under {', '.join(deprecated)}: look for its successor (check_released_api knows SAP's list)."
        )
    elif not released:
        hint = "Not released on this system: ABAP Cloud code cannot use it; check_released_api suggests alternatives."
    return Output(name=name or params.name.upper(), type=kind, released=released, contracts=items, hint=hint)


TOOL = Tool(
    name="get_api_release_state",
    title="API release state on the system",
    description="Whether an object is a released API on the user's own system, per release contract (C0 extend, C1 use in ABAP Cloud, C2 remote API ...): state, usable in cloud development or key user apps; the live counterpart of check_released_api.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=MODERN,
    needs_system=True,
    example={"name": "I_PRODUCT", "kind": "cds_view"},
)
