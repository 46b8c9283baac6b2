"""What a tool is: its definition (name, schemas, annotations, environments) beside its handler.

Each module under ``sap_devs.mcp.tools`` defines one ``TOOL``; the registry collects them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from sap_devs.core.errors import SapDevsError

if TYPE_CHECKING:
    from sap_devs.adt.client import AdtClient
    from sap_devs.adt.config import AdtConfig
    from sap_devs.adt.safety import SafetyPolicy
    from sap_devs.knowledge.base import KnowledgeBase
    from sap_devs.knowledge.layer_paths import Layer

Environment = Literal["onprem", "cloud", "legacy"]
Action = Literal["read", "list", "search", "create", "update", "delete", "execute"]
Risk = Literal["low", "medium", "high"]
ENVIRONMENTS: tuple[Environment, ...] = ("onprem", "cloud", "legacy")
ANY_ENVIRONMENT = frozenset({"any"})
CATEGORIES = ("knowledge", "docs", "doctor", "project", "learning", "news", "discovery", "abap", "meta")

InputT = TypeVar("InputT", bound=BaseModel)
OutputT = TypeVar("OutputT", bound=BaseModel)
ItemT = TypeVar("ItemT")


class ToolError(SapDevsError):
    """A business failure the agent can act on; becomes an ``isError: true`` result."""


class ToolInput(BaseModel):
    """Base for tool inputs: unknown parameters are rejected so typos surface instead of being ignored."""

    model_config = ConfigDict(extra="forbid")


SEARCH_LIMIT = (10, 50)
LIST_LIMIT = (20, 100)
NEWS_LIMIT = (5, 50)  # newest-first feeds: a handful is what an answer needs


def limit_field(kind: tuple[int, int], noun: str) -> Any:
    """The ``limit`` parameter: search tools default 10 (max 50), list tools 20 (max 100)."""
    default, maximum = kind
    return Field(default, ge=1, le=maximum, description=f"Max {noun} to return.")


def pack_field(purpose: str) -> Any:
    return Field(None, min_length=1, description=f"Pack id to {purpose}, e.g. 'cap' (see list_packs); omit for all.")


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Envelope(ToolOutput, Generic[ItemT]):
    """Every list-returning tool answers in this shape."""

    count: int = Field(description="Number of results returned in this response.")
    total: int = Field(description="Number of matches before the limit was applied.")
    results: list[ItemT] = Field(description="The matching items, best first.")
    hint: str | None = Field(None, description="What to do next: refine, widen, or sync. Absent when all is well.")

    @classmethod
    def build(
        cls,
        items: list[Any],
        *,
        limit: int,
        entity: str,
        query: str | None = None,
        hint: str | None = None,
        total: int | None = None,
        refine_hint: bool = True,
    ) -> Envelope[Any]:
        """Cut ``items`` to ``limit`` and add the standard hint (seed 000, change 2) unless one is given.

        ``total`` is for callers that cut the list themselves before producing the items;
        ``refine_hint=False`` drops the "refine your query" advice for lists that are meant to be cut
        (newest first, for example).
        """
        total = len(items) if total is None else total
        shown = items[:limit]
        if hint is None:
            if total == 0 and query:
                hint = f"No {entity} matched '{query}'. Try broader terms."
            elif total == 0:
                hint = f"No {entity} available."
            elif len(shown) < total and refine_hint:
                hint = f"Showing {len(shown)} of {total} {entity}. Refine your query for better results."
        return cls(count=len(shown), total=total, results=shown, hint=hint)

    def add_note(self, note: str | None) -> Envelope[ItemT]:
        """Append a note (where the data came from, how old it is) to the hint."""
        if note:
            self.hint = f"{self.hint} {note}" if self.hint else note
        return self


@dataclass(frozen=True)
class Annotations:
    """MCP tool annotations; every tool states all four hints explicitly."""

    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool

    def as_mcp(self, title: str) -> dict[str, Any]:
        return {
            "title": title,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


READ_ONLY_LOCAL = Annotations(read_only=True, destructive=False, idempotent=True, open_world=False)
READ_ONLY_RANDOM = Annotations(read_only=True, destructive=False, idempotent=False, open_world=False)


@dataclass
class ToolContext:
    """What a handler may use: the working folder, the profile, and knowledge loaded on first use."""

    cwd: Path = field(default_factory=lambda: Path(os.getcwd()))
    profile_id: str | None = None
    environment: Environment = "onprem"
    layers: list[Layer] | None = None
    endpoints: dict[str, str] = field(default_factory=dict)
    """Base URLs replacing the real SAP hosts (tests point them at loopback servers)."""
    registry: Any = None
    """The server's Registry, for the progressive-disclosure tools that search and call other tools."""
    adt_config: AdtConfig | None = None
    safety: SafetyPolicy | None = None
    _adt: AdtClient | None = None

    def adt(self) -> AdtClient:
        """The connection to the configured ABAP system, opened on first use."""
        if self.adt_config is None:
            raise ToolError(
                "No SAP system is configured.",
                hint="Set SAP_URL, SAP_USER, SAP_PASSWORD and SAP_CLIENT, then restart the server.",
            )
        if self.adt_config.credentials_per_request:  # a team HTTP server: each request logs on as its caller
            from sap_devs.adt.client import request_client

            return request_client(self.adt_config)
        if self._adt is None:
            from sap_devs.adt.client import AdtClient

            self._adt = AdtClient(self.adt_config)
        return self._adt

    def policy(self) -> SafetyPolicy:
        if self.safety is None:
            from sap_devs.adt.safety import SafetyPolicy

            self.safety = SafetyPolicy()
        return self.safety

    _knowledge: KnowledgeBase | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def knowledge(self) -> KnowledgeBase:
        if self._knowledge is None:
            with self._lock:  # the background warm-up and a first tool call may race here
                if self._knowledge is None:
                    from sap_devs.knowledge.base import KnowledgeBase

                    self._knowledge = KnowledgeBase.load(self.profile_id, cwd=self.cwd, layers=self.layers)
        return self._knowledge


Handler = Callable[[Any, ToolContext], Awaitable[BaseModel]]


class _Gates:
    """Where a tool (or its spec) may be registered; both carry the fields these read."""

    needs_system: bool
    annotations: Annotations
    available_in: frozenset[str]

    @property
    def writes(self) -> bool:
        """Changes an ABAP system: registered only when writes are enabled."""
        return self.needs_system and not self.annotations.read_only

    def available(self, environment: str) -> bool:
        return "any" in self.available_in or environment in self.available_in


@dataclass(frozen=True)
class ToolSpec(_Gates):
    """Everything about a tool except its code: enough to list it, document it and find its module.

    The server lists tools from specs stored in a prebuilt manifest and imports a tool's module
    only when the tool is first called, which keeps start-up short.
    """

    name: str
    title: str
    description: str
    category: str
    module: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: Annotations
    action: Action = "read"
    risk: Risk = "low"
    available_in: frozenset[str] = ANY_ENVIRONMENT
    instruction: str | None = None
    example: dict[str, Any] = field(default_factory=dict)
    progressive_only: bool = False
    needs_system: bool = False
    reads_data: bool = False
    manages_transports: bool = False
    runs_code: bool = False
    project_kinds: frozenset[str] = frozenset()

    @property
    def summary(self) -> str:
        """The description's first sentence."""
        first = self.description.split(". ", 1)[0].rstrip(".")
        return first + "."

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["annotations"] = asdict(self.annotations)
        data["available_in"] = sorted(self.available_in)
        data["project_kinds"] = sorted(self.project_kinds)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToolSpec:
        known = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        known["annotations"] = Annotations(**data["annotations"])
        known["available_in"] = frozenset(data["available_in"])
        known["project_kinds"] = frozenset(data.get("project_kinds", ()))
        return cls(**known)


@dataclass(frozen=True)
class Tool(_Gates, Generic[InputT, OutputT]):
    name: str
    title: str
    description: str
    category: str
    input: type[InputT]
    output: type[OutputT] | None
    """None for a pass-through tool (call_tool) whose handler returns another tool's Outcome."""
    handler: Callable[[InputT, ToolContext], Awaitable[Any]]
    action: Action = "read"
    risk: Risk | None = None
    """Defaults to low for read-only tools and high for anything that writes."""
    annotations: Annotations = READ_ONLY_LOCAL
    available_in: frozenset[str] = ANY_ENVIRONMENT
    instruction: str | None = None
    """One sentence for the server instructions: when an agent should reach for this tool."""
    example: dict[str, Any] = field(default_factory=dict)
    """Arguments of one realistic call, used in docs and tests."""
    progressive_only: bool = False
    """Listed only in progressive mode (the search / schema / call tools)."""
    needs_system: bool = False
    """Works on the user's ABAP system: registered only when one is configured (SAP_URL)."""
    reads_data: bool = False
    """Returns business data rows (table preview, SQL): registered only when data access is enabled."""
    manages_transports: bool = False
    """Creates or releases transport requests: registered only when writes and transports are enabled."""
    runs_code: bool = False
    """Executes code on the system (console classes): registered only when writes and execution
    (SAP_DEVS_ADT_EXECUTE) are enabled; the handler checks the policy again at call time."""
    project_kinds: frozenset[str] = frozenset()
    """Kinds of project the tool is for ('cap', 'ui5', 'abap'; see mcp.project_kinds): a stdio server
    lists it only when its folder is such a project; search_tools and call_tool reach it always."""

    @property
    def effective_risk(self) -> Risk:
        if self.risk is not None:
            return self.risk
        return "low" if self.annotations.read_only else "high"

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        return self.input.model_json_schema()

    @cached_property
    def output_schema(self) -> dict[str, Any] | None:
        return self.output.model_json_schema() if self.output is not None else None

    def spec(self) -> ToolSpec:
        shared = {f.name: getattr(self, f.name) for f in fields(ToolSpec) if f.name not in ("module", "risk")}
        return ToolSpec(**shared, module=self.handler.__module__, risk=self.effective_risk)
