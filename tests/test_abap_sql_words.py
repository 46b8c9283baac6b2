"""Every word the ABAP SQL check refuses is refused, in every place it could be sent (mutants
scripts/mutation.py found surviving in adt/abap_sql.py: one word dropped from a list passed)."""

from __future__ import annotations

import pytest

from sap_devs.adt.abap_sql import (
    _LEAVES_CONDITION,
    CHANGING,
    MAX_QUERY_LENGTH,
    QueryRefused,
    check_condition,
    check_select,
    tokenize,
)

CHANGING_WORDS = [
    "INSERT", "UPDATE", "DELETE", "MODIFY", "COMMIT", "ROLLBACK", "CALL", "EXEC", "EXECUTE",
    "GRANT", "REVOKE", "DROP", "ALTER", "CREATE", "TRUNCATE", "MERGE", "UPSERT", "LOCK",
]  # fmt: skip
LEAVING_WORDS = [
    "SELECT", "FROM", "WHERE", "UNION", "INTERSECT", "EXCEPT", "ORDER", "GROUP", "HAVING",
    "UP", "OFFSET", "FIELDS", "WITH", "INTO", "APPENDING",
]  # fmt: skip


def test_the_lists_under_test_are_the_lists_in_use() -> None:
    assert set(CHANGING_WORDS) == CHANGING and set(LEAVING_WORDS) == _LEAVES_CONDITION


@pytest.mark.parametrize("word", CHANGING_WORDS)
def test_every_changing_word_is_refused_in_a_select(word: str) -> None:
    for written in (word, word.lower(), word.capitalize()):
        with pytest.raises(QueryRefused, match=f"contains {word}; only reading SELECTs"):
            check_select(f"SELECT * FROM t000 WHERE mandt = '000' {written} x")


@pytest.mark.parametrize("word", LEAVING_WORDS)
def test_every_word_that_leaves_a_where_clause_is_refused_in_a_preview_condition(word: str) -> None:
    for written in (word, word.lower()):
        with pytest.raises(QueryRefused, match=f"contains {word}: it may only compare columns of T000"):
            check_condition(f"mandt = '000' {written} x", "T000")


@pytest.mark.parametrize("word", CHANGING_WORDS + LEAVING_WORDS)
def test_the_same_words_inside_literals_pass(word: str) -> None:
    check_condition(f"mtext = '{word} x' OR ort01 = `{word}`", "T000")
    statement = f"SELECT * FROM t000 WHERE mtext = '{word}' OR ort01 = `{word};`"
    assert check_select(statement) == statement


def test_the_length_limit_is_inclusive() -> None:
    base = "SELECT * FROM t000 WHERE mtext = '"
    exact = base + "x" * (MAX_QUERY_LENGTH - len(base) - 1) + "'"
    assert len(exact) == MAX_QUERY_LENGTH and check_select(exact) == exact
    with pytest.raises(QueryRefused, match=f"at most {MAX_QUERY_LENGTH:,}"):
        check_select(exact[:-1] + "x'")


def test_a_star_in_column_one_of_the_first_line_is_a_comment() -> None:
    assert check_select("* DELETE FROM t000\nSELECT * FROM t000") == "SELECT * FROM t000"
    assert tokenize("SELECT x").tokens[0].column == 1


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT MAX( price ) AS max_price FROM sflight",
        "SELECT carrid, COUNT( * ) AS x FROM sflight GROUP BY carrid",
        "SELECT * FROM XTAB WHERE XFIELD = 'X'",
    ],
)
def test_names_and_functions_with_an_x_pass_unchanged(statement: str) -> None:
    assert check_select(statement) == statement


def test_backquoted_literals_are_literals() -> None:
    assert (
        check_select("SELECT * FROM t000 WHERE mtext = `DELETE; x`") == "SELECT * FROM t000 WHERE mtext = `DELETE; x`"
    )
    with pytest.raises(QueryRefused, match="not closed"):
        check_select("SELECT * FROM t000 WHERE mtext = `DELETE")


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT X FROM zxtab",
        "SELECT client FROM zorders WHERE client = '100'",
        "SELECT specified FROM zflags",
        "SELECT * FROM t000 WHERE a = 'x'''",
    ],
)
def test_columns_named_like_clause_words_and_doubled_quotes_pass(statement: str) -> None:
    assert check_select(statement) == statement


def test_an_unclosed_literal_is_reported_where_it_opens() -> None:
    with pytest.raises(QueryRefused, match="literal at line 1, column 30 is not closed"):
        check_select("SELECT * FROM t000 WHERE a = 'x''")
