"""Finds every tool module under ``sap_devs.mcp.tools`` and keeps the ones this environment may use.

There is no hand-kept list: a module that defines ``TOOL`` is a tool. Two tools with one name
are an error at start-up, not a silent override.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from types import ModuleType

from sap_devs.core.errors import SapDevsError
from sap_devs.mcp.framework import ENVIRONMENTS, Tool


class RegistryError(SapDevsError):
    pass


def discover(package: str = "sap_devs.mcp.tools") -> list[Tool]:
    """Import every module below ``package`` and collect the ``TOOL`` each defines."""
    root = importlib.import_module(package)
    tools: list[Tool] = []
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        if info.ispkg:
            continue
        module: ModuleType = importlib.import_module(info.name)
        tool = getattr(module, "TOOL", None)
        if tool is None:
            continue
        if not isinstance(tool, Tool):
            raise RegistryError(f"{info.name}.TOOL is a {type(tool).__name__}, not a Tool definition.")
        expected = info.name.rsplit(".", 1)[-1]
        if tool.name != expected:
            raise RegistryError(f"{info.name} defines tool {tool.name!r}; the module must be named after its tool.")
        tools.append(tool)
    return tools


class Registry:
    """The tools of one server, filtered by environment at construction."""

    def __init__(self, tools: Iterable[Tool], *, environment: str = "onprem") -> None:
        if environment not in ENVIRONMENTS:
            raise RegistryError(
                f"Unknown SAP system environment {environment!r}.", hint=f"Use one of: {', '.join(ENVIRONMENTS)}."
            )
        self.environment = environment
        self._tools: dict[str, Tool] = {}
        seen: set[str] = set()
        for tool in tools:
            if tool.name in seen:
                raise RegistryError(f"Two tools are named {tool.name!r}; tool names must be unique.")
            seen.add(tool.name)
            if tool.available(environment):
                self._tools[tool.name] = tool

    @classmethod
    def default(cls, *, environment: str = "onprem") -> Registry:
        return cls(discover(), environment=environment)

    def __iter__(self) -> Iterator[Tool]:
        return iter(sorted(self._tools.values(), key=lambda t: (t.category, t.name)))

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return [t.name for t in self]
