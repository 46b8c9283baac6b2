"""read_doc: one SAP documentation page (or one section of it) as Markdown, with its URL and attribution."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, StringConstraints, model_validator

from sap_devs.mcp.framework import Tool, ToolContext, ToolError, ToolInput, ToolOutput
from sap_devs.mcp.tools._bounds import QUERY_MAX, URL_MAX
from sap_devs.mcp.tools.docs.search_docs import section_url

READ_MAX = 8000
MAX_SECTIONS = 5


class Input(ToolInput):
    # the page is named one way: the schema says so too, so clients can check before calling
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [{"required": ["id"]}, {"required": ["url"]}, {"required": ["source", "path"]}]},
    )

    # the five ways to name a page are plain strings that may be left out; an explicit null is refused, as the
    # schema (no null type) says
    id: str = Field(None, min_length=3, max_length=600, description="Page id from search_docs, 'owner/repo:path'.")
    url: str = Field(None, min_length=8, max_length=URL_MAX, description="Public URL of the page instead of id.")
    source: str = Field(None, min_length=3, max_length=200, description="Repository owner/repo, with path.")
    path: str = Field(None, min_length=1, max_length=600, description="File path inside source.")
    section: str = Field(
        None,
        min_length=1,
        max_length=QUERY_MAX,
        description="Only this section: its heading (or the end of its heading path) from search_docs.",
    )
    sections: list[Annotated[str, StringConstraints(min_length=1, max_length=QUERY_MAX)]] = Field(
        None,
        min_length=1,
        max_length=MAX_SECTIONS,
        description="Only these sections, in page order (a search_docs result's sections: a match that spans two).",
    )
    offset: int = Field(0, ge=0, le=50_000_000, description="Character offset to continue a long page from.")
    max_chars: int = Field(READ_MAX, ge=500, le=30_000, description="Characters to return.")

    @model_validator(mode="after")
    def _one_way(self) -> Input:
        given = [self.id is not None, self.url is not None, self.source is not None or self.path is not None]
        if sum(given) != 1 or (self.source is None) != (self.path is None):
            raise ValueError("give exactly one of: id, url, or source together with path")
        if self.section is not None and self.sections is not None:
            raise ValueError("give section or sections, not both")
        return self


class Output(ToolOutput):
    title: str
    url: str
    source: str
    path: str
    commit: str = Field(description="Commit of the repository the text is from.")
    licence: str
    attribution: str = Field(description="Credit line to keep when quoting the text.")
    section: str | None = Field(
        None, description="Heading path of the section returned (of each, joined by ' | '), when asked for."
    )
    content: str = Field(description="Markdown of the page or section, from offset.")
    offset: int
    next_offset: int | None = Field(None, description="Pass as offset to read on; absent at the end.")
    total_chars: int
    sections: list[str] = Field(description="Headings of the page's sections, to ask for one.")
    hint: str | None = None


def _pick(sections: list[tuple[str, str | None, str]], wanted: str) -> list[int]:
    """The positions of the section whose heading path ends with ``wanted`` (or contains it) and of its
    subsections."""
    needle = wanted.strip().lower()

    def under(i: int, heading: str) -> list[int]:
        return [
            j
            for j in range(i, len(sections))
            if sections[j][0] == heading or sections[j][0].startswith(heading + " > ")
        ]

    for i, (heading, anchor, _) in enumerate(sections):
        if heading.lower().endswith(needle) or needle == (anchor or "").lower():
            return under(i, heading)
    for i, (heading, _, _) in enumerate(sections):
        if needle in heading.lower():
            return under(i, heading)
    return []


def _roots(chosen: list[tuple[str, str | None, str]]) -> set[str]:
    """The headings among ``chosen`` that are not subsections of another chosen one."""
    headings = [h for h, _, _ in chosen]
    return {h for h in headings if not any(h.startswith(other + " > ") for other in headings)}


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.docs.sources import current_url
    from sap_devs.docs.store import current

    index = current()
    page_id = params.id or (f"{params.source}:{params.path}" if params.source else None)
    # a link to a page's old or alias address (a renamed repository's site, a version alias) finds the page
    found = index.find_page(page_id=page_id, url=current_url(params.url) if params.url else None)
    if found is None:
        what = f"id {page_id!r}" if page_id else f"url {params.url[:200]!r}"  # type: ignore[index]
        raise ToolError(
            f"No documentation page with {what}.", hint="Use an id or url exactly as search_docs returned it."
        )
    doc = index.read(found[0])
    chosen = doc.sections
    wanted = [params.section] if params.section else params.sections or []
    if wanted:
        picked: set[int] = set()
        for name in wanted:
            found_at = _pick(doc.sections, name)
            if not found_at:
                headings = "; ".join(h.split(" > ")[-1] for h, _, _ in doc.sections[:30])
                raise ToolError(f"The page has no section {name[:200]!r}.", hint=f"Its sections: {headings}.")
            picked.update(found_at)
        chosen = [s for i, s in enumerate(doc.sections) if i in picked]  # page order, each section once
    parts = []
    for heading, _, text in chosen:
        depth = min(len(heading.split(" > ")), 6)
        parts.append(f"{'#' * depth} {heading.split(' > ')[-1]}\n\n{text}")
    full = "\n\n".join(parts)
    if params.offset >= len(full) and full:
        raise ToolError(f"offset {params.offset} is past the end ({len(full)} characters).", hint="Start at 0.")
    end = min(len(full), params.offset + params.max_chars)
    if end < len(full):  # end at a paragraph or line break, not mid-word
        cut = max(full.rfind("\n\n", params.offset, end), full.rfind("\n", params.offset, end))
        if cut > params.offset + params.max_chars // 2:
            end = cut
    url = doc.url
    if wanted:
        url = section_url(doc.source.repo, doc.url, chosen[0][1])
    hint = None
    if end < len(full):
        hint = f"Showing characters {params.offset}-{end} of {len(full)}; pass offset={end} for the rest."
    return Output(
        title=doc.title,
        url=url,
        source=doc.source.repo,
        path=doc.path,
        commit=doc.source.commit,
        licence=doc.source.licence,
        attribution=_attribution(doc.source.repo, doc.source.site, doc.source.licence, url),
        section=" | ".join(dict.fromkeys(h for h, _, _ in chosen if h in _roots(chosen))) if wanted else None,
        content=full[params.offset : end],
        offset=params.offset,
        next_offset=end if end < len(full) else None,
        total_chars=len(full),
        sections=[h for h, _, _ in doc.sections][:200],
        hint=hint,
    )


def _attribution(repo: str, site: str, licence: str, url: str) -> str:
    from sap_devs.docs.sources import BY_REPO

    known = BY_REPO.get(repo.lower())
    holder = known.holder if known else "SAP SE or an SAP affiliate company"
    return f"From {site} ({url}; github.com/{repo}), © {holder}, {licence}."


TOOL = Tool(
    name="read_doc",
    title="Read an SAP documentation page",
    description=(
        "Read one page of the SAP documentation (or one section) as Markdown, by the id or url from search_docs, "
        "with its public URL, licence and attribution; long pages continue with offset."
    ),
    category="docs",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    instruction="Use read_doc to read a page search_docs found before relying on it.",
    example={"id": "capire/docs:cds/cdl.md", "section": "Associations"},
)
