"""ABAP SQL read the way ABAP reads it, so a read-only check cannot be fooled by quotes, comments or line ends.

The tokenizer knows string literals ('...' and `...`, a doubled quote is a quote), comments (``"`` to
the end of the line outside literals, ``*`` only in column 1) and treats every Unicode line break as a
line end. The checked statement is sent re-emitted from the tokens: comments dropped and all on one
line, so the system never sees a comment or a column-1 ``*`` that this module did not see.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Literal

from sap_devs.adt.errors import AdtError

# str.splitlines() breaks lines at exactly these; treating all of them as line ends is the safe side for
# comments (a ``"`` comment never swallows more than ABAP would) and literals (they must not span lines).
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
MAX_QUERY_LENGTH = 16_000
CROSS_CLIENT_ENV = "SAP_DEVS_ADT_CROSS_CLIENT"

_BREAK = re.compile(f"[{re.escape(LINE_BREAKS)}]")
# A digit run is its own token so that "100DELETE" still shows the keyword DELETE.
_WORD = re.compile(r"[0-9]+(?:\.[0-9]+)?|[A-Za-z_][A-Za-z0-9_]*")
_BLANK = re.compile(r"[ \t]+")
_PUNCT = frozenset("()[]{},=<>+-*/~@!?&|:%#$^\\")

CHANGING = frozenset(
    {
        "INSERT", "UPDATE", "DELETE", "MODIFY", "COMMIT", "ROLLBACK", "CALL", "EXEC", "EXECUTE",
        "GRANT", "REVOKE", "DROP", "ALTER", "CREATE", "TRUNCATE", "MERGE", "UPSERT", "LOCK",
    }
)  # fmt: skip
# Words that end a WHERE condition or open a subquery: a preview condition may only filter its own table.
_LEAVES_CONDITION = frozenset(
    {
        "SELECT", "FROM", "WHERE", "UNION", "INTERSECT", "EXCEPT", "ORDER", "GROUP", "HAVING",
        "UP", "OFFSET", "FIELDS", "WITH", "INTO", "APPENDING",
    }
)  # fmt: skip

_CROSS_CLIENT_CLAUSES = {
    "CLIENT": "USING CLIENT",
    "CLIENTS": "USING CLIENTS IN",
    "ALL": "USING ALL CLIENTS",
    "SPECIFIED": "CLIENT SPECIFIED",
}


class QueryRefused(AdtError):
    pass


@dataclass(frozen=True)
class Token:
    kind: Literal["word", "number", "literal", "punct"]
    text: str
    line: int
    column: int  # 1-based, as an ABAP editor counts

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


@dataclass(frozen=True)
class Scanned:
    tokens: list[Token]
    text: str  # the statement without comments, on one line, blanks outside literals collapsed


def tokenize(text: str) -> Scanned:
    """Tokens outside comments, and the text they came from with comments and line breaks removed."""
    tokens: list[Token] = []
    out: list[str] = []
    i, n, line, line_start = 0, len(text), 1, 0
    eol = _line_end(text, 0)  # found once per line, so scanning stays linear however many literals a line holds
    while i < n:
        ch = text[i]
        if ch in LINE_BREAKS:
            i += 2 if text.startswith("\r\n", i) else 1
            line, line_start, eol = line + 1, i, _line_end(text, i)
            _space(out)
            continue
        if ch == '"' or (ch == "*" and i == line_start):
            i = eol
            continue
        if blank := _BLANK.match(text, i):
            _space(out)
            i = blank.end()
            continue
        column = i - line_start + 1
        if ch in "'`":
            end = _literal_end(text, i, eol, line, column)
            tokens.append(Token("literal", text[i:end], line, column))
        elif word := _WORD.match(text, i):
            end = word.end()
            tokens.append(Token("number" if ch.isdigit() else "word", word.group(), line, column))
        elif ch in _PUNCT or ch in ".;":
            end = i + 1
            tokens.append(Token("punct", ch, line, column))
        else:
            raise QueryRefused(
                f"Character U+{ord(ch):04X} ({ch!r}) at line {line}, column {column} is not allowed outside string "
                "literals and comments.",
                hint="ABAP SQL keywords, names and operators are plain ASCII; put other text inside quotes.",
            )
        out.append(text[i:end])
        i = end
    return Scanned(tokens, "".join(out).strip())


def _space(out: list[str]) -> None:
    if out and out[-1] != " ":
        out.append(" ")


def _line_end(text: str, start: int) -> int:
    found = _BREAK.search(text, start)
    return found.start() if found else len(text)


def _literal_end(text: str, start: int, limit: int, line: int, column: int) -> int:
    """Index just after the literal opened at ``start``; literals end on their own line (before ``limit``)."""
    quote = text[start]
    i = start + 1
    while True:
        close = text.find(quote, i, limit)
        if close < 0:
            raise QueryRefused(
                f"The string literal at line {line}, column {column} is not closed on its line.",
                hint=f"Close it with {quote} on the same line; a {quote} inside a literal is written twice "
                f"({quote}it{quote}{quote}s{quote}).",
            )
        if close + 1 < limit and text[close + 1] == quote:
            i = close + 2  # a doubled quote is part of the literal
            continue
        return close + 1


def check_select(statement: str, *, cross_client: bool = False) -> str:
    """The statement, as it will be sent, if it is one read-only SELECT; a clear refusal otherwise."""
    if len(statement) > MAX_QUERY_LENGTH:
        raise QueryRefused(
            f"The query is {len(statement):,} characters long; at most {MAX_QUERY_LENGTH:,} are accepted.",
            hint="Select fewer columns or shorten the condition.",
        )
    scanned = tokenize(statement)
    tokens, text = scanned.tokens, scanned.text
    if tokens and tokens[-1].text == ".":  # the period that ends an ABAP statement is fine, and not sent
        tokens = tokens[:-1]
        text = text[:-1].rstrip()
    if not tokens or tokens[0].upper not in ("SELECT", "WITH"):
        raise QueryRefused("Only ABAP SQL SELECT statements (or WITH ... SELECT) can be run.")
    for token in tokens:
        if token.kind == "punct" and token.text in ".;:":
            what = "chained statements (':')" if token.text == ":" else f"statement separators ({token.text!r})"
            raise QueryRefused(
                f"Run one SELECT at a time: {what} are not allowed outside string literals "
                f"(line {token.line}, column {token.column})."
            )
    for token, following in itertools.pairwise(tokens):
        # @( ... ) evaluates ABAP, including method calls that could change data behind the SELECT
        if token.kind == "punct" and token.text == "@" and following.text == "(":
            raise QueryRefused(
                f"Host expressions @( ... ) are refused (line {token.line}, column {token.column}): they run ABAP code.",
                hint="Write the value as a literal instead.",
            )
    words = [t.upper for t in tokens if t.kind == "word"]
    for word in words:
        if word in CHANGING:
            raise QueryRefused(f"The query contains {word}; only reading SELECTs are allowed.")
        if word in ("INTO", "APPENDING"):
            raise QueryRefused("Leave out INTO/APPENDING: the preview decides where the rows go.")
        if word == "CONNECTION":
            raise QueryRefused("CONNECTION is refused: queries read only the system's own database.")
    for word, following in itertools.pairwise(words):
        if word == "WITH" and following == "PRIVILEGED":
            raise QueryRefused("WITH PRIVILEGED ACCESS is refused: queries run with the user's CDS access control.")
        if cross_client:
            continue
        if (word == "USING" and following in ("CLIENT", "CLIENTS", "ALL")) or (
            word == "CLIENT" and following == "SPECIFIED"
        ):
            clause = _CROSS_CLIENT_CLAUSES[following]
            raise QueryRefused(
                f"Cross-client access ({clause}) is refused: queries read only the logon client.",
                hint=f"Set {CROSS_CLIENT_ENV}=1 before starting the server to allow USING CLIENT, USING CLIENTS IN, "
                "USING ALL CLIENTS and CLIENT SPECIFIED.",
            )
    return text


def check_condition(condition: str, table: str) -> None:
    """A preview's WHERE condition: it may filter ``table`` but not close the clause or open a subquery."""
    # The condition follows "WHERE " in the statement, so its first character is never in column 1.
    tokens = tokenize(" " + condition).tokens
    depth = 0
    for token in tokens:
        if token.text == "(":
            depth += 1
        elif token.text == ")":
            depth -= 1
        if depth < 0:
            raise QueryRefused("The where condition closes a parenthesis it did not open.")
        if token.upper in _LEAVES_CONDITION:
            raise QueryRefused(
                f"The where condition contains {token.upper}: it may only compare columns of {table}.",
                hint="Use run_sql_query for joins, unions, subqueries and grouping.",
            )
    if depth:
        raise QueryRefused("The where condition leaves a parenthesis open.")
