"""fix-error: an SAP error message in, its known cause and fix (with sources) out."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.prompts import MAX_VALUE, Prompt, PromptInput, pack_ids


class Input(PromptInput):
    message: str = Field(
        min_length=3, max_length=MAX_VALUE, description="The error message or stack trace, pasted as it is."
    )
    pack: str | None = Field(None, min_length=1, max_length=64, description="Pack to search first, e.g. cap.")


def render(params: Input, ctx: ToolContext) -> str:
    if params.pack and params.pack not in ctx.knowledge.pack_ids:
        from sap_devs.mcp.prompts import PromptError

        raise PromptError(f"Unknown pack {params.pack!r}.", hint=f"Use one of: {', '.join(ctx.knowledge.pack_ids)}.")
    scope = f", pack='{params.pack}'" if params.pack else ""
    fence = "````" if "```" in params.message else "```"
    return f"""Fix this SAP error.

{fence}text
{params.message}
{fence}

Do this with the sap-devs tools, not from memory:

1. Call get_known_errors with query set to the error as pasted (a whole log or stack trace is fine: it matches on the error lines){scope}. An `exact` or `likely` result gives the cause, the fix and a documentation link; `weak` results share only a few words, and with none better its `docs` field lists the documentation sections to read instead.
2. Call search_docs with the error's key terms (product, error code, the API or annotation it names) and read_doc the best page if the match needs detail.
3. Answer with: the cause in one or two sentences, the fix as concrete steps or code, and the sources you used (the known error's id and docs URL, the documentation pages' URLs).
4. If nothing matches, say so plainly, then reason from get_context for the product involved and name what to check next (logs, versions with check_tools, the project with check_project). Do not invent SAP error codes or notes."""


PROMPT = Prompt(
    name="fix-error",
    title="Fix an SAP error",
    description="Paste an SAP error message or stack trace: the agent looks up its known cause and fix and the SAP documentation, and answers with sources.",
    input=Input,
    handler=render,
    complete={"pack": pack_ids},
)
