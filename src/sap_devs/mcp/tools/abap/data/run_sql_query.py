"""run_sql_query: one ABAP SQL SELECT through the ADT freestyle data preview."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput
from sap_devs.mcp.tools.abap._shared import CLASSIC
from sap_devs.mcp.tools.abap.data._rows import ROWS_FIELD, Output, to_output


class Input(ToolInput):
    query: str = Field(
        min_length=6,
        max_length=10_000,
        description="One ABAP SQL SELECT (joins, aggregates, WITH allowed; no INTO, no ';' or '.', logon client only).",
        examples=["SELECT carrid, COUNT(*) AS flights FROM sflight GROUP BY carrid"],
    )
    max_rows: int = ROWS_FIELD


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.datapreview import check_select, run_preview

    sql = check_select(params.query, cross_client=ctx.policy().cross_client)
    data = await run_preview(ctx.adt(), sql, max_rows=params.max_rows)
    return to_output(data, sql)


TOOL = Tool(
    name="run_sql_query",
    title="ABAP SQL query",
    description="Run one read-only ABAP SQL SELECT on the user's system (joins and aggregates allowed) and return the rows. Not on SAP BTP ABAP environment; enabled only with SAP_DEVS_ADT_DATA=1.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=CLASSIC,
    needs_system=True,
    reads_data=True,
    example={"query": "SELECT mandt, mtext FROM t000", "max_rows": 10},
)
