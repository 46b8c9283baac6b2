"""preview_table: rows of a database table or CDS view, as the ADT data preview shows them."""

from __future__ import annotations

from pydantic import Field

from sap_devs.mcp.framework import Tool, ToolContext, ToolInput
from sap_devs.mcp.tools.abap._shared import ALL_SYSTEMS, name_field
from sap_devs.mcp.tools.abap.data._rows import ROWS_FIELD, Output, to_output


class Input(ToolInput):
    name: str = name_field("Table or CDS view name", "T000")
    columns: list[str] = Field(default_factory=list, max_length=100, description="Columns to return (default: all).")
    where: str | None = Field(
        None,
        max_length=2000,
        description="ABAP SQL condition on this table's columns without the WHERE keyword, e.g. MTEXT LIKE '%Test%' "
        "(no subqueries, ORDER BY or UNION).",
    )
    order_by: list[str] = Field(default_factory=list, max_length=10, description="Columns to sort by.")
    max_rows: int = ROWS_FIELD


async def handle(params: Input, ctx: ToolContext) -> Output:
    from sap_devs.adt.datapreview import check_name, run_preview, table_select

    table = check_name(params.name, "Table")
    cross_client = ctx.policy().cross_client
    sql = table_select(table, params.columns, params.where, params.order_by, cross_client=cross_client)
    data = await run_preview(ctx.adt(), sql, max_rows=params.max_rows, table=table)
    return to_output(data, sql)


TOOL = Tool(
    name="preview_table",
    title="ABAP table contents",
    description="Rows of a database table or CDS view on the user's system (ADT data preview): optional columns, condition, order and row limit. Read-only; enabled only with SAP_DEVS_ADT_DATA=1.",
    category="abap",
    action="read",
    input=Input,
    output=Output,
    handler=handle,
    available_in=ALL_SYSTEMS,
    needs_system=True,
    reads_data=True,
    example={"name": "T000", "columns": ["MANDT", "MTEXT"], "max_rows": 10},
)
