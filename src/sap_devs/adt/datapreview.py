"""ADT data preview: table contents and ABAP SQL SELECTs, read-only and row-limited.

Both go to ``/sap/bc/adt/datapreview/...`` with the SELECT as a plain-text body; the answer is a
column-wise ``dataPreview:tableData`` document that is turned into rows here. The statement is
checked before it leaves (see ``abap_sql``): one SELECT, no statement separators, no data-changing
keywords, no other client unless the user allowed it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sap_devs.adt.abap_sql import QueryRefused, check_condition, check_select
from sap_devs.adt.client import AdtClient

NS = "{http://www.sap.com/adt/dataPreview}"
ACCEPT = "application/xml, application/vnd.sap.adt.datapreview.table.v1+xml"
MAX_ROWS = 1000

_NAME = re.compile(r"^[A-Z0-9_/]{1,30}$")


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    description: str
    key: bool


@dataclass(frozen=True)
class TableData:
    columns: list[Column]
    rows: list[dict[str, str]]
    total_rows: int | None
    executed_query: str
    execution_ms: float | None


def check_name(value: str, what: str) -> str:
    name = value.strip().upper()
    if not _NAME.match(name):
        raise QueryRefused(f"{what} {value!r} is not a valid ABAP name (letters, digits, _ and / only).")
    return name


def table_select(
    table: str, columns: list[str], where: str | None, order_by: list[str], *, cross_client: bool = False
) -> str:
    cols = ", ".join(f"{table}~{check_name(c, 'Column')}" for c in columns) if columns else "*"
    sql = f"SELECT {cols} FROM {table}"
    if where and where.strip():
        sql += f" WHERE {where.strip()}"
    if order_by:
        sql += " ORDER BY " + ", ".join(check_name(c, "Column") for c in order_by)
    checked = check_select(sql, cross_client=cross_client)
    if where and where.strip():
        check_condition(where.strip(), table)
    return checked


def parse_table_data(content: bytes) -> TableData:
    from sap_devs.core.xml import parse_xml

    root = parse_xml(content, source="data preview")
    columns: list[Column] = []
    values: list[list[str]] = []
    for col in root.iter(f"{NS}columns"):
        meta = col.find(f"{NS}metadata")
        attrs = {} if meta is None else {k.removeprefix(NS): v for k, v in meta.attrib.items()}
        columns.append(
            Column(
                name=attrs.get("name", f"COL{len(columns) + 1}"),
                type=attrs.get("type", ""),
                description=attrs.get("description", ""),
                key=attrs.get("keyAttribute") == "true",
            )
        )
        values.append([(d.text or "").rstrip() for d in col.iter(f"{NS}data")])
    count = max((len(v) for v in values), default=0)
    rows = [{c.name: (v[i] if i < len(v) else "") for c, v in zip(columns, values, strict=True)} for i in range(count)]
    total = root.findtext(f"{NS}totalRows")
    elapsed = root.findtext(f"{NS}queryExecutionTime")
    return TableData(
        columns=columns,
        rows=rows,
        total_rows=int(total) if total and total.strip().isdigit() else None,
        executed_query=" ".join((root.findtext(f"{NS}executedQueryString") or "").split()),
        execution_ms=float(elapsed) if elapsed and _is_number(elapsed) else None,
    )


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


async def run_preview(client: AdtClient, sql: str, *, max_rows: int, table: str | None = None) -> TableData:
    """POSTs the SELECT; a DDIC preview when ``table`` is given, else a freestyle query."""
    rows = str(max(1, min(max_rows, MAX_ROWS)))
    if table:
        path, params = "/sap/bc/adt/datapreview/ddic", {"rowNumber": rows, "ddicEntityName": table}
    else:
        path, params = "/sap/bc/adt/datapreview/freestyle", {"rowNumber": rows}
    response = await client.request("POST", path, accept=ACCEPT, content_type="text/plain", body=sql, params=params)
    return parse_table_data(response.content)
