"""MCP prompts: SAP workflows a user picks as slash commands (``/mcp__sap-devs__fix-error`` ...).

Each module in this package defines one ``PROMPT`` (its name, typed arguments, completion and the
handler that writes the prompt text), like the tools do; ``discover`` collects them, no hand-kept
list. The SAP knowledge in a prompt comes from the packs: a ``prompts.yaml`` item whose id is a
built-in prompt's name adds guidance to it, any other id is a prompt of its own (how a company pack
adds its slash commands). Pack prompts are content only, so untrusted layers may give them; every
one that did not ship with sap-devs says where it comes from.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from sap_devs.core.errors import SapDevsError

if TYPE_CHECKING:
    from sap_devs.knowledge.base import KnowledgeBase
    from sap_devs.knowledge.models import PackPrompt
    from sap_devs.mcp.framework import ToolContext

MAX_VALUE = 20_000
"""Longest argument value a prompt takes (a pasted stack trace fits)."""
MAX_COMPLETIONS = 100  # the protocol's cap on completion values per answer

Completer = Callable[["ToolContext", dict[str, str]], list[str]]
"""Known values of one argument, given the arguments already filled in."""


class PromptError(SapDevsError):
    """An unknown prompt or invalid arguments: the client shows the message to the user."""


class PromptInput(BaseModel):
    """Base for prompt arguments. The protocol passes strings; unknown arguments are refused."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


@dataclass(frozen=True)
class Prompt:
    name: str
    title: str
    description: str
    input: type[PromptInput]
    handler: Callable[[Any, ToolContext], str]
    """Writes the prompt text from the validated arguments."""
    complete: dict[str, Completer] = field(default_factory=dict)
    guidance_packs: Callable[[Any, ToolContext], list[str] | None] = lambda _params, _ctx: None
    """Packs whose ``prompts.yaml`` guidance applies to these arguments; None: every pack's."""

    def arguments(self) -> list[tuple[str, str, bool]]:
        """(name, description, required) of each argument, from the input model."""
        return [(name, info.description or "", info.is_required()) for name, info in self.input.model_fields.items()]


def _prompt_of(module: Any) -> Prompt | None:
    prompt = getattr(module, "PROMPT", None)
    if prompt is None:
        return None
    if not isinstance(prompt, Prompt):
        raise PromptError(f"{module.__name__}.PROMPT is a {type(prompt).__name__}, not a Prompt definition.")
    if prompt.name.replace("-", "_") != module.__name__.rsplit(".", 1)[-1]:
        raise PromptError(f"{module.__name__} defines prompt {prompt.name!r}; the module must be named after it.")
    return prompt


def discover(package: str = __name__) -> list[Prompt]:
    """Every ``PROMPT`` defined below ``package``, in name order; two with one name are an error."""
    root = importlib.import_module(package)
    found: dict[str, Prompt] = {}
    for info in pkgutil.iter_modules(root.__path__, prefix=f"{package}."):
        if info.ispkg or info.name.rsplit(".", 1)[-1].startswith("_"):
            continue
        prompt = _prompt_of(importlib.import_module(info.name))
        if prompt is None:
            continue
        if prompt.name in found:
            raise PromptError(f"Two prompts are named {prompt.name!r}; prompt names must be unique.")
        found[prompt.name] = prompt
    return [found[name] for name in sorted(found)]


# -- rendering helpers shared by the prompt modules -------------------------------------------------


def origin_note(item: Any) -> str | None:
    found = getattr(item, "_origin", None)
    if found is None:
        return None
    layer, file = found
    return f"> From the {layer} layer ({file}), not from sap-devs' bundled SAP content."


def fill(text: str, values: dict[str, str]) -> str:
    """``{name}`` placeholders replaced by the values; unknown names stay as written, nothing is evaluated."""
    from sap_devs.knowledge.models import PROMPT_PLACEHOLDER

    return PROMPT_PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def pack_ids(ctx: ToolContext, _filled: dict[str, str] | None = None) -> list[str]:
    return ctx.knowledge.pack_ids


def profile_ids(ctx: ToolContext, _filled: dict[str, str] | None = None) -> list[str]:
    return sorted(ctx.knowledge.profiles)


def choices(*values: str) -> Completer:
    return lambda _ctx, _filled: list(values)


# -- the catalogue the server serves ----------------------------------------------------------------


@dataclass
class ListedPrompt:
    name: str
    title: str | None
    description: str | None
    arguments: list[tuple[str, str, bool]]


def _pack_prompts(kb: KnowledgeBase) -> list[tuple[str, PackPrompt]]:
    """(pack id, item) of every pack prompt, in pack order."""
    return [(pack.id, item) for pack in kb.packs for item in pack.prompts]


class Catalog:
    """The prompts of one server: the built-in ones and those the loaded packs add."""

    def __init__(self, ctx: ToolContext, builtin: list[Prompt] | None = None, *, progressive: bool = False) -> None:
        self.ctx = ctx
        self._builtin = builtin
        self.progressive = progressive
        """Tools not listed directly are found with search_tools and run with call_tool: the text says so."""

    @property
    def builtin(self) -> dict[str, Prompt]:
        if self._builtin is None:
            self._builtin = discover()
        return {p.name: p for p in self._builtin}

    def _own(self) -> dict[str, tuple[str, PackPrompt]]:
        """Pack prompts that are prompts of their own (not guidance for a built-in one); first pack wins."""
        own: dict[str, tuple[str, PackPrompt]] = {}
        for pack_id, item in _pack_prompts(self.ctx.knowledge):
            if item.id not in self.builtin and item.id not in own:
                own[item.id] = (pack_id, item)
        return own

    def listed(self) -> list[ListedPrompt]:
        out = [ListedPrompt(p.name, p.title, p.description, p.arguments()) for p in self.builtin.values()]
        for name, (pack_id, item) in sorted(self._own().items()):
            found = getattr(item, "_origin", None)
            source = f"{found[0]} layer, pack {pack_id}" if found else f"pack {pack_id}"
            description = f"{item.description or item.title or name} (from the {source})"
            args = [(a.name, a.description, a.required) for a in item.arguments]
            out.append(ListedPrompt(name, item.title, description, args))
        return out

    def get(self, name: str, arguments: dict[str, str] | None) -> tuple[str, str]:
        """(description, text) of one prompt; PromptError for an unknown name or invalid arguments."""
        arguments = dict(arguments or {})
        for key, value in arguments.items():
            if not isinstance(value, str):
                raise PromptError(f"Argument {key!r} of prompt {name!r} must be a string.")
            if len(value) > MAX_VALUE:
                raise PromptError(f"Argument {key!r} of prompt {name!r} is longer than {MAX_VALUE} characters.")
        prompt = self.builtin.get(name)
        if prompt is not None:
            return prompt.description, self._render_builtin(prompt, arguments)
        own = self._own().get(name)
        if own is None:
            names = ", ".join(p.name for p in self.listed())
            raise PromptError(f"Unknown prompt {name!r}.", hint=f"Available prompts: {names}.")
        return own[1].description or own[1].title or name, self._render_pack(name, own[1], arguments)

    def _render_builtin(self, prompt: Prompt, arguments: dict[str, str]) -> str:
        # empty strings are what clients send for optional arguments left blank
        given = {k: v for k, v in arguments.items() if v.strip() or k not in prompt.input.model_fields}
        try:
            params = prompt.input.model_validate(given)
        except ValidationError as exc:
            raise PromptError(_describe(prompt.name, prompt.arguments(), exc)) from None
        text = prompt.handler(params, self.ctx)
        wanted = prompt.guidance_packs(params, self.ctx)
        values = {k: "" if v is None else str(v) for k, v in params.model_dump().items()}
        guidance = []
        for pack_id, item in _pack_prompts(self.ctx.knowledge):
            if item.id == prompt.name and (wanted is None or pack_id in wanted):
                note = origin_note(item)
                body = fill(item.text, values).strip()
                guidance.append(f"{note}\n\n{body}" if note else body)
        if guidance:
            text += "\n\n## SAP guidance\n\n" + "\n\n".join(guidance)
        if self.progressive:
            text += (
                "\n\nThe sap-devs tools named here may not be listed directly: run them with call_tool "
                "(get_tool_schemas gives their parameters)."
            )
        return text

    def _render_pack(self, name: str, item: PackPrompt, arguments: dict[str, str]) -> str:
        declared = {a.name: a for a in item.arguments}
        unknown = sorted(set(arguments) - set(declared))
        if unknown:
            raise PromptError(
                f"Prompt {name!r} has no argument {', '.join(map(repr, unknown))}.",
                hint=f"Its arguments: {', '.join(declared) or 'none'}.",
            )
        missing = [a.name for a in item.arguments if a.required and not arguments.get(a.name, "").strip()]
        if missing:
            raise PromptError(f"Prompt {name!r} needs the argument {', '.join(map(repr, missing))}.")
        values = {a.name: arguments.get(a.name, "").strip() for a in item.arguments}
        body = fill(item.text, values).strip()
        note = origin_note(item)
        return f"{note}\n\n{body}" if note else body

    def complete(self, name: str, argument: str, value: str, filled: dict[str, str] | None = None) -> list[str]:
        """Known values of one argument starting with ``value`` (case-insensitive); [] when none are known."""
        prompt = self.builtin.get(name)
        known: list[str] = []
        if prompt is not None:
            completer = prompt.complete.get(argument)
            known = completer(self.ctx, dict(filled or {})) if completer else []
        else:
            own = self._own().get(name)
            if own is not None:
                known = next((a.values for a in own[1].arguments if a.name == argument), [])
        return starting_with(known, value)


def starting_with(known: list[str], value: str) -> list[str]:
    lowered = value.lower()
    return [v for v in known if v.lower().startswith(lowered)][:MAX_COMPLETIONS]


def _describe(name: str, arguments: list[tuple[str, str, bool]], exc: ValidationError) -> str:
    problems = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "not an argument of this prompt"
        elif error["type"] == "missing":
            message = "required"
        problems.append(f"{where}: {message}")
    usage = ", ".join(f"{n}{'' if required else '?'}" for n, _d, required in arguments)
    return f"Invalid arguments for prompt {name} ({usage}): " + "; ".join(problems) + "."
