"""check_released_api: may ABAP Cloud code use this SAP object, and if not, what replaces it?

Answers from SAP's Cloudification Repository lists (bundled, or synced with ``sap-devs sync``),
so it needs no ABAP system and works in every environment.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from sap_devs.live.released_apis import lists as released_apis
from sap_devs.mcp.framework import Tool, ToolContext, ToolInput, ToolOutput

NAMES_MAX = 50
"""Names per call: a class's or a program's worth of SAP references, well short of a dump."""

ObjectName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=released_apis.NAME_MAX)]


class Input(ToolInput):
    names: list[ObjectName] = Field(
        min_length=1,
        max_length=NAMES_MAX,
        description=(
            "SAP object names to check, any case, e.g. ['MARA', 'BAPI_PO_CREATE1', 'CL_ABAP_CHAR_UTILITIES', "
            "'I_PRODUCT']: tables, CDS views, classes, interfaces, function modules, data elements, BAdIs ..."
        ),
    )
    object_type: str | None = Field(
        None,
        min_length=2,
        max_length=20,
        pattern=r"^[A-Za-z0-9_]+$",
        description=(
            "Only objects of this type, as SAP's lists name it or its TADIR type: TABL, CLAS, INTF, FUNC (or FUGR), "
            "DDLS (or CDS_STOB), BDEF, DTEL, DOMA, TTYP, BADI_DEF ...; omit for every type."
        ),
    )
    target: Literal["cloud", "private", "onprem", "btp"] = Field(
        "cloud",
        description=(
            "Where the code runs: 'cloud' = SAP Cloud ERP (S/4HANA Cloud Public Edition), 'private' (or 'onprem') = "
            "SAP Cloud ERP Private or on-premise (adds the classic-API clean core level), 'btp' = SAP BTP ABAP "
            "environment."
        ),
    )


class SuccessorOut(BaseModel):
    object_type: str = Field(description="Type as in SAP's list, e.g. CDS_STOB, BDEF, CLAS, FUNC.")
    name: str
    tadir_object: str | None = Field(None, description="Repository (TADIR) type when it differs, e.g. DDLS.")
    state: str | None = Field(None, description="The successor's own state in the target's list, e.g. released.")


class ReleasedApiOut(BaseModel):
    name: str = Field(description="The name as checked (upper case).")
    found: bool = Field(description="Whether SAP's list for the target knows the object.")
    object_type: str | None = None
    type_name: str | None = Field(None, description="The object type in words.")
    tadir_object: str | None = Field(None, description="Repository (TADIR) type and name when they differ.")
    tadir_name: str | None = None
    state: str | None = Field(
        None,
        description="Release state as in SAP's data: released, deprecated, notToBeReleased, "
        "notToBeReleasedStable; for private also classicAPI, internalAPI, noAPI.",
    )
    meaning: str | None = Field(None, description="What the state means for your code.")
    usable_in_abap_cloud: bool = Field(description="True only for state 'released'.")
    successors: list[SuccessorOut] = Field(default_factory=list, description="What to use instead, per SAP.")
    successor_concept: str | None = Field(None, description="SAP's named successor concept, when it gives one.")
    clean_core_level: str | None = Field(
        None, description="Private only: clean core level from SAP's classic-API classification (A-D)."
    )
    classification: str | None = Field(
        None, description="Private only: classicAPI, internalAPI or noAPI from SAP's classic-API list."
    )
    labels: list[str] = Field(default_factory=list, description="Private only: classic-API labels (RFC, ...).")
    application_component: str | None = None
    software_component: str | None = None
    note: str = Field(description="The verdict in one sentence.")


class Output(ToolOutput):
    count: int = Field(description="Number of results: one per object found (a name can match several types).")
    total: int = Field(description="Same as count: every result is returned.")
    results: list[ReleasedApiOut]
    target: str = Field(description="The product the answer is for.")
    data_source: str = Field(description="Bundled snapshot or synced cache, with its date or age.")
    hint: str | None = Field(None, description="What to do next.")


def _out(verdict: released_apis.Verdict) -> ReleasedApiOut:
    source = verdict.entry or verdict.classification
    states = [*verdict.successor_states, *[None] * len(verdict.successors)]
    successors = [
        SuccessorOut(
            object_type=s.object_type,
            name=s.name,
            tadir_object=s.tadir_object if s.tadir_object != s.object_type else None,
            state=state,
        )
        for s, state in zip(verdict.successors, states, strict=False)
    ]
    if source is None:
        return ReleasedApiOut(name=verdict.asked, found=False, usable_in_abap_cloud=False, note=verdict.sentence())
    return ReleasedApiOut(
        name=verdict.asked,
        found=True,
        object_type=source.object_type,
        type_name=released_apis.TYPE_NAMES.get(source.object_type) or released_apis.TYPE_NAMES.get(source.tadir_object),
        tadir_object=source.tadir_object if source.tadir_object != source.object_type else None,
        tadir_name=source.tadir_name if source.tadir_name != source.name else None,
        state=verdict.state,
        meaning=verdict.meaning,
        usable_in_abap_cloud=verdict.usable_in_abap_cloud,
        successors=successors,
        successor_concept=verdict.successor_concept,
        clean_core_level=verdict.clean_core_level,
        classification=verdict.classification.state if verdict.classification is not None else None,
        labels=verdict.labels,
        application_component=source.application_component or None,
        software_component=source.software_component or None,
        note=verdict.sentence(),
    )


def _hint(results: list[ReleasedApiOut], dataset: released_apis.Dataset, target: str) -> str:
    parts = []
    if any(not r.usable_in_abap_cloud for r in results):
        parts.append(
            "In ABAP Cloud code (ABAP for Cloud Development) use only objects whose state is 'released': replace "
            "the others with their successors whose own state is 'released'."
        )
        if target == "private" and any(r.clean_core_level and r.clean_core_level[0] == "B" for r in results):
            parts.append("Classic ABAP may use classic APIs (level B); ABAP Cloud code may not.")
    else:
        parts.append("All checked objects are released for ABAP Cloud.")
    if dataset.origin == "baseline":
        parts.append(
            f"Answered from the {dataset.describe()}; run `sap-devs sync --only released-apis` for SAP's current list."
        )
    elif dataset.stale:
        parts.append(f"The cached list is {dataset.age} old; run `sap-devs sync --only released-apis` to refresh it.")
    return " ".join(parts)


async def handle(params: Input, ctx: ToolContext) -> Output:
    dataset = released_apis.load()
    target = "private" if params.target == "onprem" else params.target  # one list serves both (SAP's own naming)
    verdicts = released_apis.check(dataset, params.names, target, params.object_type)
    results = [_out(v) for v in verdicts]
    return Output(
        count=len(results),
        total=len(results),
        results=results,
        target=released_apis.TARGET_TITLES[target],
        data_source=dataset.describe(),
        hint=_hint(results, dataset, target),
    )


TOOL = Tool(
    name="check_released_api",
    title="Check SAP objects against the released-API list",
    description=(
        "Check SAP objects (tables, CDS views, classes, function modules/BAPIs, interfaces, data elements ...) against "
        "SAP's released-API list for ABAP Cloud: release state (released, deprecated, notToBeReleased ...), what it "
        "means, and the successor objects to use instead. Targets: SAP Cloud ERP public cloud (default), Private/"
        "on-premise (with the classic-API clean core level) or SAP BTP ABAP environment. No ABAP system needed."
    ),
    category="knowledge",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "Before using an SAP object (table, CDS view, class, BAPI ...) in ABAP Cloud code, check it with "
        "check_released_api and use the released successors it names."
    ),
    example={"names": ["MARA", "BAPI_PO_CREATE1", "CL_ABAP_CHAR_UTILITIES"], "target": "cloud"},
)
