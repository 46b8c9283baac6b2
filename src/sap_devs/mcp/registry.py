"""Finds every tool under ``sap_devs.mcp.tools`` and keeps the ones this environment may use.

There is no hand-kept list: a module that defines ``TOOL`` is a tool. Two tools with one name
are an error, not a silent override. The server starts from the prebuilt manifest of tool specs
and imports a tool's module on its first call.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from types import ModuleType

from sap_devs.core.errors import SapDevsError
from sap_devs.mcp.framework import ENVIRONMENTS, Tool, ToolSpec
from sap_devs.mcp.project_kinds import fits


class RegistryError(SapDevsError):
    pass


MODES = ("auto", "full", "progressive")
AUTO_THRESHOLD = 40  # selection accuracy drops past 30-50 tools (seed 004)
DEFAULT_PINNED = ("get_known_errors", "get_context", "search_docs")


def _tool_of(module: ModuleType) -> Tool | None:
    tool = getattr(module, "TOOL", None)
    if tool is None:
        return None
    if not isinstance(tool, Tool):
        raise RegistryError(f"{module.__name__}.TOOL is a {type(tool).__name__}, not a Tool definition.")
    expected = module.__name__.rsplit(".", 1)[-1]
    if tool.name != expected:
        raise RegistryError(f"{module.__name__} defines tool {tool.name!r}; the module must be named after its tool.")
    return tool


def discover(package: str = "sap_devs.mcp.tools") -> list[Tool]:
    """Import every module below ``package`` and collect the ``TOOL`` each defines."""
    root = importlib.import_module(package)
    tools: list[Tool] = []
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        if info.ispkg:
            continue
        tool = _tool_of(importlib.import_module(info.name))
        if tool is not None:
            tools.append(tool)
    return tools


class Registry:
    """The tools of one server, filtered by environment at construction."""

    def __init__(
        self,
        tools: Iterable[Tool | ToolSpec],
        *,
        environment: str = "onprem",
        system: bool = False,
        writes: bool = False,
        data: bool = False,
        transports: bool = False,
        execute: bool = False,
        project_kinds: frozenset[str] | None = None,
    ) -> None:
        """``system``: an ABAP system is configured; ``writes``: the user enabled changes to it;
        ``data``: the user allowed reading table contents and running SELECTs; ``transports``: the
        user allowed creating and releasing transport requests (on top of writes); ``execute``: the
        user allowed running code on the system (SAP_DEVS_ADT_EXECUTE, on top of writes); ``project_kinds``:
        the kinds of project the server's folder holds, so tools for other kinds are not listed
        (still callable; None lists every tool, as a team server and the docs do)."""
        if environment not in ENVIRONMENTS:
            raise RegistryError(
                f"Unknown SAP system environment {environment!r}.", hint=f"Use one of: {', '.join(ENVIRONMENTS)}."
            )
        self.environment = environment
        self.project_kinds = project_kinds
        self._specs: dict[str, ToolSpec] = {}
        self._loaded: dict[str, Tool] = {}
        seen: set[str] = set()
        for tool in tools:
            if tool.name in seen:
                raise RegistryError(f"Two tools are named {tool.name!r}; tool names must be unique.")
            seen.add(tool.name)
            if not tool.available(environment):
                continue  # filtered out at registration: neither listed nor callable
            if tool.needs_system and not system:
                continue  # ABAP tools only when a system is configured
            if tool.writes and not writes:
                continue  # read-only by default: write tools are neither listed nor callable
            if tool.reads_data and not data:
                continue  # business data stays on the system unless the user opts in
            if tool.manages_transports and not transports:
                continue  # a released transport cannot be taken back: a separate opt-in
            if tool.runs_code and not execute:
                continue  # running code is its own opt-in: not even listed while it would refuse
            if isinstance(tool, Tool):
                self._specs[tool.name] = tool.spec()
                self._loaded[tool.name] = tool
            else:
                self._specs[tool.name] = tool

    @classmethod
    def default(
        cls,
        *,
        environment: str = "onprem",
        system: bool = False,
        writes: bool = False,
        data: bool = False,
        transports: bool = False,
        execute: bool = False,
        prebuilt: bool = True,
        project_kinds: frozenset[str] | None = None,
    ) -> Registry:
        """From the prebuilt manifest when it matches the code on disk, else by importing every tool."""
        specs: list[Tool] | list[ToolSpec] | None = None
        if prebuilt:
            from sap_devs.mcp.manifest import load_specs

            specs = load_specs()
        if specs is None:
            specs = discover()
        return cls(
            specs,
            environment=environment,
            system=system,
            writes=writes,
            data=data,
            transports=transports,
            execute=execute,
            project_kinds=project_kinds,
        )

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(sorted(self._specs.values(), key=lambda t: (t.category, t.name)))

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def spec(self, name: str) -> ToolSpec | None:
        return self._specs.get(name)

    def get(self, name: str) -> Tool | None:
        """The callable tool, its module imported on first use; None for unknown or filtered tools."""
        spec = self._specs.get(name)
        if spec is None:
            return None
        if name not in self._loaded:
            tool = _tool_of(importlib.import_module(spec.module))
            if tool is None or tool.name != name:
                raise RegistryError(f"{spec.module} no longer defines tool {name!r}; regenerate the tool manifest.")
            self._loaded[name] = tool
        return self._loaded[name]

    def names(self) -> list[str]:
        return [t.name for t in self]

    def operations(self) -> list[ToolSpec]:
        """Every tool except the progressive-disclosure ones that search and call the others."""
        return [s for s in self if not s.progressive_only]

    def listed(self, mode: str, pinned: Iterable[str] = ()) -> list[ToolSpec]:
        """What tools/list shows: every operation that fits the project in full mode; search, schema, call
        and the pinned everyday tools in progressive mode."""
        if mode == "full":
            return [s for s in self.operations() if fits(s.project_kinds, self.project_kinds)]
        keep = set(pinned)
        return [s for s in self if s.progressive_only or s.name in keep]

    def resolve_mode(self, requested: str) -> str:
        """``auto`` means progressive once the operations outgrow what a model chooses from well."""
        if requested not in MODES:
            raise RegistryError(f"Unknown tools mode {requested!r}.", hint=f"Use one of: {', '.join(MODES)}.")
        if requested != "auto":
            return requested
        return "progressive" if len(self.operations()) > AUTO_THRESHOLD else "full"
