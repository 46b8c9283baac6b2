"""review-project: the project and local tools checked, the profile's rules applied, a prioritised fix list."""

from __future__ import annotations

from pathlib import PurePath

from pydantic import Field, field_validator

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.prompts import Prompt, PromptInput, profile_ids


class Input(PromptInput):
    path: str | None = Field(
        None,
        min_length=1,
        max_length=4096,
        description="Absolute path of the project root; omit for the current folder.",
    )
    profile: str | None = Field(
        None, min_length=1, max_length=64, description="Profile whose rules apply, e.g. cap-developer."
    )

    @field_validator("path")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        if value is not None and not (PurePath(value).is_absolute() or value.startswith(("/", "\\"))):
            raise ValueError(f"must be an absolute path, got {value!r}")
        return value


def render(params: Input, ctx: ToolContext) -> str:
    kb = ctx.knowledge
    if params.profile and params.profile not in kb.profiles:
        from sap_devs.mcp.prompts import PromptError

        raise PromptError(f"Unknown profile {params.profile!r}.", hint=f"Use one of: {', '.join(sorted(kb.profiles))}.")
    profile = kb.profiles.get(params.profile) if params.profile else kb.profile
    target = f"path='{params.path}'" if params.path else "no path (the folder the server runs in)"
    if profile is not None:
        packs = ", ".join(p.id for p in profile.packs) or "base"
        rules = f"the rules of the {profile.name} profile: call get_context with verbosity='minimal' for each of its packs ({packs}) and read their 'Never ...' constraints"
    else:
        rules = "the rules of the packs that match what check_project detected: call get_context with verbosity='minimal' for each (e.g. pack='cap' for a CAP project) and read their 'Never ...' constraints"
    return f"""Review this SAP project and tell me what to fix first.

1. Call check_project with {target}. It detects the project type (CAP, UI5/Fiori, ABAP, MTA ...) and reports findings with severities.
2. Call check_tools to see whether the local SAP tools (cds, mbt, cf, ui5 ...) are installed in the versions the project needs.
3. Apply {rules}. Check the project's files against those rules where the findings point.
4. Answer with one prioritised list: blocking problems (the build or deployment fails) first, then security and authorisation, then deprecated APIs and versions, then style. For each item: what is wrong, where (file and line when known), the fix, and the rule or finding it comes from. End with what you could not check."""


def _guidance_packs(params: Input, ctx: ToolContext) -> list[str] | None:
    return None


PROMPT = Prompt(
    name="review-project",
    title="Review an SAP project",
    description="Checks the project and the local SAP tools, applies the profile's SAP rules and returns a prioritised list of what to fix.",
    input=Input,
    handler=render,
    complete={"profile": profile_ids},
    guidance_packs=_guidance_packs,
)
