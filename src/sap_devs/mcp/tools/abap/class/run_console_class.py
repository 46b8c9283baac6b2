"""run_console_class: run a class implementing IF_OO_ADT_CLASSRUN and return its console output."""

from __future__ import annotations

from sap_devs.mcp.framework import Annotations, Tool, ToolContext, ToolInput, ToolOutput
from sap_devs.mcp.tools.abap._shared import MODERN, name_field


class Input(ToolInput):
    name: str = name_field("Class name", "ZCL_DEMO_RUN")


class Output(ToolOutput):
    name: str
    package: str | None = None
    output: str
    truncated: bool


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.classrun import run_console_class

    run = await run_console_class(ctx.adt(), ctx.policy(), params.name)
    return Output(name=run.name, package=run.package, output=run.output, truncated=run.truncated)


TOOL = Tool(
    name="run_console_class",
    title="Run ABAP console class",
    description="Run an ABAP console class (IF_OO_ADT_CLASSRUN) and return what it prints. Executes code: only with --allow-writes and SAP_DEVS_ADT_EXECUTE=1, allowed packages only.",
    category="abap",
    action="execute",
    input=Input,
    output=Output,
    handler=handle,
    annotations=Annotations(read_only=False, destructive=True, idempotent=False, open_world=True),
    available_in=MODERN,
    needs_system=True,
    runs_code=True,
    example={"name": "ZCL_DEMO_RUN"},
)
