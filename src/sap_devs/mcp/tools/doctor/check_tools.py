"""check_tools: which SAP developer tools are installed, in which version, and how to install the rest."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.doctor.tool_checks import PROJECT_TOOLS, ProjectNeed, check_tools, for_project, project_needs
from sap_devs.mcp.framework import (
    LIST_LIMIT,
    Annotations,
    Envelope,
    Tool,
    ToolContext,
    ToolError,
    ToolInput,
    limit_field,
    pack_field,
)
from sap_devs.mcp.tools._bounds import ID_MAX, Id
from sap_devs.mcp.tools._origin import origin_field, origin_of


class Input(ToolInput):
    tool: str | None = Field(
        None,
        min_length=1,
        max_length=ID_MAX,
        description="Check only this tool id, e.g. 'node', 'cds-dk', 'cf-cli', 'mbt'.",
    )
    pack: Id | None = pack_field("check the tools of")
    limit: int = limit_field(LIST_LIMIT, "tool checks")


class ToolStatus(BaseModel):
    id: str
    name: str
    status: str = Field(
        description="ok, outdated (installed but too old), missing (not on PATH), unknown or error (see detail)."
    )
    required: str = Field(description="Version requirement, e.g. '>=20.0.0' or 'latest'.")
    found: str | None = Field(None, description="Installed version, when it could be read.")
    detail: str | None = None
    install: str | None = Field(None, description="Install or upgrade command for this operating system.")
    docs: str | None = None
    pack: str
    origin: str | None = origin_field()


Output = Envelope[ToolStatus]


def _project_needs(ctx: ToolContext) -> dict[str, ProjectNeed]:
    from sap_devs.doctor.baseline import baseline_from

    return project_needs(ctx.cwd, baseline_from(ctx.knowledge))


async def handle(params: Input, ctx: ToolContext) -> Output:
    kb = ctx.knowledge
    seen: set[str] = set()
    defs = []
    for pack, tool in kb.items("tools", params.pack):
        if tool.id in seen:
            continue  # the first pack (profile order) defines a tool shared by several packs
        seen.add(tool.id)
        if params.tool is None or tool.id == params.tool:
            defs.append((pack.id, tool))
    if params.tool and not defs:
        known = ", ".join(sorted(seen)) or "none"
        raise ToolError(f"No tool check with id {params.tool!r}.", hint=f"Known tool ids: {known}.")
    lapsed = [tool.id for _, tool in defs if kb.trust_lapsed(tool)]
    defs = [(pack, tool) for pack, tool in defs if tool.id not in lapsed]
    results = await check_tools(defs[: params.limit])
    needs = _project_needs(ctx) if any(r.tool.id in PROJECT_TOOLS for r in results) else {}
    items = []
    for r in results:
        row = {
            "id": r.tool.id,
            "name": r.tool.name,
            "status": r.status,
            "required": r.tool.required,
            "found": r.found,
            "detail": r.detail,
            "install": r.install if r.status != "ok" else None,
        }
        if r.tool.id in needs:  # judged by what the project in the working folder needs, not a new project's minimum
            row = for_project({**row, "install": r.install}, needs[r.tool.id], r.install)
        items.append(ToolStatus(**row, docs=r.tool.docs, pack=r.pack, origin=origin_of(r.tool, r.tool.docs)))
    problems = [i for i in items if i.status in ("missing", "outdated", "error")]
    hint = None
    if problems:
        hint = f"{len(problems)} tool(s) need attention: " + ", ".join(f"{p.id} ({p.status})" for p in problems)
    elif len(defs) > params.limit:
        hint = f"Checked {params.limit} of {len(defs)} tools. Raise limit or filter by pack to check the rest."
    if lapsed:
        note = (
            f"Not run: {', '.join(lapsed[:5])}, because the folder defining them is no longer trusted as it was "
            "when the server started (trust revoked or given again); restart the server to load it anew."
        )
        hint = f"{hint} {note}" if hint else note
    ignored = [f for f in kb.ignored_files if f.endswith("tools.yaml")]
    if ignored:
        note = (
            f"Not run: the tool checks in {', '.join(ignored[:3])}, because that folder is not trusted; "
            "after reviewing its commands the user can run `sap-devs trust` in the project."
        )
        hint = f"{hint} {note}" if hint else note
    return Output.build(items, limit=params.limit, entity="tool checks", hint=hint, total=len(defs))


TOOL = Tool(
    name="check_tools",
    title="Check SAP developer tools",
    description=(
        "Check installed SAP developer tools (node, cds-dk, cf, btp, mbt, ui5, kubectl, java ...): ok, outdated or missing, with the install command for this OS."
    ),
    category="doctor",
    action="execute",
    risk="low",  # runs version commands only
    input=Input,
    output=Output,
    handler=handle,
    # runs local version commands: reads the machine, changes nothing
    annotations=Annotations(read_only=True, destructive=False, idempotent=True, open_world=False),
    instruction="Use check_tools when a command is not found or the user's tool versions may be the problem.",
    example={"tool": "node"},
)
