"""Table contents and SELECT queries: off unless enabled, read-only, row-limited, checked before sending."""

from __future__ import annotations

import pytest

from sap_devs.mcp.registry import Registry
from tests.fake_adt import FakeAdt
from tests.test_abap_tools import ALL, PASSWORD, call, context, ok

pytestmark = pytest.mark.anyio


@pytest.fixture
def adt():
    with FakeAdt(password=PASSWORD).running() as fake:
        yield fake


def test_data_tools_are_hidden_until_enabled() -> None:
    plain = Registry(ALL, system=True, writes=True).names()
    assert "preview_table" not in plain and "run_sql_query" not in plain
    enabled = Registry(ALL, system=True, data=True).names()
    assert {"preview_table", "run_sql_query"} <= set(enabled)
    cloud = Registry(ALL, environment="cloud", system=True, data=True).names()
    assert "preview_table" in cloud and "run_sql_query" not in cloud, "no freestyle SQL on ABAP Cloud"


def test_session_reads_the_data_switch_from_the_environment(monkeypatch) -> None:
    from sap_devs.mcp.session import open_session

    monkeypatch.setenv("SAP_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("SAP_USER", "DEVELOPER")
    monkeypatch.setenv("SAP_PASSWORD", PASSWORD)
    registry, _ = open_session()
    assert "preview_table" not in registry.names()
    monkeypatch.setenv("SAP_DEVS_ADT_DATA", "1")
    registry, _ = open_session()
    assert "preview_table" in registry.names()


async def test_preview_table_returns_rows_by_column(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, data=True)
    result = await ok(ctx, "preview_table", name="t000", columns=["mandt", "mtext", "ort01"], max_rows=50)
    endpoint, sql, query = adt.queries[-1]
    assert endpoint == "ddic" and query["ddicEntityName"] == ["T000"] and query["rowNumber"] == ["50"]
    assert sql == "SELECT T000~MANDT, T000~MTEXT, T000~ORT01 FROM T000"
    assert [row["MANDT"] for row in result["rows"]] == ["000", "001"]
    assert result["rows"][0]["ORT01"] == "Walldorf & Brno < London"
    assert result["rows"][1]["LOGSYS"] == "NPLCLNT001" and result["rows"][0]["LOGSYS"] == ""
    assert (result["total_rows"], result["truncated"]) == (2, False)
    assert "UP TO 100" in result["query"]


async def test_a_row_limit_below_the_total_says_truncated(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, data=True)
    result = await ok(ctx, "preview_table", name="T000", where="MANDT <> '999'", order_by=["MANDT"], max_rows=1)
    assert adt.queries[-1][1] == "SELECT * FROM T000 WHERE MANDT <> '999' ORDER BY MANDT"
    assert len(result["rows"]) == 1 and result["truncated"] is True


async def test_run_sql_query_goes_to_freestyle(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, data=True)
    result = await ok(ctx, "run_sql_query", query="SELECT COUNT(*) FROM bgrfc_cust_super.")
    endpoint, sql, _ = adt.queries[-1]
    assert endpoint == "freestyle" and sql == "SELECT COUNT(*) FROM bgrfc_cust_super"
    assert result["rows"] == [{"COUNT": "0"}]
    allowed = await ok(ctx, "run_sql_query", query="SELECT mandt FROM t000 WHERE mtext = 'delete; me.'")
    assert allowed["rows"], "keywords and separators inside string literals are data, not statements"


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("run_sql_query", {"query": "DELETE FROM t000 WHERE mandt = '999'"}, "Only ABAP SQL SELECT"),
        ("run_sql_query", {"query": "SELECT * FROM t000; DELETE FROM t000"}, "one SELECT at a time"),
        ("run_sql_query", {"query": "SELECT * FROM t000. UPDATE t000 SET mtext = 'x'"}, "one SELECT at a time"),
        ("run_sql_query", {"query": "SELECT * FROM t000 INTO TABLE @DATA(rows)"}, "INTO"),
        ("run_sql_query", {"query": "WITH +x AS ( SELECT * FROM t000 ) SELECT * FROM +x FOR UPDATE"}, "UPDATE"),
        ("preview_table", {"name": "T000", "where": "1 = 1 UNION ALL SELECT * FROM t000; COMMIT"}, "one SELECT"),
        ("preview_table", {"name": "T000", "columns": ["MANDT, (SELECT"]}, "not a valid ABAP name"),
        # a quote inside a comment is not a literal start, so the DELETE after it is seen
        ("run_sql_query", {"query": "SELECT * FROM t000 \" it's\n . DELETE FROM t000 WHERE ' '"}, "one SELECT"),
        # an indented * is not a comment (only column 1 is)
        ("run_sql_query", {"query": "SELECT * FROM t000\n  * x\n . DELETE FROM t000"}, "one SELECT"),
        ("run_sql_query", {"query": "SELECT * FROM t000\n  * INTO TABLE @DATA(rows)"}, "INTO"),
        ("run_sql_query", {"query": "select * from t000 for update"}, "UPDATE"),
        ("run_sql_query", {"query": 'SELECT * FROM t000 " x\u2028DELETE FROM t000'}, "DELETE"),
        ("run_sql_query", {"query": "SELECT * FROM t000 USING ALL CLIENTS"}, "SAP_DEVS_ADT_CROSS_CLIENT=1"),
        (
            "preview_table",
            {"name": "T000", "where": "MANDT = 'x' \" it's\n . DELETE FROM t000 WHERE ' '"},
            "one SELECT",
        ),
        ("preview_table", {"name": "T000", "where": "MANDT = '000'\n  * INTO TABLE @DATA(rows)"}, "INTO"),
        ("preview_table", {"name": "T000", "where": "MANDT = '000' CLIENT SPECIFIED"}, "Cross-client"),
        ("preview_table", {"name": "T000", "where": "MANDT IN ( SELECT bname FROM usr02 )"}, "only compare columns"),
        ("preview_table", {"name": "T000", "where": "MANDT = 'unterminated"}, "not closed on its line"),
    ],
)
async def test_anything_but_one_select_is_refused_before_sending(adt, tmp_path, tool, args, message) -> None:
    ctx = context(adt, tmp_path, data=True)
    outcome = await call(ctx, tool, **args)
    assert outcome.is_error and message in outcome.text
    assert adt.queries == [], "the refused statement never reached the system"


async def test_cross_client_queries_run_only_with_the_opt_in(adt, tmp_path) -> None:
    query = "SELECT mandt FROM t000 USING ALL CLIENTS"
    refused = await call(context(adt, tmp_path, data=True), "run_sql_query", query=query)
    assert refused.is_error and "USING ALL CLIENTS" in refused.text and adt.queries == []
    allowed = context(adt, tmp_path, data=True, cross_client=True)
    assert (await ok(allowed, "run_sql_query", query=query))["rows"]
    assert adt.queries[-1][1] == query
    await ok(allowed, "preview_table", name="T000", where="MANDT = '000' CLIENT SPECIFIED")


def test_session_reads_the_cross_client_switch(monkeypatch) -> None:
    from sap_devs.mcp.session import open_session

    monkeypatch.setenv("SAP_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("SAP_USER", "DEVELOPER")
    monkeypatch.setenv("SAP_PASSWORD", PASSWORD)
    assert open_session()[1].policy().cross_client is False
    monkeypatch.setenv("SAP_DEVS_ADT_CROSS_CLIENT", "1")
    assert open_session()[1].policy().cross_client is True


async def test_comments_never_reach_the_system(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, data=True)
    await ok(ctx, "run_sql_query", query='SELECT mandt " the client\n* a note; DELETE\n  FROM t000 .')
    assert adt.queries[-1][1] == "SELECT mandt FROM t000"
    await ok(ctx, "preview_table", name="T000", where="MANDT = '000' \" only ours\n  AND mtext <> 'a; b.'")
    assert adt.queries[-1][1] == "SELECT * FROM T000 WHERE MANDT = '000' AND mtext <> 'a; b.'"


async def test_unknown_table_reports_the_system_message(adt, tmp_path) -> None:
    ctx = context(adt, tmp_path, data=True)
    outcome = await call(ctx, "preview_table", name="ZNOPE")
    assert outcome.is_error and "unknown or not active" in outcome.text
