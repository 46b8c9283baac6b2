"""The answer both data tools give: columns, rows and whether more rows exist."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sap_devs.adt.datapreview import MAX_ROWS, TableData
from sap_devs.mcp.framework import ToolOutput

ROWS_FIELD = Field(100, ge=1, le=MAX_ROWS, description=f"Most rows to return (1-{MAX_ROWS}).")


class ColumnInfo(BaseModel):
    name: str
    type: str = Field(description="ABAP type code as the system reports it (C, N, P, ...).")
    description: str = ""
    key: bool = False


class Output(ToolOutput):
    query: str = Field(description="The SELECT the system ran.")
    columns: list[ColumnInfo]
    rows: list[dict[str, str]] = Field(description="One object per row, keyed by column name.")
    total_rows: int | None = Field(None, description="Rows matching the query, when the system says.")
    truncated: bool = Field(description="More rows exist than were returned: raise max_rows or narrow the query.")
    execution_ms: float | None = None


def to_output(data: TableData, sent: str) -> Output:
    truncated = data.total_rows is not None and data.total_rows > len(data.rows)
    return Output(
        query=data.executed_query or sent,
        columns=[ColumnInfo(name=c.name, type=c.type, description=c.description, key=c.key) for c in data.columns],
        rows=data.rows,
        total_rows=data.total_rows,
        truncated=truncated,
        execution_ms=data.execution_ms,
    )
