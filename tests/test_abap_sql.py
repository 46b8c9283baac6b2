"""The ABAP SQL check behind run_sql_query and preview_table: literals, comments and line ends read as ABAP does."""

from __future__ import annotations

import time

import pytest

from sap_devs.adt.abap_sql import MAX_QUERY_LENGTH, QueryRefused, check_condition, check_select, tokenize

LINE_BREAKS = ["\n", "\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


def refused(statement: str, **kwargs: bool) -> str:
    with pytest.raises(QueryRefused) as caught:
        check_select(statement, **kwargs)
    return str(caught.value)


# -- the bypasses the old checker let through ------------------------------------------------------


def test_quote_inside_a_double_quote_comment_does_not_open_a_literal() -> None:
    message = refused("SELECT * FROM t000 \" it's\n . DELETE FROM t000 WHERE ' '")
    assert "one SELECT at a time" in message and "line 2" in message


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("SELECT * FROM t000\n  * just a note\n . DELETE FROM t000", "one SELECT at a time"),
        ("SELECT * FROM t000\n  * INTO TABLE @DATA(rows)", "INTO"),
        ("SELECT * FROM t000\n\t* DELETE FROM t000", "DELETE"),
    ],
)
def test_indented_star_is_not_a_comment(statement: str, message: str) -> None:
    assert message in refused(statement)


def test_star_in_column_one_is_a_comment_and_is_not_sent() -> None:
    sent = check_select("SELECT * FROM t000\n* the clients; DELETE them. INTO\nWHERE mandt = '000'.")
    assert sent == "SELECT * FROM t000 WHERE mandt = '000'"


@pytest.mark.parametrize("statement", ["SELECT * FROM t000 for update", "select * from t000 For Update"])
def test_for_update_in_any_case_is_refused(statement: str) -> None:
    assert "UPDATE" in refused(statement)


@pytest.mark.parametrize(
    "statement",
    [
        "sElEcT * FrOm t000; dElEtE FrOm t000",
        "SELECT * FROM t000 WHERE mandt IN ( SELECT mandt FROM t000 ) . Delete FROM t000",
    ],
)
def test_mixed_case_separators_and_keywords_are_refused(statement: str) -> None:
    assert "one SELECT at a time" in refused(statement)


@pytest.mark.parametrize("word", ["insert", "Modify", "DELETE", "commit", "Lock", "Call", "Drop"])
def test_changing_keywords_are_refused_case_insensitively(word: str) -> None:
    assert word.upper() in refused(f"SELECT * FROM t000 WHERE mandt = 1 {word}")


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_every_unicode_line_break_ends_a_comment(brk: str) -> None:
    assert "DELETE" in refused(f'SELECT * FROM t000 " note{brk}DELETE FROM t000')


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_every_unicode_line_break_starts_a_new_column_one(brk: str) -> None:
    sent = check_select(f"SELECT mandt FROM t000{brk}* DELETE INTO everything.{brk}WHERE mandt = '000'")
    assert sent == "SELECT mandt FROM t000 WHERE mandt = '000'", "the system gets one line without the comment"


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_a_literal_cannot_span_a_line_break(brk: str) -> None:
    assert "not closed on its line" in refused(f"SELECT * FROM t000 WHERE mtext = 'a{brk}' . DELETE FROM t000")


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT * FROM t000 WHERE mtext = 'unterminated",
        "SELECT * FROM t000 WHERE mtext = `unterminated",
        "SELECT * FROM t000 WHERE mtext = 'it''s",
        "SELECT * FROM t000 WHERE mtext = '''",
    ],
)
def test_unterminated_literals_are_refused(statement: str) -> None:
    message = refused(statement)
    assert "not closed on its line" in message and "written twice" in message


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT * FROM t000 WHERE mtext = 'a. b; c'",
        "SELECT * FROM t000 WHERE mtext = 'say \"hi\" * 2'",
        "SELECT * FROM t000 WHERE mtext = 'DELETE FROM t000 INTO x FOR UPDATE USING ALL CLIENTS'",
        "SELECT * FROM t000 WHERE mtext = 'it''s. DELETE'",
        'SELECT * FROM t000 WHERE mtext = `back``tick; "x" . DELETE`',
        "SELECT * FROM t000 WHERE mtext = ''",
    ],
)
def test_literals_with_separators_quotes_and_keywords_still_pass_unchanged(statement: str) -> None:
    assert check_select(statement) == statement


def test_valid_queries_pass_and_are_sent_without_comments_or_the_final_period() -> None:
    query = (
        "WITH +flights AS ( SELECT carrid, COUNT(*) AS n FROM sflight GROUP BY carrid )\n"
        '  SELECT * FROM +flights " per carrier\n'
        "  WHERE n > 1.5 ORDER BY n DESCENDING ."
    )
    assert check_select(query) == (
        "WITH +flights AS ( SELECT carrid, COUNT(*) AS n FROM sflight GROUP BY carrid ) "
        "SELECT * FROM +flights WHERE n > 1.5 ORDER BY n DESCENDING"
    )
    assert check_select("SELECT a~mandt FROM t000 AS a INNER JOIN t001 AS b ON a~mandt = b~mandt UP TO 5 ROWS")


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("DELETE FROM t000", "Only ABAP SQL SELECT"),
        ('" SELECT\nDELETE FROM t000', "Only ABAP SQL SELECT"),
        ("", "Only ABAP SQL SELECT"),
        ("SELECT * FROM t000 . .", "one SELECT at a time"),
        ("SELECT * FROM t000 WHERE mandt = 1.DELETE", "one SELECT at a time"),
        ("SELECT: * FROM t000, * FROM t001", "chained statements"),
        ("SELECT * FROM t000 APPENDING TABLE @rows", "APPENDING"),
        ("SELECT * FROM t000 WHERE 100DELETE = 1", "DELETE"),
        ("SELECT * FROM t000 CONNECTION ('R/3*OTHER')", "CONNECTION"),
        ("SELECT * FROM zview WITH PRIVILEGED ACCESS", "PRIVILEGED ACCESS"),
        ("SELECT * FROM t000 WHERE mandt = @( zcl_cleanup=>run( ) )", "Host expressions"),
        ("SELECT * FROM t000 WHERE mandt = @ ( zcl_cleanup=>run( ) )", "Host expressions"),
        ("SELECT\u00a0* FROM t000", "U+00A0"),
        ("SELECT * FROM t000\x00", "U+0000"),
    ],
)
def test_other_refusals_say_what_was_wrong(statement: str, message: str) -> None:
    assert message in refused(statement)


@pytest.mark.parametrize(
    ("statement", "clause"),
    [
        ("SELECT * FROM t000 USING ALL CLIENTS", "USING ALL CLIENTS"),
        ("select * from t000 using client '200'", "USING CLIENT"),
        ("SELECT * FROM t000 USING CLIENTS IN @clients", "USING CLIENTS IN"),
        ("SELECT * FROM t000 CLIENT SPECIFIED WHERE mandt = '200'", "CLIENT SPECIFIED"),
        ('SELECT * FROM t000 Using " hidden?\n  All Clients', "USING ALL CLIENTS"),
    ],
)
def test_cross_client_access_needs_the_opt_in(statement: str, clause: str) -> None:
    message = refused(statement)
    assert f"Cross-client access ({clause}) is refused" in message and "SAP_DEVS_ADT_CROSS_CLIENT=1" in message
    assert check_select(statement, cross_client=True)


def test_length_is_bounded_and_checking_is_linear() -> None:
    assert "at most" in refused("SELECT * FROM t000 WHERE " + "a = 1 AND " * 2000)
    # Quote-heavy input is the classic way to make a regex checker backtrack; this one stays linear.
    worst = "SELECT * FROM t000 WHERE x = '" + "''" * ((MAX_QUERY_LENGTH - 40) // 2)
    start = time.perf_counter()
    assert "not closed" in refused(worst)
    comments = "SELECT * FROM t000\n" + '" x\n' * ((MAX_QUERY_LENGTH - 40) // 4)
    assert check_select(comments) == "SELECT * FROM t000"
    many_literals = "SELECT * FROM t000 WHERE " + " OR ".join(["a = 'x'"] * ((MAX_QUERY_LENGTH - 40) // 11))
    assert check_select(many_literals) == many_literals
    # Linear takes milliseconds; a backtracking checker takes minutes here. 10 s leaves room for a loaded CI.
    assert time.perf_counter() - start < 10.0


def test_tokens_know_their_line_and_column() -> None:
    tokens = tokenize("SELECT 'a''b'\r\n  FROM t000").tokens
    assert [(t.kind, t.text, t.line, t.column) for t in tokens] == [
        ("word", "SELECT", 1, 1),
        ("literal", "'a''b'", 1, 8),
        ("word", "FROM", 2, 3),
        ("word", "t000", 2, 8),
    ]


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ("mandt = '000' ORDER BY mtext", "contains ORDER"),
        ("1 = 1 UNION SELECT * FROM usr02", "contains UNION"),
        ("mandt IN ( SELECT mandt FROM usr02 )", "contains SELECT"),
        ("mandt = '000' )", "closes a parenthesis"),
        ("( mandt = '000'", "leaves a parenthesis open"),
        ("mandt = '000'\n  * INTO TABLE @x", "contains INTO"),
    ],
)
def test_a_preview_condition_cannot_leave_its_where_clause(condition: str, message: str) -> None:
    with pytest.raises(QueryRefused, match=message):
        check_condition(condition, "T000")


def test_a_preview_condition_may_use_literals_and_parentheses() -> None:
    check_condition("( mandt = '000' OR mtext LIKE '%ORDER BY; SELECT%' ) AND ort01 <> `x`", "T000")
