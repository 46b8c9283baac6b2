"""get_known_errors: cause and fix for an SAP error message the developer ran into."""

from __future__ import annotations

import logging

from pydantic import BaseModel, Field

from sap_devs.core.errors import SapDevsError
from sap_devs.knowledge.match_strength import Strength
from sap_devs.knowledge.queries import KnownErrorMatches, match_known_errors
from sap_devs.mcp.framework import SEARCH_LIMIT, Envelope, Tool, ToolContext, ToolInput, limit_field, pack_field
from sap_devs.mcp.tools._bounds import PASTED_LOG_MAX, Id
from sap_devs.mcp.tools._origin import origin_field, origin_of
from sap_devs.mcp.tools.docs.search_docs import DocHit, doc_hit

log = logging.getLogger(__name__)

DOCS_SHOWN = 3


class Input(ToolInput):
    query: str = Field(
        min_length=1,
        max_length=PASTED_LOG_MAX,
        description=(
            "The error message as seen (paste it whole, stack trace or build log included, up to 64 KB) "
            "or its key phrase, e.g. 'SQL error 258'."
        ),
    )
    pack: Id | None = pack_field("search in")
    limit: int = limit_field(SEARCH_LIMIT, "known errors")


class KnownErrorOut(BaseModel):
    id: str
    pattern: str = Field(description="The message as developers see it.")
    cause: str = Field(description="Why it happens.")
    fix: str = Field(description="Concrete steps or commands that resolve it.")
    docs: str | None = Field(None, description="The page that explains it.")
    tags: list[str]
    pack: str
    origin: str | None = origin_field()
    strength: Strength | None = Field(
        None,
        description=(
            "How well the entry fits the message: 'exact' (the message carries the entry's wording and its code), "
            "'likely' (most of it), 'weak' (a few shared words: check the cause before applying the fix)."
        ),
    )


class Output(Envelope[KnownErrorOut]):
    docs: list[DocHit] = Field(
        default_factory=list,
        description=(
            "Only when no result is exact or likely: the documentation sections that best match the message, "
            "troubleshooting and error pages first; read them with read_doc."
        ),
    )
    matched_on: str | None = Field(
        None, description="The error lines a long paste was matched on; absent when the whole message was used."
    )


def _item(m: object) -> KnownErrorOut:
    e = m.entry  # type: ignore[attr-defined]
    return KnownErrorOut(
        id=e.id,
        pattern=e.pattern,
        cause=e.cause,
        fix=e.fix,
        docs=e.docs,
        tags=e.tags,
        pack=m.pack,  # type: ignore[attr-defined]
        origin=origin_of(e, e.docs),
        strength=m.strength,  # type: ignore[attr-defined]
    )


def _docs_for(text: str) -> tuple[list[DocHit], str | None]:
    """The documentation fallback, or why there is none (an unreadable index is a note, not a failure)."""
    from sap_devs.docs.error_pages import sections_for_error
    from sap_devs.docs.store import current

    try:
        hits = sections_for_error(current(), text, limit=DOCS_SHOWN)
    except SapDevsError as exc:
        log.warning("documentation fallback unavailable: %s", exc)
        return [], f"The documentation index is unavailable ({exc}); try search_docs later."
    items = [doc_hit(h) for h in hits]
    return items, None


def _hint(found: KnownErrorMatches, shown: list[KnownErrorOut], docs: list[DocHit]) -> str | None:
    if found.strong:
        weak = sum(1 for i in shown if i.strength == "weak")
        return f"{weak} weak result(s) after the strong ones share only a few words with the message." if weak else None
    pointer = (
        " The docs field lists the documentation sections that best match the message; read them with read_doc."
        if docs
        else " search_docs with the message's key words may still find it."
    )
    if not shown:
        return "No known error matches this message." + pointer
    return (
        "No known error clearly matches this message: every result is weak (it shares only a few words), so do not "
        "apply its fix unless its cause fits." + pointer
    )


async def handle(params: Input, ctx: ToolContext) -> Output:
    found = match_known_errors(ctx.knowledge, params.query, pack=params.pack)
    items = [_item(m) for m in found.matches]
    docs: list[DocHit] = []
    note = None
    if not found.strong:
        docs, note = _docs_for(found.matched_on)
    output = Output.build(items, limit=params.limit, entity="known errors", query=None)
    output.hint = _hint(found, output.results, docs)
    output.add_note(note)
    if len(items) > params.limit:
        output.add_note(f"Showing {params.limit} of {len(items)} known errors.")
    output.docs = docs
    if found.matched_on != params.query:
        output.matched_on = found.matched_on
    return output


TOOL = Tool(
    name="get_known_errors",
    title="Known SAP error patterns",
    description=(
        "Root cause, fix and docs link for an SAP error message (CAP, CF, MTA, XSUAA, HANA, HDI, ABAP, RAP, UI5, "
        "Integration), each result rated exact/likely/weak; when none fits, the best documentation sections instead. "
        "ALWAYS call it first when the user hits an SAP error: paste the message or the whole log."
    ),
    category="knowledge",
    action="search",
    input=Input,
    output=Output,
    handler=handle,
    instruction=(
        "ALWAYS use get_known_errors first when the user encounters an SAP error message, before diagnosing "
        "from memory; apply a fix only from an exact or likely result."
    ),
    example={"query": "SQL error 258: insufficient privilege: Not authorized"},
)
