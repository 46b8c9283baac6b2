"""explain-sap-concept: an SAP concept explained from sap-devs' context and the SAP documentation, with URLs."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.prompts import Prompt, PromptInput, choices
from sap_devs.mcp.prompts._sap import DOCS_PRODUCTS, PRODUCT_PACKS, PRODUCTS

Product = Literal[PRODUCTS]  # type: ignore[valid-type]


class Input(PromptInput):
    topic: str = Field(
        min_length=2, max_length=500, description="The concept, e.g. 'CDS associations', 'RAP draft', 'destinations'."
    )
    product: Product | None = Field(None, description=f"The SAP product it belongs to: {', '.join(PRODUCTS)}.")
    depth: Literal["minimal", "standard", "full"] = Field(
        "standard", description="minimal = the key idea; standard = + best practices; full = + anti-patterns."
    )


def render(params: Input, ctx: ToolContext) -> str:
    pack = PRODUCT_PACKS.get(params.product or "")
    docs_product = DOCS_PRODUCTS.get(params.product or "")
    context_call = (
        f"get_context with pack='{pack}' and verbosity='{params.depth}'"
        if pack
        else f"list_packs to find the pack the topic belongs to, then get_context for it with verbosity='{params.depth}'"
    )
    docs_filter = f" and product='{docs_product}'" if docs_product else ""
    return f"""Explain this SAP concept: {params.topic}

Answer from SAP's sources, not from memory:

1. Call {context_call}.
2. Call search_docs with query='{params.topic}'{docs_filter}, then read_doc the one or two best pages (pass the section search_docs names).
3. Explain the concept at {params.depth} depth: what it is, when to use it, a short example in the product's current syntax, and the rules that apply ('Never ...' constraints from get_context).
4. Cite the URL of every documentation page you used. Where the context and the documentation disagree, trust the documentation and say so."""


def _guidance_packs(params: Input, ctx: ToolContext) -> list[str] | None:
    pack = PRODUCT_PACKS.get(params.product or "")
    return ["base", pack] if pack else None


PROMPT = Prompt(
    name="explain-sap-concept",
    title="Explain an SAP concept",
    description="Explains an SAP concept (CAP, RAP, UI5, BTP ...) from sap-devs' context and the official SAP documentation, citing URLs.",
    input=Input,
    handler=render,
    complete={"product": choices(*PRODUCTS), "depth": choices("minimal", "standard", "full")},
    guidance_packs=_guidance_packs,
)
