"""abap-cloud-readiness: which ABAP objects are released for ABAP Cloud, and what replaces the ones that are not."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.prompts import Prompt, PromptInput, choices

MAX_OBJECTS = 50
_NAME = re.compile(r"^[A-Za-z0-9_/]{1,120}$")  # ABAP object names, namespaces included (/DMO/...)


class Input(PromptInput):
    objects: str = Field(
        min_length=1,
        max_length=10_000,
        description="ABAP object names separated by commas, spaces or lines, e.g. 'MARA, BAPI_PO_CREATE1'.",
    )
    target: Literal["cloud", "private", "btp"] = Field(
        "cloud",
        description="cloud = SAP Cloud ERP; private = Cloud ERP Private / on-premise; btp = SAP BTP ABAP environment.",
    )

    @field_validator("objects")
    @classmethod
    def _names(cls, value: str) -> str:
        names = [n for n in re.split(r"[\s,;]+", value) if n]
        if not names:
            raise ValueError("name at least one ABAP object")
        if len(names) > MAX_OBJECTS:
            raise ValueError(f"at most {MAX_OBJECTS} objects, got {len(names)}")
        bad = [n for n in names if not _NAME.match(n)]
        if bad:
            raise ValueError(f"not ABAP object names: {', '.join(bad[:5])}")
        return ", ".join(dict.fromkeys(n.upper() for n in names))


def render(params: Input, ctx: ToolContext) -> str:
    names = params.objects.split(", ")
    as_json = ", ".join(f'"{n}"' for n in names)
    system = ctx.adt_config is not None
    live = (
        "3. An ABAP system is configured: call get_api_release_state for each object (with its kind) for the system's own release state, which knows its release and its custom objects; read custom Z/Y objects with the ABAP tools (get_object_info, get_class, get_table ...) and run run_atc where available to see what the system's ABAP Cloud checks say."
        if system
        else "3. No ABAP system is configured, so answer from SAP's released-API lists only; say that custom objects (Z*, Y*) need a check on the system (ATC with the ABAP Cloud readiness variant)."
    )
    return f"""Check whether these ABAP objects can be used in ABAP Cloud (target: {params.target}): {params.objects}

1. Call check_released_api with names=[{as_json}] and target='{params.target}'. It says for each object whether it is released, deprecated or not released, and the released successors SAP names (MARA -> I_PRODUCT).
2. For every object that is not released, take the successor from the answer; if there is none, call search_docs for the object's purpose in ABAP Cloud (product='abap') and get_context with pack='abap' for the rules.
{live}
4. Answer with a table: object, state, successor (or the recommended released API), and what changes in the code (field names, key, method). Then propose the replacement code for the most important uses. Never suggest wrapping an unreleased API unless the target is private and the answer's clean core level allows it; say which level."""


PROMPT = Prompt(
    name="abap-cloud-readiness",
    title="ABAP Cloud readiness",
    description="Checks ABAP objects against SAP's released-API lists (and the live system when one is configured) and proposes released replacements.",
    input=Input,
    handler=render,
    complete={"target": choices("cloud", "private", "btp")},
    guidance_packs=lambda _params, _ctx: ["base", "abap"],
)
