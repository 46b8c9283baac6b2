"""One place that turns the user's settings into a registry and a tool context.

Used by the MCP server, ``sap-devs tools`` and the Python API, so all three see the same tools:
ABAP tools only with a configured system (SAP_URL ...), write tools only when writes are enabled.
"""

from __future__ import annotations

import os
from pathlib import Path

from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry


def open_session(
    *,
    environment: str | None = None,
    profile: str | None = None,
    allow_writes: bool = False,
    cwd: Path | None = None,
    layers: list | None = None,
    system: str | None = None,
    project_kinds: frozenset[str] | None = None,
) -> tuple[Registry, ToolContext]:
    from sap_devs.adt.config import configured
    from sap_devs.adt.safety import SafetyPolicy

    config = configured(system)  # AdtConfigError says what to fix
    policy = SafetyPolicy.from_env(allow_writes=allow_writes)
    env = environment or (config.system_type if config else os.environ.get("SAP_SYSTEM_TYPE", "onprem"))
    if project_kinds is not None and config is not None:
        project_kinds = project_kinds | {"abap"}  # a configured ABAP system makes ABAP code checks fit too
    registry = Registry.default(
        environment=env,
        system=config is not None,
        writes=policy.writes,
        data=policy.data,
        transports=policy.transports,
        execute=policy.execute,
        project_kinds=project_kinds,
    )
    ctx = ToolContext(
        cwd=cwd or Path(os.getcwd()),
        profile_id=profile,
        environment=env,  # type: ignore[arg-type]
        layers=layers,
        adt_config=config,
        safety=policy,
        registry=registry,
    )
    return registry, ctx
