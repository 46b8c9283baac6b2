"""search_cds_model: the project's compiled CDS model, searched: definitions, elements, associations,
annotations, source locations and the HTTP endpoints CAP serves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, ToolContext, ToolError, ToolInput, limit_field
from sap_devs.mcp.tools._bounds import QUERY_MAX
from sap_devs.mcp.tools.project._cds_compile import (
    NO_MODEL_HINT,
    cds_tool,
    model,
    project_folder,
    source_note,
)
from sap_devs.mcp.tools.project._shared import path_field

if TYPE_CHECKING:
    from sap_devs.toolchain.cds_model import Definition, Element

Kind = Literal["entity", "view", "projection", "service", "action", "function", "type", "aspect", "event", "context"]


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=QUERY_MAX,
        description=(
            "A definition's name or words from it, its elements or labels: 'Books', 'CatalogService', "
            "'travel booking supplement', 'sap.capire.bookshop.Authors'. '*' lists every definition (of kind)."
        ),
    )
    kind: Kind | None = Field(
        None,
        description="Only definitions of this kind; 'entity' includes views and projections, 'view' both of those.",
    )
    path: str | None = path_field("the CAP project root")
    limit: int = limit_field(SEARCH_LIMIT, "definitions")


class ElementOut(BaseModel):
    name: str
    type: str | None = Field(
        None, description="CDS type with its arguments, e.g. 'cds.String(111)', 'cds.Association'."
    )
    key: bool = False
    virtual: bool = False
    relation: Literal["association", "composition"] | None = None
    target: str | None = Field(None, description="Target entity of an association or composition.")
    cardinality: Literal["one", "many"] | None = None
    on: str | None = Field(None, description="The on condition of an unmanaged association.")
    enum: list[str] = Field(default_factory=list)
    annotations: dict[str, str] = Field(
        default_factory=dict, description="Annotation -> value (JSON, cut at 240 characters)."
    )
    file: str | None = None
    line: int | None = None


class EndpointOut(BaseModel):
    protocol: str = Field(description="odata (V4), odata-v4, odata-v2, rest, hcql, or a protocol the project adds.")
    path: str = Field(description="The path CAP serves the service at, e.g. '/odata/v4/catalog'.")


class DefinitionOut(BaseModel):
    name: str = Field(description="Fully qualified name; a bound action is '<entity>:<action>'.")
    kind: str
    file: str | None = Field(
        None, description="Source file, relative to the project root ('@sap/cds/...' for CAP's own)."
    )
    line: int | None = None
    column: int | None = None
    service: str | None = Field(None, description="The service the definition belongs to.")
    doc: str | None = Field(None, description="The /** doc comment */.")
    source: str | None = Field(None, description="What a view or projection selects from.")
    includes: list[str] = Field(default_factory=list, description="Aspects it includes (cuid, managed ...).")
    elements: list[ElementOut] = Field(default_factory=list)
    elements_total: int = 0
    annotations: dict[str, str] = Field(default_factory=dict)
    annotations_total: int = 0
    endpoints: list[EndpointOut] = Field(default_factory=list, description="Services: where CAP serves them.")
    external: bool = Field(False, description="Services: imported (@cds.external); CAP serves only a mock of it.")
    urls: list[str] = Field(
        default_factory=list,
        description="Entities and operations in a service: their URL path at each endpoint; "
        "a service: the URL of every entity it exposes.",
    )
    actions: list[str] = Field(default_factory=list, description="Entities: their bound actions and functions.")
    bound_to: str | None = None
    params: list[ElementOut] = Field(default_factory=list)
    returns: str | None = None


Output = Envelope[DefinitionOut]


def _element(e: Element) -> ElementOut:
    return ElementOut(
        name=e.name,
        type=e.type,
        key=e.key,
        virtual=e.virtual,
        relation=e.relation,  # type: ignore[arg-type]
        target=e.target,
        cardinality=e.cardinality,  # type: ignore[arg-type]
        on=e.on,
        enum=e.enum,
        annotations=e.annotations,
        file=e.location.file if e.location else None,
        line=e.location.line if e.location else None,
    )


def _definition(d: Definition) -> DefinitionOut:
    loc = d.location
    return DefinitionOut(
        name=d.name,
        kind=d.kind,
        file=loc.file if loc else None,
        line=loc.line if loc else None,
        column=loc.column if loc else None,
        service=d.service,
        doc=d.doc,
        source=d.source,
        includes=d.includes,
        elements=[_element(e) for e in d.elements],
        elements_total=d.elements_total,
        annotations=d.annotations,
        annotations_total=d.annotations_total,
        endpoints=[EndpointOut(protocol=e.protocol, path=e.path) for e in d.endpoints],
        external=d.external,
        urls=d.urls,
        actions=d.actions,
        bound_to=d.bound_to,
        params=[_element(e) for e in d.params],
        returns=d.returns,
    )


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.toolchain.cds_model import search

    root = project_folder(params.path, ctx)
    result, cds_model = await model(root)
    if not result.roots:
        raise ToolError(f"{root} has no CDS model.", hint=NO_MODEL_HINT)
    if cds_model is None:
        errors = result.errors or result.messages
        first = errors[0].formatted or errors[0].message if errors else "no model came back"
        raise ToolError(
            f"The CDS model of {root} does not compile ({len(result.errors)} error(s)); the first: {first}",
            hint="Call check_cds for every message with file and line, fix the errors, then search again.",
        )
    hits = search(cds_model, params.query, kind=params.kind)
    items = [_definition(d) for d in hits[: params.limit]]
    out = Output.build(items, limit=params.limit, entity="CDS definitions", query=params.query, total=len(hits))
    return out.add_note(source_note(result))


TOOL = cds_tool(
    name="search_cds_model",
    title="Search the project's CDS model",
    description=(
        "Search the CAP project's CDS model as SAP's cds-compiler compiles it: entities, views, services, actions, "
        "types, aspects, events with elements, keys, associations (target, cardinality), annotations, file and line, "
        "and each service's HTTP endpoints and entity URLs. Nothing of the project runs."
    ),
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "Before editing CDS in a CAP project, use search_cds_model to see the existing entities, services and "
        "their endpoints instead of guessing names."
    ),
    example={"query": "Books", "kind": "entity"},
)
