"""ADT data preview: table contents and ABAP SQL SELECTs, read-only and row-limited.

Both go to ``/sap/bc/adt/datapreview/...`` with the SELECT as a plain-text body; the answer is a
column-wise ``dataPreview:tableData`` document that is turned into rows here. The statement is
checked before it leaves: one SELECT, no statement separators, no data-changing keywords.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sap_devs.adt.client import AdtClient
from sap_devs.adt.errors import AdtError

NS = "{http://www.sap.com/adt/dataPreview}"
ACCEPT = "application/xml, application/vnd.sap.adt.datapreview.table.v1+xml"
MAX_ROWS = 1000

_NAME = re.compile(r"^[A-Z0-9_/]{1,30}$")
_LITERAL = re.compile(r"'(?:[^']|'')*'|`(?:[^`]|``)*`")
_COMMENT = re.compile(r'^\s*\*.*$|"[^\n]*', re.MULTILINE)
_FORBIDDEN = re.compile(
    r"\b(INSERT|UPDATE|DELETE|MODIFY|COMMIT|ROLLBACK|CALL|EXEC|EXECUTE|GRANT|REVOKE|DROP|ALTER|CREATE|TRUNCATE|MERGE|UPSERT|LOCK)\b",
    re.IGNORECASE,
)


class QueryRefused(AdtError):
    pass


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


def check_select(statement: str) -> str:
    """The statement if it is one read-only SELECT; a clear refusal otherwise."""
    text = statement.strip().rstrip(".").strip()
    bare = _COMMENT.sub(" ", _LITERAL.sub("''", text))
    if not re.match(r"^\s*(SELECT|WITH)\b", bare, re.IGNORECASE):
        raise QueryRefused("Only ABAP SQL SELECT statements (or WITH ... SELECT) can be run.")
    if ";" in bare or "." in re.sub(r"\d\.\d", "", bare):
        raise QueryRefused("Run one SELECT at a time: statement separators (';' or '.') are not allowed.")
    if match := _FORBIDDEN.search(bare):
        raise QueryRefused(f"The query contains {match.group(1).upper()}; only reading SELECTs are allowed.")
    if re.search(r"\b(INTO|APPENDING)\b", bare, re.IGNORECASE):
        raise QueryRefused("Leave out INTO/APPENDING: the preview decides where the rows go.")
    return text


def table_select(table: str, columns: list[str], where: str | None, order_by: list[str]) -> str:
    cols = ", ".join(f"{table}~{check_name(c, 'Column')}" for c in columns) if columns else "*"
    sql = f"SELECT {cols} FROM {table}"
    if where:
        sql += f" WHERE {where.strip()}"
    if order_by:
        sql += " ORDER BY " + ", ".join(check_name(c, "Column") for c in order_by)
    return check_select(sql)


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
